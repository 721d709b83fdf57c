import fs from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { findToken, ACCOUNT_SCOPE } from '../../db/tokens';
import { findSupportToken, supportTokenState } from '../../db/support-tokens';
import { endConsoleSession, openConsoleSession, type ConsoleSession } from '../../db/console-sessions';
import {
  findDocumentsByReference,
  listDocuments,
  toApiDocument,
  type ListedDocument,
  findDocument,
} from '../../db/documents';
import { findCompanyById, listCompanies } from '../../db/companies';
import { findAccount } from '../../db/accounts';
import { PRINTABLE_TYPES } from '../../documents/printed';
import { documentTimeline } from '../../lifecycle/timeline';
import { DOCUMENT_STATUSES, WAITING_REASONS, waitingReason, type WaitingReason } from '../../lifecycle/transitions';
import { temporalUiLink } from '../../lifecycle/links';
import { recheck, redeliverDocument, resend, type LifecycleDeps } from '../../lifecycle/actions';
import type { ActionResult } from '../../lifecycle/result';
import { emailAgain } from '../../lifecycle/email';
import { listCheckRows, worstFirst, type CheckStatus } from '../../db/company-checks';
import { renderDocumentPdf } from '../../buyers/printed';
import { logger } from '../../core/logger';
import { html, notice, page, raw, table, type Frame, type Html } from './html';
import { FormError, readForm, setPageHeaders } from '../pages';
import { consoleSession, cookie, LOGIN_COOKIE, newSecret, sameSecret, SESSION_COOKIE, setCookie } from './session';

const CSS = fs.readFileSync(path.join(__dirname, 'console.css'), 'utf8');
const PAGE_SIZE = 50;

/** A sign-in or an action form is far below this. */
const MAX_FORM_BYTES = 16 * 1024;

const STATUS_WORDS: Record<string, string> = {
  queued: 'en cola',
  to_send: 'por enviar',
  to_summarize: 'por resumir',
  registered: 'con ticket',
  sent: 'enviado',
  accepted: 'aceptado',
  observed: 'aceptado con observaciones',
  rejected: 'rechazado',
};

const TYPE_NAMES: Record<string, string> = {
  '01': 'Factura',
  '03': 'Boleta',
  '04': 'Liquidación de compra',
  '07': 'Nota de crédito',
  '08': 'Nota de débito',
  '09': 'Guía remitente',
  '31': 'Guía transportista',
  '20': 'Retención',
  '40': 'Percepción',
  rc: 'Resumen diario',
  ra: 'Comunicación de baja',
  rr: 'Resumen de reversión',
};

/** The timeline's events (shared with `chasqui support find`, in English there) in the console's words. */
const EVENT_WORDS: Array<[RegExp, string]> = [
  [/^issued$/, 'emitido y firmado'],
  [/^send attempt$/, 'envío'],
  [/^ticket poll$/, 'consulta del ticket'],
  [/^state query$/, 'consulta de estado'],
  [/^verdict$/, 'veredicto'],
  [/^webhook delivery$/, 'entrega del webhook'],
  [/^webhook redelivery$/, 'nueva entrega del webhook'],
  [/^webhook attempt (\d+)$/, 'intento $1 del webhook'],
  [/^buyer e-mail$/, 'correo al comprador'],
  [/^support (\w+)$/, 'soporte: $1'],
];
const eventWords = (event: string) =>
  EVENT_WORDS.reduce((text, [re, words]) => (re.test(text) ? text.replace(re, words) : text), event.trim());

const CHECK_WORDS: Record<CheckStatus, string> = { ok: 'bien', warn: 'aviso', fail: 'falla', unknown: 'sin respuesta' };

interface Signed {
  session: ConsoleSession;
  frame: (title: string, current?: Frame['current']) => Frame;
}

function send(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

function signedIn(session: ConsoleSession): Signed {
  return {
    session,
    frame: (title, current) => ({
      title,
      current,
      session: { name: session.principal.name, kind: session.principal.kind, csrf: session.csrf },
    }),
  };
}

/** The account a session is limited to; null for support staff (every account). */
const scopeOf = (session: ConsoleSession): string | null =>
  session.principal.kind === 'account' ? session.principal.accountId : null;

function loginPage(ctx: Context, deps: AppDeps, status: number, message: Html | null): void {
  const csrf = newSecret();
  setCookie(ctx, deps, LOGIN_COOKIE, csrf, 3600);
  send(
    ctx,
    status,
    page(
      { title: 'Iniciar sesión' },
      html`${message}
        <form class="card" method="post" action="/console/login">
          <input type="hidden" name="csrf" value="${csrf}" />
          <label for="token">Token de acceso</label>
          <p class="hint" id="token-hint">Un token de soporte (chq_sup_…) o el token de su cuenta (chq_acc_…).</p>
          <input
            id="token"
            name="token"
            type="password"
            autocomplete="off"
            required
            aria-describedby="token-hint"
            autofocus
          />
          <button type="submit">Entrar</button>
        </form>`,
    ),
  );
}

function forbiddenPage(ctx: Context, text: string): void {
  send(
    ctx,
    403,
    page(
      { title: 'Solicitud rechazada' },
      html`${notice('refused', text)}
        <p><a href="/console/documents">Volver a la consola</a></p>`,
    ),
  );
}

function notFoundPage(ctx: Context, signed: Signed): void {
  send(
    ctx,
    404,
    page(
      signed.frame('Documento no encontrado', 'documents'),
      html`<p>No hay un documento con esa referencia que usted pueda ver.</p>
        <p><a href="/console/documents">Buscar otro</a></p>`,
    ),
  );
}

/** A document the session may see: support staff any, an account holder only its companies' (else as if absent). */
async function visibleDocument(deps: AppDeps, session: ConsoleSession, id: string): Promise<ListedDocument | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const accountId = scopeOf(session);
  const [doc] = await listDocuments(deps.db, { ids: [id], limit: 1, ...(accountId ? { accountId } : {}) });
  return doc ?? null;
}

const when = (d: Date | null | undefined) =>
  d ? new Date(d).toISOString().slice(0, 19).replace('T', ' ') + ' UTC' : '—';

function documentRows(docs: ListedDocument[]): Array<Array<unknown>> {
  return docs.map((d) => [
    html`<a href="/console/documents/${d.id}">${d.filename}</a>`,
    TYPE_NAMES[d.doc_type] ?? d.doc_type,
    d.issue_date,
    html`<span class="status ${d.status}">${STATUS_WORDS[d.status] ?? d.status}</span>`,
    d.result?.code ? `${d.result.code} ${d.result.message ?? ''}` : '—',
  ]);
}

/** The support actions the console offers: the lifecycle room's, with the words a support person reads. */
const ACTIONS = {
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
    explains: 'Entrega otra vez el aviso cpe.resolved a la URL configurada hoy (un nuevo X-Entrega).',
    run: redeliverDocument,
  },
  email: {
    label: 'Enviar el correo al comprador de nuevo',
    explains:
      'Envía otra vez al comprador el PDF y el XML firmado, a las direcciones de cliente.correo (3 veces por hora como máximo).',
    run: (deps: LifecycleDeps, doc: ListedDocument, options: { actor?: string; dryRun?: boolean }) =>
      emailAgain(deps, doc.id, { operator: options.actor ?? '', dryRun: options.dryRun }),
  },
} as const;
type ActionName = keyof typeof ACTIONS;

const lifecycleOf = (deps: AppDeps): LifecycleDeps => ({
  db: deps.db,
  temporal: deps.temporal,
  taskQueue: deps.config.temporal.taskQueue,
});
const actorOf = (session: ConsoleSession) => `console:${session.principal.name}`;

function resultNotice(result: ActionResult<unknown>): Html {
  return result.outcome === 'done'
    ? notice('ok', result.detail)
    : notice('refused', html`No se puede: ${result.reason}`);
}

/** GET: what the action would do (a dry run, the same reasons as the CLI's), with the confirmation form. */
async function actionPreview(
  ctx: Context,
  deps: AppDeps,
  signed: Signed,
  doc: ListedDocument,
  name: ActionName,
): Promise<void> {
  const action = ACTIONS[name];
  const plan = await action.run(lifecycleOf(deps), doc, { dryRun: true });
  const confirm =
    plan.outcome === 'done'
      ? html`<form method="post" action="/console/documents/${doc.id}/acciones/${name}">
          <input type="hidden" name="csrf" value="${signed.session.csrf}" />
          <button type="submit">Confirmar: ${action.label.toLowerCase()}</button>
        </form>`
      : '';
  send(
    ctx,
    200,
    page(
      signed.frame(`${action.label}: ${doc.filename}`, 'documents'),
      html`<p>${action.explains}</p>
        ${plan.outcome === 'done' ? notice('info', html`Se hará: ${plan.detail}. Quedará registrado a nombre de ${signed.session.principal.name}.`) : resultNotice(plan)}
        ${confirm}
        <p><a href="/console/documents/${doc.id}">Volver al documento</a></p>`,
    ),
  );
}

/** POST (CSRF checked by the caller): the action itself, recorded in the audit with the signed-in name. */
async function actionRun(
  ctx: Context,
  deps: AppDeps,
  signed: Signed,
  doc: ListedDocument,
  name: ActionName,
): Promise<void> {
  const result = await ACTIONS[name].run(lifecycleOf(deps), doc, { actor: actorOf(signed.session) });
  logger.info(
    { externalId: doc.id, action: name, actor: actorOf(signed.session), outcome: result.outcome },
    'console support action',
  );
  send(
    ctx,
    result.outcome === 'done' ? 200 : 409,
    page(
      signed.frame(`${ACTIONS[name].label}: ${doc.filename}`, 'documents'),
      html`${resultNotice(result)}
        <p><a href="/console/documents/${doc.id}">Volver al documento</a></p>`,
    ),
  );
}

const FILTERS = ['ruc', 'estado', 'tipo', 'serie', 'desde', 'hasta'] as const;

function searchForm(query: Record<string, string>): Html {
  const field = (name: string, label: string, attrs = '') =>
    html`<div>
      <label for="f-${name}">${label}</label
      ><input id="f-${name}" name="${name}" value="${query[name] ?? ''}" ${raw(attrs)} />
    </div>`;
  return html`<form class="card search" method="get" action="/console/documents" role="search">
    <div class="wide">
      <label for="q">Número del documento</label>
      <p class="hint" id="q-hint">
        Como lo dicta el cliente: 20123456786-01-F001-10, F001-10, el nombre del archivo o el external_id.
      </p>
      <input id="q" name="q" value="${query.q ?? ''}" aria-describedby="q-hint" autocomplete="off" />
    </div>
    ${field('ruc', 'RUC', ' inputmode="numeric" maxlength="11"')}
    <div>
      <label for="f-estado">Estado</label
      ><select id="f-estado" name="estado">
        <option value="">todos</option>
        ${DOCUMENT_STATUSES.map(
          (s) => html`<option value="${s}" ${raw(query.estado === s ? ' selected' : '')}>${STATUS_WORDS[s]}</option>`,
        )}
      </select>
    </div>
    ${field('tipo', 'Tipo (01, 03…)', ' maxlength="2"')} ${field('serie', 'Serie', ' maxlength="4"')}
    ${field('desde', 'Emitido desde', ' type="date"')} ${field('hasta', 'Emitido hasta', ' type="date"')}
    <div class="actions"><button type="submit">Buscar</button></div>
  </form>`;
}

async function searchPage(ctx: Context, deps: AppDeps, signed: Signed): Promise<void> {
  const query = Object.fromEntries(
    Object.entries(ctx.query).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : (v ?? '')).trim()]),
  );
  const accountId = scopeOf(signed.session);
  let docs: ListedDocument[] = [];
  let message: Html | null = null;
  let next: string | null = null;
  const bad = (text: string) => {
    message = notice('refused', text);
  };
  if (query.q) {
    const found = await findDocumentsByReference(deps.db, query.q);
    const own = accountId
      ? new Set((await listCompanies(deps.db, accountId, { limit: 10_000 })).map((c) => c.id))
      : null;
    docs = found.filter((d) => !own || own.has(d.company_id));
    if (docs.length === 0) message = notice('info', html`Ningún documento coincide con «${query.q}».`);
    if (docs.length === 1) return ctx.redirect(`/console/documents/${docs[0].id}`);
  } else if (FILTERS.some((f) => query[f])) {
    if (query.ruc && !/^\d{11}$/.test(query.ruc)) bad('El RUC tiene 11 dígitos.');
    else if (query.estado && !DOCUMENT_STATUSES.includes(query.estado as never)) bad('Estado desconocido.');
    else if (query.tipo && !/^(\d{2}|rc|ra|rr)$/.test(query.tipo))
      bad('El tipo es un código de dos dígitos (01 factura, 03 boleta…).');
    else if (
      (query.desde && !/^\d{4}-\d{2}-\d{2}$/.test(query.desde)) ||
      (query.hasta && !/^\d{4}-\d{2}-\d{2}$/.test(query.hasta))
    )
      bad('Las fechas van como AAAA-MM-DD.');
    else {
      docs = await listDocuments(deps.db, {
        ...(accountId ? { accountId } : {}),
        ruc: query.ruc || undefined,
        statuses: query.estado ? [query.estado as never] : undefined,
        docType: query.tipo || undefined,
        series: query.serie ? query.serie.toUpperCase() : undefined,
        issuedFrom: query.desde || undefined,
        issuedTo: query.hasta || undefined,
        before: /^[0-9a-f-]{36}$/i.test(query.antes ?? '') ? query.antes : undefined,
        limit: PAGE_SIZE + 1,
      });
      if (docs.length > PAGE_SIZE) {
        docs = docs.slice(0, PAGE_SIZE);
        const params = new URLSearchParams(Object.entries(query).filter(([k, v]) => v && k !== 'antes'));
        params.set('antes', docs[docs.length - 1].id);
        next = `/console/documents?${params}`;
      }
      if (docs.length === 0) message = notice('info', 'Ningún documento cumple esos filtros.');
    }
  }
  send(
    ctx,
    message && docs.length === 0 && (message as Html).html.includes('refused') ? 400 : 200,
    page(
      signed.frame('Documentos', 'documents'),
      html`${searchForm(query)}${message}${docs.length ? table(`${docs.length} documento(s)`, ['Documento', 'Tipo', 'Emisión', 'Estado', 'Último resultado'], documentRows(docs)) : ''}${
        next ? html`<p><a href="${next}">Página siguiente</a></p>` : ''
      }`,
    ),
  );
}

async function documentPage(ctx: Context, deps: AppDeps, signed: Signed, doc: ListedDocument): Promise<void> {
  const company = await findCompanyById(deps.db, doc.company_id);
  const timeline = await documentTimeline(deps.db, doc);
  const reason = doc.resolved ? null : waitingReason(doc);
  const link = temporalUiLink(deps.config, doc.id);
  const api = toApiDocument(doc);
  const files = [
    html`<li><a href="/console/documents/${doc.id}/xml" download>XML firmado</a></li>`,
    api.links.cdr
      ? html`<li><a href="/console/documents/${doc.id}/cdr" download>CDR (zip)</a></li>`
      : html`<li>CDR: aún no hay</li>`,
    PRINTABLE_TYPES.has(doc.doc_type) ? html`<li><a href="/console/documents/${doc.id}/pdf">PDF (A4)</a></li>` : '',
    link
      ? html`<li><a href="${link}" rel="noopener">Flujo en Temporal UI</a></li>`
      : html`<li>Temporal: flujo cpe-${doc.id}</li>`,
  ];
  send(
    ctx,
    200,
    page(
      signed.frame(doc.filename, 'documents'),
      html`<dl class="facts">
          <dt>Empresa</dt>
          <dd>${company?.business_name ?? '—'} (RUC ${doc.ruc})</dd>
          <dt>Tipo</dt>
          <dd>${TYPE_NAMES[doc.doc_type] ?? doc.doc_type}, ${doc.series}-${doc.number}, emitido ${doc.issue_date}</dd>
          <dt>Estado</dt>
          <dd>
            <span class="status ${doc.status}">${STATUS_WORDS[doc.status] ?? doc.status}</span> (${doc.status}, código
            ${doc.status_code})${doc.resolved ? ', resuelto ' + when(doc.resolved_at) : ''}
          </dd>
          ${
            reason
              ? html`<dt>Qué espera</dt>
                  <dd>${WAITING_REASONS[reason as WaitingReason]}</dd>`
              : ''
          }
          <dt>Resultado</dt>
          <dd>
            ${doc.result ? `${doc.result.origin ?? ''} ${doc.result.code ?? ''}: ${doc.result.message ?? ''}` : '—'}
          </dd>
          <dt>Entorno</dt>
          <dd>${doc.environment === '02' ? 'producción' : 'demo'}, destino ${doc.destination}</dd>
          <dt>Cliente</dt>
          <dd>${doc.customer_doc ?? '—'}</dd>
          <dt>external_id</dt>
          <dd><code>${doc.id}</code></dd>
        </dl>
        <h2>Archivos</h2>
        <ul class="files">
          ${files}
        </ul>
        <h2>Acciones</h2>
        <ul class="files">
          ${Object.entries(ACTIONS).map(([name, a]) => html`<li><a href="/console/documents/${doc.id}/acciones/${name}">${a.label}</a>: ${a.explains}</li>`)}
        </ul>
        <h2>Historia</h2>
        ${table(
          'Historia del documento',
          ['Cuándo', 'Evento', 'Detalle'],
          timeline.map((t) => [when(t.at), eventWords(t.event), t.detail]),
        )}`,
    ),
  );
}

async function stuckPage(ctx: Context, deps: AppDeps, signed: Signed): Promise<void> {
  const accountId = scopeOf(signed.session);
  const docs = await listDocuments(deps.db, {
    ...(accountId ? { accountId } : {}),
    resolved: false,
    createdBefore: new Date(Date.now() - 30 * 60_000),
    limit: 1000,
  });
  const groups = new Map<WaitingReason, ListedDocument[]>();
  for (const d of docs) groups.set(waitingReason(d), [...(groups.get(waitingReason(d)) ?? []), d]);
  const body = docs.length
    ? [...groups].map(
        ([reason, list]) =>
          html`<section>
            <h2>${reason} (${list.length})</h2>
            <p>${WAITING_REASONS[reason]}</p>
            ${table(`${list.length} documento(s): ${reason}`, ['Documento', 'Tipo', 'Emisión', 'Estado', 'Último resultado'], documentRows(list))}
          </section>`,
      )
    : [notice('ok', 'Nada sin resolver con más de 30 minutos.')];
  send(
    ctx,
    200,
    page(
      signed.frame('Documentos atascados', 'stuck'),
      html`<p>Sin veredicto tras más de 30 minutos, agrupados por lo que esperan.</p>
        ${body}`,
    ),
  );
}

async function companiesPage(ctx: Context, deps: AppDeps, signed: Signed): Promise<void> {
  const companies = await listCompanies(deps.db, scopeOf(signed.session), { limit: 500 });
  const checks = await listCheckRows(
    deps.db,
    companies.map((c) => c.id),
  );
  const checksOf = (companyId: string) =>
    worstFirst(checks.filter((k) => k.company_id === companyId))
      .filter((k) => k.status !== 'ok')
      .map(
        (k) => html`<span class="check ${k.status}" title="${k.detail}">${k.check}: ${CHECK_WORDS[k.status]}</span> `,
      );
  const rows = companies.map((c) => [
    c.ruc,
    c.business_name,
    c.environment === '02' ? 'producción' : 'demo',
    c.destination,
    `${c.sending_mode}, boletas ${c.receipts_mode}`,
    c.webhook_url ? 'sí' : 'no',
    c.active ? 'activa' : 'inactiva',
    checks.some((k) => k.company_id === c.id)
      ? checksOf(c.id).length
        ? checksOf(c.id)
        : 'todo bien'
      : 'sin verificar',
  ]);
  send(
    ctx,
    200,
    page(
      signed.frame('Empresas', 'companies'),
      companies.length
        ? html`<div class="companies">
            ${table(
              `${companies.length} empresa(s)`,
              ['RUC', 'Razón social', 'Entorno', 'Destino', 'Envío', 'Webhook', 'Estado', 'Verificaciones'],
              rows,
            )}
          </div>`
        : notice('info', 'No hay empresas.'),
    ),
  );
}

async function signIn(ctx: Context, deps: AppDeps): Promise<void> {
  let form: URLSearchParams;
  try {
    form = await readForm(ctx, MAX_FORM_BYTES);
  } catch (err) {
    if (err instanceof FormError) return loginPage(ctx, deps, 400, notice('refused', err.message));
    throw err;
  }
  if (!sameSecret(form.get('csrf'), cookie(ctx, LOGIN_COOKIE)))
    return forbiddenPage(
      ctx,
      'El formulario caducó o no vino de esta página: vuelva a cargar la página de inicio de sesión.',
    );
  const token = (form.get('token') ?? '').trim();
  const refused = () => loginPage(ctx, deps, 401, notice('refused', 'El token no es válido, fue revocado o venció.'));
  const support = await findSupportToken(deps.db, token);
  let principal: Parameters<typeof openConsoleSession>[1] | null = null;
  if (support) {
    if (supportTokenState(support) !== 'active') return refused();
    principal = { kind: 'support', name: support.name, supportTokenId: support.id };
  } else if (token) {
    const found = await findToken(deps.db, token);
    if (!found || found.revoked || found.scope !== ACCOUNT_SCOPE || !found.accountActive) return refused();
    const account = await findAccount(deps.db, found.accountId);
    principal = {
      kind: 'account',
      name: account?.name ?? 'cuenta',
      accountId: found.accountId,
      apiTokenId: found.tokenId,
    };
  } else return refused();
  const session = await openConsoleSession(deps.db, principal);
  logger.info({ kind: principal.kind, name: principal.name }, 'console sign-in');
  setCookie(ctx, deps, SESSION_COOKIE, session.id);
  setCookie(ctx, deps, LOGIN_COOKIE, '', 0);
  ctx.status = 303;
  ctx.redirect('/console/documents');
}

/**
 * The support console at /console (docs/operations.md): server-rendered pages for support staff (support tokens)
 * and account holders (their own companies). Mounted before the JSON API's envelope: these answers are HTML.
 */
export function consolePages(deps: AppDeps): Middleware {
  return async function console(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== '/console' && !ctx.path.startsWith('/console/')) return next();
    setPageHeaders(ctx, 'same-origin');
    try {
      await route(ctx, deps);
    } catch (err) {
      logger.error({ err, path: ctx.path, requestId: ctx.state.requestId }, 'console page failed');
      send(
        ctx,
        500,
        page(
          { title: 'Error' },
          notice(
            'refused',
            `Algo falló al preparar esta página (solicitud ${ctx.state.requestId ?? '—'}). Inténtelo de nuevo.`,
          ),
        ),
      );
    }
  };
}

async function route(ctx: Context, deps: AppDeps): Promise<void> {
  const { method } = ctx;
  const p = ctx.path.replace(/\/+$/, '') || '/console';
  if (p === '/console/assets/console.css' && method === 'GET') {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = CSS;
    return;
  }
  if (p === '/console/login' && method === 'GET')
    return loginPage(ctx, deps, 200, ctx.query.salida ? notice('ok', 'Sesión cerrada.') : null);
  if (p === '/console/login' && method === 'POST') return signIn(ctx, deps);

  const session = await consoleSession(deps, ctx);
  if (method === 'POST') {
    if (!session) return forbiddenPage(ctx, 'Su sesión terminó: inicie sesión de nuevo.');
    let form: URLSearchParams;
    try {
      form = await readForm(ctx, MAX_FORM_BYTES);
    } catch (err) {
      if (err instanceof FormError) return forbiddenPage(ctx, err.message);
      throw err;
    }
    if (!sameSecret(form.get('csrf'), session.csrf))
      return forbiddenPage(ctx, 'Falta el token del formulario (CSRF) o no corresponde a su sesión.');
    if (p === '/console/logout') {
      await endConsoleSession(deps.db, cookie(ctx, SESSION_COOKIE)!);
      setCookie(ctx, deps, SESSION_COOKIE, '', 0);
      ctx.status = 303;
      return ctx.redirect('/console/login?salida=1');
    }
    const act = /^\/console\/documents\/([^/]+)\/acciones\/(\w+)$/.exec(p);
    if (act && act[2] in ACTIONS) {
      const doc = await visibleDocument(deps, session, act[1]);
      if (!doc) return notFoundPage(ctx, signedIn(session));
      return actionRun(ctx, deps, signedIn(session), doc, act[2] as ActionName);
    }
    return send(ctx, 404, page(signedIn(session).frame('No encontrado'), html`<p>Esa acción no existe.</p>`));
  }
  if (method !== 'GET' && method !== 'HEAD') {
    ctx.set('Allow', 'GET, POST');
    return send(ctx, 405, page({ title: 'Método no permitido' }, html`<p>Use la consola desde el navegador.</p>`));
  }
  if (!session) {
    if (cookie(ctx, SESSION_COOKIE)) setCookie(ctx, deps, SESSION_COOKIE, '', 0);
    return loginPage(
      ctx,
      deps,
      401,
      cookie(ctx, SESSION_COOKIE) ? notice('info', 'Su sesión terminó: inicie sesión de nuevo.') : null,
    );
  }
  const signed = signedIn(session);
  if (p === '/console') return ctx.redirect('/console/documents');
  if (p === '/console/documents') return searchPage(ctx, deps, signed);
  if (p === '/console/stuck') return stuckPage(ctx, deps, signed);
  if (p === '/console/companies') return companiesPage(ctx, deps, signed);
  const m = /^\/console\/documents\/([^/]+)(?:\/(xml|cdr|pdf)|\/acciones\/(recheck|resend|redeliver|email))?$/.exec(p);
  if (m) {
    const doc = await visibleDocument(deps, session, m[1]);
    if (!doc) return notFoundPage(ctx, signed);
    if (m[3]) return actionPreview(ctx, deps, signed, doc, m[3] as ActionName);
    if (!m[2]) return documentPage(ctx, deps, signed, doc);
    return documentFile(ctx, deps, signed, doc, m[2] as 'xml' | 'cdr' | 'pdf');
  }
  send(
    ctx,
    404,
    page(
      signed.frame('No encontrado'),
      html`<p>Esta página no existe. <a href="/console/documents">Ir a documentos</a></p>`,
    ),
  );
}

async function documentFile(
  ctx: Context,
  deps: AppDeps,
  signed: Signed,
  listed: ListedDocument,
  kind: 'xml' | 'cdr' | 'pdf',
): Promise<void> {
  const row = (await findDocument(deps.db, listed.id))!;
  if (kind === 'xml') {
    ctx.set('Content-Disposition', `attachment; filename="${row.filename}.xml"`);
    ctx.type = 'application/xml';
    ctx.body = row.xml;
    return;
  }
  if (kind === 'cdr') {
    if (!row.cdr_zip)
      return send(
        ctx,
        404,
        page(signed.frame(row.filename, 'documents'), notice('info', 'Este documento aún no tiene CDR.')),
      );
    ctx.set('Content-Disposition', `attachment; filename="R-${row.filename}.zip"`);
    ctx.type = 'application/zip';
    ctx.body = Buffer.from(row.cdr_zip, 'base64');
    return;
  }
  if (!PRINTABLE_TYPES.has(row.doc_type))
    return send(
      ctx,
      404,
      page(
        signed.frame(row.filename, 'documents'),
        notice('info', 'Este tipo de documento no tiene representación impresa.'),
      ),
    );
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `inline; filename="${row.filename}.pdf"`);
  ctx.body = await renderDocumentPdf(deps.db, row, 'a4');
}
