import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { ListedDocument } from '../../db/documents';
import { listSupportActions } from '../../db/support-actions';
import {
  emailAgain,
  lifecycleDeps,
  recheck,
  redeliverDocument,
  resend,
  type ActOptions,
  type LifecycleDeps,
} from '../../support/actions';
import type { ActionResult } from '../../lifecycle/result';
import { isMessage, spanish } from '../../lifecycle/messages';
import { logger } from '../../core/logger';
import { REFUSAL_STATUS } from '../actions';
import { html, notice, page, type Html } from './html';
import { actorOf, writePage, type Viewer } from './context';

/** The support actions the console offers: the lifecycle room's, with the words a support person reads. */
export const ACTIONS = {
  recheck: {
    label: 'Consultar el estado ahora',
    explains: 'Pregunta a SUNAT (u OSE) por el estado real: consulta un envío sin respuesta o un ticket. Nunca envía.',
    run: recheck,
  },
  resend: {
    label: 'Enviar de nuevo',
    explains: 'Envía el mismo XML firmado (sin nueva firma ni consumo de cuota), solo si nunca llegó a SUNAT.',
    run: resend,
  },
  redeliver: {
    label: 'Entregar el webhook de nuevo',
    explains: html`Entrega otra vez el aviso <code>cpe.resolved</code> a la URL configurada hoy (con un nuevo
      <code class="number">X-Entrega</code>).`,
    run: redeliverDocument,
  },
  email: {
    label: 'Enviar el correo al comprador de nuevo',
    explains:
      'Envía otra vez al comprador el PDF y el XML firmado, a las direcciones de cliente.correo (3 veces por hora como máximo).',
    run: (deps: LifecycleDeps, doc: ListedDocument, options: ActOptions) =>
      emailAgain(deps, doc.id, { operator: options.actor ?? '', dryRun: options.dryRun }),
  },
} as const;
export type ActionName = keyof typeof ACTIONS;
export const ACTION_NAMES = Object.keys(ACTIONS) as ActionName[];
export const isActionName = (name: string): name is ActionName => name in ACTIONS;

const plan = (deps: AppDeps, doc: ListedDocument, name: ActionName): Promise<ActionResult<unknown>> =>
  ACTIONS[name].run(lifecycleDeps(deps), doc, { dryRun: true });

/**
 * The document page's actions: each the lifecycle room's dry run decides. One that applies links to its confirmation;
 * one that does not is shown disabled with the room's reason, so nobody clicks to learn it does not apply.
 */
export async function actionList(deps: AppDeps, doc: ListedDocument): Promise<Html> {
  const plans = await Promise.all(ACTION_NAMES.map((name) => plan(deps, doc, name)));
  return html`<ul class="actions">
    ${ACTION_NAMES.map((name, i) => {
      const { label, explains } = ACTIONS[name];
      const decided = plans[i];
      return decided.outcome === 'done'
        ? html`<li>
            <a class="button" href="/console/documents/${doc.id}/acciones/${name}">${label}</a>
            <p class="hint">${explains}</p>
          </li>`
        : html`<li>
            <button type="button" disabled aria-describedby="why-${name}">${label}</button>
            <p class="hint" id="why-${name}">No disponible: ${spanish(decided.message)}</p>
          </li>`;
    })}
  </ul>`;
}

/** GET: what the action would do (a dry run, the same reasons as the CLI's), with the confirmation form. */
export async function actionPreview(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  doc: ListedDocument,
  name: ActionName,
): Promise<void> {
  const action = ACTIONS[name];
  const decided = await plan(deps, doc, name);
  const body =
    decided.outcome === 'done'
      ? html`${notice('info', html`${spanish(decided.message)} Quedará registrado a nombre de ${viewer.session.principal.name}.`)}
          <form method="post" action="/console/documents/${doc.id}/acciones/${name}">
            <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
            <button type="submit">Confirmar: ${action.label.toLowerCase()}</button>
          </form>`
      : // What does apply is one click away (a resend refused because it may have arrived: the state query).
        html`${notice('refused', html`No se puede: ${spanish(decided.message)}`)}
          <h2>Acciones de este documento</h2>
          ${await actionList(deps, doc)}`;
  writePage(
    ctx,
    200,
    page(
      viewer.frame(`${action.label}: ${doc.filename}`, 'documents'),
      html`<p>${action.explains}</p>
        ${body}
        <p><a href="/console/documents/${doc.id}">Volver al documento</a></p>`,
    ),
  );
}

/** What the document page says after an action: the outcome, and the status the refusal or failure answers with. */
export interface ActionOutcome {
  status: number;
  notice: Html;
}

/**
 * POST (CSRF checked by the caller): the action itself, recorded in the audit with the signed-in name. Done: the
 * caller redirects to the document page (POST-redirect-GET), which reads the notice back from the audit. Refused: the
 * lifecycle room's status (api/actions.ts REFUSAL_STATUS); the delivery service unreachable: 503.
 */
export async function actionRun(
  deps: AppDeps,
  viewer: Viewer,
  doc: ListedDocument,
  name: ActionName,
): Promise<ActionOutcome | 'done'> {
  const actor = actorOf(viewer.session);
  let result: ActionResult<unknown>;
  try {
    result = await ACTIONS[name].run(lifecycleDeps(deps), doc, { actor });
  } catch (err) {
    logger.error({ err, externalId: doc.id, action: name, actor }, 'console support action failed');
    return {
      status: 503,
      notice: notice(
        'refused',
        'No se pudo entregar la orden al servicio de envíos; el documento sigue como estaba. Inténtelo de nuevo en unos minutos.',
      ),
    };
  }
  logger.info({ externalId: doc.id, action: name, actor, outcome: result.outcome }, 'console support action');
  if (result.outcome === 'done') return 'done';
  return {
    status: REFUSAL_STATUS[result.code],
    notice: notice('refused', html`${ACTIONS[name].label}: no se puede. ${spanish(result.message)}`),
  };
}

/** How long after an action its redirect's notice is shown: a bookmarked `?hecho=` says nothing days later. */
const NOTICE_SECONDS = 600;

/** The notice after a done action's redirect: the audit's record of it, in Spanish; null when there is none (recent). */
export async function doneNotice(
  deps: AppDeps,
  viewer: Viewer,
  doc: ListedDocument,
  name: ActionName,
): Promise<Html | null> {
  const mine = (await listSupportActions(deps.db, doc.id)).filter(
    (a) => a.action === name && a.operator === actorOf(viewer.session) && a.result === 'done',
  );
  const last = mine[mine.length - 1];
  if (!last || Date.now() - new Date(last.created_at).getTime() > NOTICE_SECONDS * 1000) return null;
  return notice('ok', `${ACTIONS[name].label}: hecho.${isMessage(last.message) ? ` ${spanish(last.message)}` : ''}`);
}
