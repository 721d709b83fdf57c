import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../errors';
import { registerCompany, type NewCompany } from '../../companies/registration';
import { createCompanySchema, validate } from '../../companies/schemas';
import { html, notice, page, type Html } from '../html';
import { consoleActor, writePage, type Viewer } from '../context';
import { mayDo, rolesFor } from '../permissions';
import { DESTINATION_WORDS } from '../words';
import { companyPath } from './frame';
import { FIELD_RULES, refusalWords, VALUE_WORDS } from './company-words';
import { csrfField, selectField, textField } from './fields';

/**
 * Creating a company from the panel (issue 42 item 1, docs/panel.md): the form, checked by the API's schema and
 * registered by `registerCompany` as `POST /v1/companies` is; a RUC another account holds asks to confirm, and the
 * first signing token is shown once, on the page that answers the creation.
 */

const FIELDS = ['ruc', 'business_name', 'plan_type', 'environment', 'destination', 'signing'] as const;
type Values = Partial<Record<(typeof FIELDS)[number], string>>;

const DEFAULTS: Values = { plan_type: '01', environment: '01', destination: 'tax_authority', signing: 'provider' };

/** The creation form, filled with what was sent and each refused field's rule beside it. */
export function createForm(viewer: Viewer, values: Values = DEFAULTS, errors: Record<string, string> = {}): Html {
  if (viewer.session.principal.kind === 'support') return html``;
  if (!mayDo(viewer.session.principal, 'companies.create'))
    return html`<p class="hint">Crear empresas necesita el rol ${rolesFor('companies.create')}.</p>`;
  const v = { ...DEFAULTS, ...values };
  return html`<h2 id="new-company">Nueva empresa</h2>
    <form class="card create-company" method="post" action="/console/companies" aria-labelledby="new-company">
      ${csrfField(viewer)}
      ${textField('ruc', 'RUC', v.ruc ?? '', {
        maxLength: 11,
        inputMode: 'numeric',
        hint: '11 dígitos; se comprueba el dígito verificador.',
        error: errors.ruc,
      })}
      ${textField('business_name', 'Razón social', v.business_name ?? '', {
        maxLength: 250,
        error: errors.business_name,
      })}
      ${selectField('plan_type', 'Plan', VALUE_WORDS.plan_type, v.plan_type!, {
        hint: 'Plan 01: cada documento en producción descuenta una firma del saldo. Plan 02: firma con un certificado asignado.',
        error: errors.plan_type,
      })}
      ${selectField('environment', 'Entorno', VALUE_WORDS.environment, v.environment!, {
        hint: 'Empiece en demo: de producción no se vuelve.',
        error: errors.environment,
      })}
      ${selectField('destination', 'Destino', DESTINATION_WORDS, v.destination!, { error: errors.destination })}
      ${selectField('signing', 'Firma', VALUE_WORDS.signing, v.signing!, {
        hint: 'La firma externa solo con el destino «OSE del proveedor».',
        error: errors.signing,
      })}
      <button type="submit">Crear la empresa</button>
    </form>`;
}

/** Each refused field's rule in Spanish (a rule between fields says the API's reason beside its field). */
function fieldErrors(err: ApiError): Record<string, string> {
  const fields = Object.keys(err.extra.errors ?? {});
  if (!fields.length) return { ruc: refusalWords(err.message) };
  const rule = err.message === 'The request has invalid fields' ? null : refusalWords(err.message);
  return Object.fromEntries(fields.map((f) => [f, rule ?? FIELD_RULES[f] ?? refusalWords(err.message)]));
}

function answer(ctx: Context, viewer: Viewer, status: number, title: string, body: Html): void {
  writePage(ctx, status, page(viewer.frame(title, 'companies'), body));
}

/** The confirmation a RUC registered in another account needs: what it means, and the same values sent again. */
function confirmStep(viewer: Viewer, values: Values): Html {
  return html`${notice(
      'info',
      `El RUC ${values.ruc} ya está registrado en otra cuenta de este servicio. Si es su empresa (por ejemplo, la lleva otro contador), puede registrarla también en su cuenta: cada cuenta tiene sus propios tokens y documentos, y ninguna ve los de la otra.`,
    )}
    <form class="card" method="post" action="/console/companies">
      ${csrfField(viewer)} ${FIELDS.map((f) => html`<input type="hidden" name="${f}" value="${values[f] ?? ''}" />`)}
      <input type="hidden" name="confirm" value="si" />
      <button type="submit">Registrar el RUC ${values.ruc} también en mi cuenta</button>
      <a href="/console/companies">No, volver a mis empresas</a>
    </form>`;
}

/** POST /console/companies: registers the company, or answers the form again with what to fix. */
export async function createCompanyPost(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  form: URLSearchParams,
): Promise<void> {
  const principal = viewer.session.principal;
  if (principal.kind === 'support' || !mayDo(principal, 'companies.create'))
    return answer(
      ctx,
      viewer,
      403,
      'Nueva empresa',
      notice('refused', `Su rol no permite crear empresas: necesita el rol ${rolesFor('companies.create')}.`),
    );
  const values: Values = Object.fromEntries(FIELDS.map((f) => [f, (form.get(f) ?? '').trim()]));
  const body = { ...values, ...(form.get('confirm') === 'si' ? { confirm: true } : {}) };
  let registered;
  try {
    const input = validate<NewCompany>(createCompanySchema, body);
    registered = await registerCompany(deps, principal.accountId, input, consoleActor(ctx, viewer.session));
  } catch (err) {
    if (!(err instanceof ApiError) || ![409, 422].includes(err.status)) throw err;
    if (err.status === 409) return answer(ctx, viewer, 409, 'Confirme el registro', confirmStep(viewer, values));
    return answer(ctx, viewer, 422, 'Empresa no creada', createForm(viewer, values, fieldErrors(err)));
  }
  const link = html`<p><a href="${companyPath(registered.company.ruc)}">Ver lo que falta para empezar</a></p>`;
  if (registered.kind === 'exists')
    return answer(
      ctx,
      viewer,
      200,
      'La empresa ya estaba',
      html`${notice('info', `El RUC ${registered.company.ruc} ya está en su cuenta: no se cambió nada.`)}${link}`,
    );
  answer(
    ctx,
    viewer,
    201,
    'Empresa creada',
    html`${notice('ok', `Se creó ${registered.company.business_name} (RUC ${registered.company.ruc}).`)}
      <section class="card secret" aria-labelledby="token">
        <h2 id="token">Su primer token de firma</h2>
        <p>Guárdelo ahora: <strong>no se mostrará de nuevo</strong>. Con él su sistema emite por esta empresa.</p>
        <p><code class="secret-value">${registered.token}</code></p>
      </section>
      ${
        registered.proceduresStarted
          ? ''
          : notice('info', 'Los trámites del portal no se pudieron iniciar ahora: se iniciarán al cargar la clave SOL.')
      }
      ${link}`,
  );
}
