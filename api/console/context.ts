import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { ConsoleSession } from '../../db/console-sessions';
import type { Actor } from '../../db/audit';
import { listDocuments, type ListedDocument } from '../../db/documents';
import { html, page, type Frame } from './html';
import { isUuid } from '../../core/ids';

/** Who is looking at a console page: the signed-in session and the page frame it gets (navigation, sign-out form). */
export interface Viewer {
  session: ConsoleSession;
  frame: (title: string, current?: Frame['current']) => Frame;
}

export function viewerOf(session: ConsoleSession): Viewer {
  return {
    session,
    frame: (title, current) => ({
      title,
      current,
      session: { name: session.principal.name, kind: session.principal.kind, csrf: session.csrf },
    }),
  };
}

/** Answers a rendered page. */
export function writePage(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

/** The account a session is limited to; null for support staff (every account). */
export const scopeOf = (session: ConsoleSession): string | null =>
  session.principal.kind === 'account' ? session.principal.accountId : null;

/** Who the audit log (db/audit.ts) records for a change made from a console session. */
export const consoleActor = (ctx: Context, session: ConsoleSession): Actor => ({
  kind: 'console',
  name: session.principal.name,
  address: ctx.ip || null,
  requestId: (ctx.state.requestId as string | undefined) ?? null,
});

/** Who the audit records for a console action. */
export const actorOf = (session: ConsoleSession) => `console:${session.principal.name}`;

/** A document the session may see: support staff any, an account holder only its companies' (else as if absent). */
export async function visibleDocument(
  deps: AppDeps,
  session: ConsoleSession,
  id: string,
): Promise<ListedDocument | null> {
  if (!isUuid(id)) return null;
  const accountId = scopeOf(session);
  const [doc] = await listDocuments(deps.db, { ids: [id], limit: 1, ...(accountId ? { accountId } : {}) });
  return doc ?? null;
}

export function notFoundPage(ctx: Context, viewer: Viewer): void {
  writePage(
    ctx,
    404,
    page(
      viewer.frame('Documento no encontrado', 'documents'),
      html`<p>No hay un documento con esa referencia que usted pueda ver.</p>
        <p><a href="/console/documents">Buscar otro</a></p>`,
    ),
  );
}
