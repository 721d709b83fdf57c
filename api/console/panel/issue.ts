import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { companyIssuer } from '../../../db/issuing';
import { nextNumber, recentCustomers, recentSeries } from '../../../db/document-proposals';
import { DocumentValidationError, prepareDocument } from '../../../documents';
import { limaDate } from '../../../core/lima';
import { createKeyResolver, type KeyResolver } from '../../../keys/signing-keys';
import { ApiError } from '../../errors';
import { issueRequest, prepareOptions } from '../../cpe/issue';
import { PlanRefusal } from '../../cpe/plan';
import { html, notice } from '../html';
import type { Viewer } from '../context';
import { writeCompanyPage } from './frame';
import {
  isSaleType,
  newForm,
  readForm,
  toPayload,
  typedTotal,
  withOneMoreLine,
  type FieldErrors,
  type IssueForm,
  type SaleType,
} from './issue-form';
import { issueErrors, issueWords, PLAN_REFUSALS } from './issue-words';
import { issueFormHtml, type IssueView } from './issue-view';

/**
 * The panel's "Emitir" tab (issue 42 item 10, docs/panel.md): a sale document by form. "Calcular" runs the engine
 * `POST /v1/cpe` runs (prepareDocument, nothing signed); "Emitir" issues through `issueRequest`, the API's own path,
 * with the company's signing and no token. The form's idempotency key is hashed with the document: the same form
 * sent twice is the same bytes for the same number, which the one-number index answers as a replay (one document).
 */

/** One key resolver per app (it caches the signers), as the API's router keeps one. */
const KEYS = new WeakMap<AppDeps, KeyResolver>();
export const keysOf = (deps: AppDeps) => KEYS.get(deps) ?? KEYS.set(deps, createKeyResolver(deps)).get(deps)!;

/** The series proposed for a type: the one used last for it, else SUNAT's usual first series. */
const FIRST_SERIES: Record<SaleType, string> = { '01': 'F001', '03': 'B001', '07': 'FC01', '08': 'FD01' };

/** The special IGV rate a company on its register (ind_padron 01) may use on the form's date, as the engine reads it. */
function specialRate(deps: AppDeps, company: CompanyRow, form: IssueForm): number | null {
  if (!company.register_igv_special_rate) return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(form.fecha) ? form.fecha : limaDate(new Date());
  return deps.config.rules.igvRates(date, form.tipo).special;
}

async function render(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  company: CompanyRow,
  form: IssueForm,
  errors: FieldErrors,
  computed: Pick<IssueView, 'totals' | 'warnings'> = { totals: null, warnings: [] },
  status = 200,
): Promise<void> {
  const [series, customers] = await Promise.all([recentSeries(deps.db, company), recentCustomers(deps.db, company.id)]);
  const view: IssueView = {
    csrf: viewer.session.csrf,
    series: [...new Set(series.filter((s) => s.doc_type === form.tipo).map((s) => s.series))],
    customers,
    special: specialRate(deps, company, form),
    ...computed,
  };
  writeCompanyPage(ctx, viewer, company, 'issue', issueFormHtml(company, form, errors, view), status);
}

/** A company that signs its own documents sends them signed through the API: the panel cannot sign for it. */
function signsItself(ctx: Context, viewer: Viewer, company: CompanyRow): void {
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'issue',
    notice('info', 'Esta empresa firma sus documentos (firma externa): los envía firmados por la API, no desde aquí.'),
    409,
  );
}

/** An issue the API refused, in Spanish beside the form's fields (its values kept). */
function refusalErrors(err: ApiError, lineRows: number[]): FieldErrors {
  const details = (err.extra.body as { details?: Array<{ code: string | null; path: string | null }> } | undefined)
    ?.details;
  if (details?.length) return issueErrors(details, lineRows);
  if (err instanceof PlanRefusal) return { general: [PLAN_REFUSALS[err.reason]] };
  const general: Record<number, string> = {
    503: 'La firma no está disponible en este momento: inténtelo de nuevo en unos minutos.',
  };
  return { general: [general[err.status] ?? `No se pudo emitir (respuesta ${err.status}).`] };
}

async function calculate(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, form: IssueForm) {
  const { payload, lineRows } = toPayload(form, company, specialRate(deps, company, form));
  try {
    const prepared = prepareDocument(payload, await prepareOptions(deps, company, payload));
    const warnings = prepared.warnings.map((w) => issueWords(null, w));
    const typed = typedTotal(form)?.toDecimalPlaces(2);
    const payable = prepared.totals?.PayableAmount;
    // The engine taxes two-decimal line values, as SUNAT does: a price that does not divide evenly may move a cent.
    if (typed && payable && !typed.equals(payable))
      warnings.push(
        `El importe total (${payable}) difiere de la suma de los precios con IGV escritos (${typed.toFixed(2)}): el IGV se calcula sobre los valores de venta redondeados a dos decimales.`,
      );
    return render(ctx, deps, viewer, company, form, {}, { totals: prepared.totals, warnings });
  } catch (err) {
    if (!(err instanceof DocumentValidationError)) throw err;
    return render(ctx, deps, viewer, company, form, issueErrors(err.issues, lineRows), undefined, 422);
  }
}

async function issue(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, form: IssueForm) {
  const { payload, lineRows } = toPayload(form, company, specialRate(deps, company, form));
  try {
    const { row } = await issueRequest(
      deps,
      keysOf(deps),
      {
        issuer: await companyIssuer(deps.db, company),
        body: payload,
        rawBody: JSON.stringify({ form: form.idem, document: payload }),
        environment: '',
        priority: '',
        claim: null,
      },
      Date.now(),
      () => null,
    );
    ctx.status = 303;
    return ctx.redirect(`/console/documents/${row.id}?hecho=emitido`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return render(ctx, deps, viewer, company, form, refusalErrors(err, lineRows), undefined, err.status);
  }
}

/** The tab's page (a PanelPage of routes.ts, typed here so that routes.ts alone imports the tabs: no cycle). */
export const issuePage = {
  async get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow): Promise<void> {
    if (company.signing === 'external') return signsItself(ctx, viewer, company);
    const tipo = isSaleType(ctx.query.tipo) ? ctx.query.tipo : '01';
    const used = (await recentSeries(deps.db, company)).find((s) => s.doc_type === tipo)?.series;
    const series = used ?? FIRST_SERIES[tipo];
    const form = newForm(tipo, limaDate(new Date()), series, await nextNumber(deps.db, company, tipo, series));
    return render(ctx, deps, viewer, company, form, {});
  },
  async post(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, posted: URLSearchParams): Promise<void> {
    if (company.signing === 'external') return signsItself(ctx, viewer, company);
    const tipo = isSaleType(posted.get('tipo')) ? (posted.get('tipo') as SaleType) : '01';
    const { form, errors } = readForm(tipo, posted);
    const action = posted.get('accion');
    if (action === 'linea') return render(ctx, deps, viewer, company, withOneMoreLine(form), errors);
    if (Object.keys(errors).length) return render(ctx, deps, viewer, company, form, errors, undefined, 422);
    return action === 'emitir' ? issue(ctx, deps, viewer, company, form) : calculate(ctx, deps, viewer, company, form);
  },
};

/** The notice of the document page a panel action lands on (`?hecho=emitido|anulado`), or null. */
export function panelDoneNotice(done: string) {
  if (done === 'emitido') return notice('ok', html`Documento emitido. Su estado se actualiza al recibir la respuesta.`);
  if (done === 'anulado') return notice('ok', html`Anulación solicitada: su estado se ve en esta página.`);
  return null;
}
