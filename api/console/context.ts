import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { ConsolePrincipal, ConsoleSession } from '../../db/console-sessions';
import type { Actor } from '../../db/audit';
import type { ListedDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import { html, page, type Frame } from './html';
import { isUuid } from '../../core/ids';
import { companyLimit, mayDo, ROLE_NAMES } from './permissions';

/** Who is looking at a console page: the signed-in session and the page frame it gets (navigation, sign-out form). */
export interface Viewer {
  session: ConsoleSession;
  frame: (title: string, current?: Frame['current']) => Frame;
}

/** Who the frame says is signed in: support staff, the account (its token), or a user by its role. */
function whoOf(principal: ConsolePrincipal): string {
  if (principal.kind === 'user') return ROLE_NAMES[principal.role];
  return principal.kind === 'support' ? 'soporte' : 'cuenta';
}

export function viewerOf(session: ConsoleSession): Viewer {
  const { principal } = session;
  const extra = [
    ...(mayDo(principal, 'users.manage') ? (['users'] as const) : []),
    ...(mayDo(principal, 'audit.read') ? (['audit'] as const) : []),
  ];
  return {
    session,
    frame: (title, current) => ({
      title,
      current,
      session: { name: principal.name, who: whoOf(principal), csrf: session.csrf, extra },
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
  session.principal.kind === 'support' ? null : session.principal.accountId;

/** The documents a session may list: its account's, and of a user limited to some companies only theirs. */
export function documentScope(session: ConsoleSession): { accountId?: string; companyId?: string[] } {
  const accountId = scopeOf(session);
  const companyIds = companyLimit(session.principal);
  return { ...(accountId ? { accountId } : {}), ...(companyIds ? { companyId: companyIds } : {}) };
}

/** Who the audit records for a console action. */
export const actorOf = (session: ConsoleSession) => `console:${session.principal.name}`;

/** The audit log's actor of a console request: a user by its e-mail, else the session's name, from the client's address. */
export function consoleActor(ctx: Context, session: ConsoleSession): Actor {
  return {
    kind: session.principal.kind === 'user' ? 'user' : session.principal.kind === 'support' ? 'support' : 'console',
    name: session.principal.name,
    address: ctx.ip || null,
    requestId: (ctx.state.requestId as string | undefined) ?? null,
  };
}

/** A document the session may see: support staff any, an account holder only its companies' (else as if absent). */
export async function visibleDocument(
  deps: AppDeps,
  session: ConsoleSession,
  id: string,
): Promise<ListedDocument | null> {
  if (!isUuid(id)) return null;
  const [doc] = await listDocuments(deps.db, { ids: [id], limit: 1, ...documentScope(session) });
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
