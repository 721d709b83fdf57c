import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { findDocument, type DocumentRow, type ListedDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import { findDocumentsByReference } from '../../db/document-references';
import { toApiDocument } from '../../db/document-presentation';
import { findCompanyById, listCompanies } from '../../db/companies';
import { PRINTABLE_TYPES, readPrinted } from '../../documents/printed';
import { documentTimeline } from '../../support/timeline';
import { DOCUMENT_STATUSES, waitingMessage, waitingReason } from '../../lifecycle/transitions';
import { temporalUiLink } from '../../support/links';
import { resultMessage, spanish, STATUS_ES } from '../../lifecycle/messages';
import { logger } from '../../core/logger';
import { isCalendarDate } from '../../documents/calendar';
import { html, notice, page, raw, table, type Html } from './html';
import { documentScope, scopeOf, writePage, type Viewer } from './context';
import { isUuid } from '../../core/ids';
import { actionList } from './actions';
import { day, destinationWord, limaLabelled, limaTime } from './words';
import { documentTypeName } from '../../documents/type-names';
import { voidSection } from './panel/void';

const PAGE_SIZE = 50;

export const statusWord = (status: string): Html =>
  html`<span class="status ${status}">${STATUS_ES[status] ?? status}</span>`;

/**
 * The rows of a document list: what support staff scan for (the number, the type, the day, when chasqui received it
 * on Lima's clock, the state, the answer). The issue date is the company's; the time received says how long it waits.
 */
export function documentTable(caption: string, docs: ListedDocument[]): Html {
  return table(
    `${caption}, recibidos en hora de Lima`,
    ['Documento', 'Tipo', 'Emisión', 'Recibido', 'Estado', 'Último resultado'],
    docs.map((d) => [
      html`<a class="number" href="/console/documents/${d.id}">${d.filename}</a>`,
      documentTypeName(d.doc_type),
      day(d.issue_date),
      html`<span class="number">${limaTime(d.created_at, false)}</span>`,
      statusWord(d.status),
      d.result ? spanish(resultMessage(d.result)) : '—',
    ]),
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
        Como lo dicta el cliente: <span class="number">20123456786-01-F001-10</span>,
        <span class="number">F001-10</span>, el nombre del archivo o el external_id.
      </p>
      <input id="q" name="q" value="${query.q ?? ''}" aria-describedby="q-hint" autocomplete="off" />
    </div>
    ${field('ruc', 'RUC', ' inputmode="numeric" maxlength="11"')}
    <div>
      <label for="f-estado">Estado</label
      ><select id="f-estado" name="estado">
        <option value="">todos</option>
        ${DOCUMENT_STATUSES.map(
          (s) => html`<option value="${s}" ${raw(query.estado === s ? ' selected' : '')}>${STATUS_ES[s]}</option>`,
        )}
      </select>
    </div>
    ${field('tipo', 'Tipo (01, 03…)', ' maxlength="2"')} ${field('serie', 'Serie', ' maxlength="4"')}
    ${field('desde', 'Emitido desde', ' type="date"')} ${field('hasta', 'Emitido hasta', ' type="date"')}
    <div class="actions"><button type="submit">Buscar</button></div>
  </form>`;
}

/** What is wrong with the list's filters, in words, or null. */
function filterProblem(query: Record<string, string>): string | null {
  if (query.ruc && !/^\d{11}$/.test(query.ruc)) return 'El RUC tiene 11 dígitos.';
  if (query.estado && !DOCUMENT_STATUSES.includes(query.estado as never)) return 'Estado desconocido.';
  if (query.tipo && !/^(\d{2}|rc|ra|rr)$/.test(query.tipo))
    return 'El tipo es un código de dos dígitos (01 factura, 03 boleta…).';
  if (query.serie && !/^[A-Za-z0-9]{4}$/.test(query.serie)) return 'La serie tiene 4 letras o dígitos.';
  // A real date: PostgreSQL refuses 2024-02-30 with an error, not an empty list.
  if ([query.desde, query.hasta].some((d) => d && !isCalendarDate(d))) return 'Las fechas van como AAAA-MM-DD.';
  return null;
}

export async function searchPage(ctx: Context, deps: AppDeps, viewer: Viewer): Promise<void> {
  const query = Object.fromEntries(
    Object.entries(ctx.query).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : (v ?? '')).trim()]),
  );
  const accountId = scopeOf(viewer.session);
  let docs: ListedDocument[] = [];
  let message: Html | null = null;
  let status = 200;
  let next: string | null = null;
  if (query.q) {
    const found = await findDocumentsByReference(deps.db, query.q);
    const limit = documentScope(viewer.session).companyId;
    const own = accountId
      ? new Set(
          (await listCompanies(deps.db, accountId, { limit: 10_000 }))
            .map((c) => c.id)
            .filter((id) => !limit || limit.includes(id)),
        )
      : null;
    docs = found.filter((d) => !own || own.has(d.company_id));
    if (docs.length === 0) message = notice('info', html`Ningún documento coincide con «${query.q}».`);
    if (docs.length === 1) return ctx.redirect(`/console/documents/${docs[0].id}`);
  } else if (FILTERS.some((f) => query[f])) {
    const problem = filterProblem(query);
    if (problem) {
      message = notice('refused', problem);
      status = 400;
    } else {
      docs = await listDocuments(deps.db, {
        ...documentScope(viewer.session),
        ruc: query.ruc || undefined,
        statuses: query.estado ? [query.estado as never] : undefined,
        docType: query.tipo || undefined,
        series: query.serie ? query.serie.toUpperCase() : undefined,
        issuedFrom: query.desde || undefined,
        issuedTo: query.hasta || undefined,
        before: isUuid(query.antes ?? '') ? query.antes : undefined,
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
  writePage(
    ctx,
    status,
    page(
      viewer.frame('Documentos', 'documents'),
      html`${searchForm(query)}${message}${docs.length ? documentTable(`${docs.length} documento(s)`, docs) : ''}${
        next ? html`<p><a href="${next}">Página siguiente</a></p>` : ''
      }`,
    ),
  );
}

/** The customer's name as signed (the printed representation's reader), or null for types without one. */
async function customerName(deps: AppDeps, row: DocumentRow): Promise<string | null> {
  if (!PRINTABLE_TYPES.has(row.doc_type)) return null;
  try {
    const xml = await deps.files.xmlOf(row);
    return readPrinted(xml, { format: 'a4' }).counterpart?.party.name || null;
  } catch (err) {
    logger.warn({ err, externalId: row.id }, 'console: customer name not readable from the signed XML');
    return null;
  }
}

/** A document with its state, what it waits for, its files, the actions that apply and its story. */
export async function documentPage(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  doc: ListedDocument,
  outcome: { status: number; notice: Html | null } = { status: 200, notice: null },
): Promise<void> {
  const [company, row, timeline, actions] = await Promise.all([
    findCompanyById(deps.db, doc.company_id),
    findDocument(deps.db, doc.id),
    documentTimeline(deps.db, doc, deps.config.webhookHistoryDays),
    actionList(deps, doc),
  ]);
  const reason = doc.resolved ? null : waitingReason(doc);
  const link = temporalUiLink(deps.config, doc.id);
  const api = toApiDocument(doc);
  const customer = row ? await customerName(deps, row) : null;
  const voiding = row && company ? await voidSection(deps, viewer, row, company) : '';
  const files = [
    html`<li><a href="/console/documents/${doc.id}/xml" download>XML firmado</a></li>`,
    api.links.cdr
      ? html`<li><a href="/console/documents/${doc.id}/cdr" download>CDR (zip)</a></li>`
      : html`<li>CDR: aún no hay</li>`,
    PRINTABLE_TYPES.has(doc.doc_type) ? html`<li><a href="/console/documents/${doc.id}/pdf">PDF (A4)</a></li>` : '',
    link
      ? html`<li><a href="${link}" rel="noopener">Flujo en Temporal UI</a></li>`
      : html`<li>Temporal: flujo <code>cpe-${doc.id}</code></li>`,
  ];
  writePage(
    ctx,
    outcome.status,
    page(
      viewer.frame(doc.filename, 'documents'),
      html`${outcome.notice}
        <dl class="facts">
          <dt>Empresa</dt>
          <dd>${company?.business_name ?? '—'} <span class="number">(RUC ${doc.ruc})</span></dd>
          <dt>Tipo</dt>
          <dd>${documentTypeName(doc.doc_type)} ${doc.series}-${doc.number}, emitido el ${day(doc.issue_date)}</dd>
          <dt>Estado</dt>
          <dd>
            ${statusWord(doc.status)}
            <span class="number">(status_code ${doc.status_code} en la API)</span>${
              doc.resolved ? `, resuelto el ${limaLabelled(doc.resolved_at)}` : ''
            }
          </dd>
          ${
            reason
              ? html`<dt>Qué espera</dt>
                  <dd>${spanish(waitingMessage(reason, doc.destination, doc.result?.origin))}</dd>`
              : ''
          }
          <dt>Resultado</dt>
          <dd>${doc.result ? spanish(resultMessage(doc.result)) : '—'}</dd>
          ${
            // SUNAT's own notes on a valid document ("[SUNAT 4252] …"): what the company should correct next time.
            doc.result?.observations?.length
              ? html`<dt>Observaciones</dt>
                  <dd>
                    <ul class="plain">
                      ${doc.result.observations.map((o) => html`<li>${o}</li>`)}
                    </ul>
                  </dd>`
              : ''
          }
          <dt>Entorno</dt>
          <dd>${doc.environment === '02' ? 'producción' : 'demo'}, destino ${destinationWord(doc.destination)}</dd>
          <dt>Cliente</dt>
          <dd>
            ${customer ?? ''}${
              doc.customer_doc
                ? html` <span class="number">(${customer ? 'documento ' : ''}${doc.customer_doc})</span>`
                : customer
                  ? ''
                  : '—'
            }
          </dd>
          <dt>external_id</dt>
          <dd><code>${doc.id}</code></dd>
        </dl>
        <h2>Acciones</h2>
        ${actions} ${voiding}
        <h2>Archivos</h2>
        <ul class="files">
          ${files}
        </ul>
        <h2>Historia</h2>
        ${table(
          'Historia del documento (hora de Lima)',
          ['Cuándo', 'Evento', 'Detalle'],
          timeline.map((t) => [
            html`<span class="number">${limaTime(t.at)}</span>`,
            spanish(t.event),
            spanish(t.detail),
          ]),
        )}`,
    ),
  );
}
