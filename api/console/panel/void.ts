import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import type { DocumentRow } from '../../../db/documents';
import { findVoid, voidState } from '../../../db/voids';
import { STATUS_ES } from '../../../lifecycle/messages';
import { createCompanyKeys } from '../../../keys/signing-keys';
import { ApiError } from '../../errors';
import { voidDocument, voidRefusal, VoidRefused, type VoidRefusal } from '../../cpe/void';
import { html, notice, type Html } from '../html';
import { consoleActor, type Viewer } from '../context';
import { mayDo, rolesFor } from '../permissions';
import { limaLabelled } from '../words';
import { keysOf } from './issue';

/**
 * Voiding an accepted document from its console page (issue 42 item 11, docs/panel.md): an account session whose role
 * may issue types the reason; the API's own function voids it (api/cpe/void.ts), with its rules. Its refusals are
 * said here in Spanish, one sentence per reason.
 */
const REFUSAL_WORDS: Record<VoidRefusal, string> = {
  type: 'Este tipo de documento no se anula así: se emite su resumen o comunicación de baja por la API.',
  external: 'Esta empresa firma sus documentos: emita la comunicación de baja firmada por la API.',
  rejected: 'SUNAT rechazó este documento: nunca fue válido, no hay nada que anular.',
  not_accepted: 'Solo se anula un documento aceptado: espere la respuesta de SUNAT.',
};

/** SUNAT's VoidReasonDescription holds at most 100 characters (the API's bound). */
const MAX_REASON = 100;

const mayVoid = (viewer: Viewer, doc: DocumentRow) =>
  viewer.session.principal.kind !== 'support' && mayDo(viewer.session.principal, 'documents.issue', doc.company_id);

/** The document page's "Anular" section: the void already asked and where it stands, or the form when it applies. */
export async function voidSection(deps: AppDeps, viewer: Viewer, doc: DocumentRow, company: CompanyRow): Promise<Html> {
  const requested = await findVoid(deps.db, doc.id);
  if (requested) {
    const { status } = await voidState(deps.db, requested);
    const where = status === 'pending' ? 'espera el próximo resumen diario' : (STATUS_ES[status] ?? status);
    return html`<h2>Anulación</h2>
      <p>Solicitada el ${limaLabelled(requested.created_at)} («${requested.reason}»): ${where}.</p>`;
  }
  if (!mayVoid(viewer, doc) || voidRefusal(doc, company)) return html``;
  return html`<h2>Anulación</h2>
    <form class="card" method="post" action="/console/documents/${doc.id}/anular">
      <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
      <label for="void-reason">Motivo de la anulación</label>
      <p class="hint" id="void-hint">Se comunica a SUNAT tal como lo escriba (hasta ${MAX_REASON} caracteres).</p>
      <input id="void-reason" name="motivo" maxlength="${MAX_REASON}" required aria-describedby="void-hint" />
      <div><button type="submit">Anular el documento</button></div>
    </form>`;
}

/**
 * POST /console/documents/{id}/anular: voids the document, then 303 to its page; a refusal answers the page with the
 * reason in Spanish and nothing changed.
 */
export async function voidPost(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  doc: DocumentRow,
  form: URLSearchParams,
  refused: (status: number, message: Html) => Promise<void>,
): Promise<void> {
  if (!mayVoid(viewer, doc))
    return refused(403, notice('refused', `Su rol no permite anular: necesita el rol ${rolesFor('documents.issue')}.`));
  const reason = (form.get('motivo') ?? '').trim();
  if (!reason || reason.length > MAX_REASON)
    return refused(
      422,
      notice('refused', `Escriba el motivo de la anulación (de 1 a ${MAX_REASON} caracteres): no se anuló nada.`),
    );
  try {
    await voidDocument(deps, createCompanyKeys(deps, keysOf(deps)), doc, reason, consoleActor(ctx, viewer.session));
  } catch (err) {
    if (err instanceof VoidRefused) return refused(err.status, notice('refused', REFUSAL_WORDS[err.code]));
    if (err instanceof ApiError)
      return refused(err.status, notice('refused', `No se pudo anular (respuesta ${err.status}): no se anuló nada.`));
    throw err;
  }
  ctx.status = 303;
  ctx.redirect(`/console/documents/${doc.id}?hecho=anulado`);
}
