import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { findDelivery } from '../../../db/webhooks';
import { lifecycleDeps, redeliver } from '../../../support/actions';
import { spanish } from '../../../lifecycle/messages';
import { ApiError } from '../../errors';
import { REFUSAL_STATUS } from '../../actions';
import { TargetRefused, type TargetRefusal } from '../../companies/shared';
import { rotateWebhookSecret, sendTestNotice, setWebhook, TEST_NOTICE_LIMIT } from '../../companies/webhook';
import { webhookSchema, validate } from '../../companies/schemas';
import { html, notice, type Html } from '../html';
import { actorOf, consoleActor, type Viewer } from '../context';
import { companyPath, writeCompanyPage } from './frame';
import { csrfField, doneNotice, fieldError, secretOnce, wrappableUrl } from './secrets';
import { deliveryLog } from './deliveries';

/** The webhook tab (docs/panel.md, "Webhook"): URL, secret, test notice and the delivery log with redelivery. */

const URL_MAX = 2000;

/** The API's reasons for refusing a URL, in Spanish. */
const TARGET_WORDS: Readonly<Record<TargetRefusal, string>> = {
  invalid_url: 'No es una dirección web completa: escríbala con https:// y el nombre del servidor.',
  not_https: 'Debe usar https: los avisos van firmados, pero también deben viajar cifrados.',
  credentials_in_url: 'No debe llevar usuario ni contraseña dentro de la dirección.',
  unresolvable: 'El nombre del servidor no existe en el DNS.',
  not_public: 'Debe apuntar a una dirección pública de internet, no a una local o privada.',
};

const DONE_WORDS = {
  desactivado: 'Webhook desactivado: no se envían más avisos.',
  'sin-cambios': 'La URL es la misma: el secreto que recibió al registrarla sigue vigente.',
  prueba: 'Aviso de prueba en camino: su estado aparece en las entregas de abajo.',
  reentrega: 'Entrega nueva en camino, con un nuevo X-Entrega.',
};

interface Shown {
  top?: Html | string;
  urlError?: string | null;
  typed?: string;
}

async function webhookBody(deps: AppDeps, viewer: Viewer, company: CompanyRow, shown: Shown): Promise<Html> {
  const path = companyPath(company.ruc, 'webhook');
  const csrf = csrfField(viewer.session.csrf);
  const configured = company.webhook_url;
  const { limit } = TEST_NOTICE_LIMIT;
  return html`${shown.top ?? ''}
    <p>
      Su sistema recibe un aviso firmado (cabecera <code>X-Firma</code>, HMAC-SHA256 del cuerpo con el secreto) cuando
      SUNAT o la OSE resuelve cada documento.
    </p>
    <h2>Dirección</h2>
    <p>${configured ? html`Avisos a ${wrappableUrl(configured)}` : 'Sin webhook: no se envían avisos.'}</p>
    <form method="post" action="${path}" class="card">
      ${csrf}
      <label for="webhook-url">URL del webhook (https)</label>
      <input
        id="webhook-url"
        name="url"
        type="url"
        maxlength="${URL_MAX}"
        required
        value="${shown.typed ?? configured ?? ''}"
        ${shown.urlError ? html`aria-describedby="webhook-url-error"` : ''}
      />
      ${fieldError('webhook-url-error', shown.urlError ?? null)}
      <button type="submit">Guardar la URL</button>
    </form>
    ${
      configured
        ? html`<h2>Secreto y prueba</h2>
            <ul class="actions">
              <li>
                <form method="post" action="${path}/secret">
                  ${csrf}<button type="submit" class="secondary">Generar un secreto nuevo</button>
                </form>
                <p class="hint">El actual deja de firmar al instante: cambie el de su sistema enseguida.</p>
              </li>
              <li>
                <form method="post" action="${path}/test">
                  ${csrf}<button type="submit" class="secondary">Enviar un aviso de prueba</button>
                </form>
                <p class="hint">
                  Firmado como uno real, con evento <code>webhook.test</code> y sin documento; hasta ${limit} por hora.
                </p>
              </li>
              <li>
                <form method="post" action="${path}/disable">
                  ${csrf}<button type="submit" class="secondary">Desactivar el webhook</button>
                </form>
              </li>
            </ul>`
        : ''
    }
    <h2>Entregas</h2>
    ${await deliveryLog(deps, viewer, company)}`;
}

async function write(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, shown: Shown, status = 200) {
  writeCompanyPage(ctx, viewer, company, 'webhook', await webhookBody(deps, viewer, company, shown), status);
}

function redirect(ctx: Context, company: CompanyRow, done: keyof typeof DONE_WORDS) {
  ctx.status = 303;
  ctx.redirect(`${companyPath(company.ruc, 'webhook')}?hecho=${done}`);
}

const secretShown = (url: string, secret: string) =>
  secretOnce('Secreto del webhook', secret, html`<p>Firma los avisos a ${wrappableUrl(url)}.</p>`);

/** Saves the typed URL through the API's function; its refusals shown beside the field. */
async function saveUrl(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, typed: string) {
  const refuse = (urlError: string) => write(ctx, deps, viewer, company, { urlError, typed }, 422);
  if (!typed) return refuse('Escriba la URL; para dejar de recibir avisos use «Desactivar el webhook».');
  try {
    const { url } = validate<{ url: string }>(webhookSchema, { url: typed });
    const change = await setWebhook(deps, company, url, consoleActor(ctx, viewer.session));
    if (change.kind !== 'configured') return redirect(ctx, company, 'sin-cambios');
    const updated = { ...company, webhook_url: change.url };
    return write(ctx, deps, viewer, updated, { top: secretShown(change.url, change.secret) });
  } catch (err) {
    if (err instanceof TargetRefused) return refuse(TARGET_WORDS[err.reason]);
    if (err instanceof ApiError && err.status === 422) return refuse(`La URL tiene más de ${URL_MAX} caracteres.`);
    throw err;
  }
}

/** A test notice; its refusals (URL no longer allowed, too many) said at the top. */
async function testNotice(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow) {
  try {
    await sendTestNotice(deps, company);
    return redirect(ctx, company, 'prueba');
  } catch (err) {
    const refuse = (status: number, text: string) =>
      write(ctx, deps, viewer, company, { top: notice('refused', text) }, status);
    if (err instanceof TargetRefused)
      return refuse(422, `No se envió: la URL ya no es válida. ${TARGET_WORDS[err.reason]}`);
    if (err instanceof ApiError && err.status === 429)
      return refuse(429, `No se envió: ya envió ${TEST_NOTICE_LIMIT.limit} avisos de prueba en la última hora.`);
    throw err;
  }
}

const REDELIVER = /^deliveries\/([0-9a-f-]{36})\/redeliver$/;

/** The support action `redeliver`'s own function, recorded in the document's history with the signed-in name. */
async function redeliverFromLog(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, id: string) {
  const delivery = await findDelivery(deps.db, id);
  if (!delivery || delivery.company_id !== company.id)
    return write(ctx, deps, viewer, company, { top: notice('refused', 'Esa entrega no existe.') }, 404);
  const result = await redeliver(lifecycleDeps(deps), company, delivery, { actor: actorOf(viewer.session) });
  if (result.outcome === 'done') return redirect(ctx, company, 'reentrega');
  const top = notice('refused', html`No se puede entregar de nuevo: ${spanish(result.message)}`);
  return write(ctx, deps, viewer, company, { top }, REFUSAL_STATUS[result.code]);
}

/** Registered in routes.ts's PANEL_PAGES (typed there: importing its type here would be a cycle). */
export const webhookPage = {
  async get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, rest: string) {
    if (rest) return write(ctx, deps, viewer, company, { top: notice('refused', 'Esta página no existe.') }, 404);
    return write(ctx, deps, viewer, company, { top: doneNotice(ctx.query.hecho, DONE_WORDS) });
  },

  async post(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, form: URLSearchParams, rest: string) {
    const actor = consoleActor(ctx, viewer.session);
    if (!rest) return saveUrl(ctx, deps, viewer, company, (form.get('url') ?? '').trim().slice(0, URL_MAX + 1));
    if (rest === 'disable') {
      await setWebhook(deps, company, null, actor);
      return redirect(ctx, company, 'desactivado');
    }
    if (rest === 'test') return testNotice(ctx, deps, viewer, company);
    if (rest === 'secret') {
      if (!company.webhook_url)
        return write(ctx, deps, viewer, company, { top: notice('refused', 'Registre primero la URL.') }, 409);
      const rotated = await rotateWebhookSecret(deps, company, actor);
      return write(ctx, deps, viewer, company, { top: secretShown(rotated.url, rotated.secret) });
    }
    const redelivery = REDELIVER.exec(rest);
    if (redelivery) return redeliverFromLog(ctx, deps, viewer, company, redelivery[1]);
    return write(ctx, deps, viewer, company, { top: notice('refused', 'Esta acción no existe.') }, 404);
  },
};
