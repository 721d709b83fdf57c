import { readFileSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { FormError, readForm, setPageHeaders } from '../pages';
import { findDocument, type ListedDocument } from '../../db/documents';
import { findByPrintedNumber } from '../../db/document-lists';
import { findCompanyById } from '../../db/companies';
import { isVoided } from '../../db/voids';
import { admitKeyed } from '../../db/rate-limits';
import { limitKey } from '../client-address';
import { Decimal } from '../../documents/decimal';
import type { Rate } from '../../core/env-values';
import { DESPATCH_TYPES, PRINTABLE_TYPES } from '../../documents/printed';
import { sendDocumentFile } from '../download';
import { isRejected, type DocStatus } from '../../lifecycle/transitions';
import { documentFacts } from '../../buyers/mail';
import { checkFileLink, FILE_KINDS, signedFilePath, type FileKind } from '../../buyers/links';
import { expiredLinkPage, formPage, isConsultaType, resultPage, type ConsultaForm, type FoundDocument } from './page';

const STYLESHEET = readFileSync(path.join(__dirname, 'consulta.css'));
/** A form of six short fields is far below this. */
const FORM_LIMIT = 4096;
/**
 * Every lookup answers after at least this long, found or not: a document that exists but did not match costs the
 * same work as one that does not exist, and this floor hides what is left (the found page's void check, rendering).
 */
export const CONSULTA_FLOOR_MS = 150;

const NOT_FOUND =
  'No encontramos un comprobante con esos datos. Revise que coincidan con los impresos en su comprobante.';

/** The page's headers (api/pages.ts); its links carry signatures, so no referrer leaves it. */
async function pageHeaders(ctx: Context, next: Next): Promise<void> {
  setPageHeaders(ctx, 'no-referrer');
  await next();
}

/** The six facts as typed, or the FormError when the body is not the page's form. */
async function consultaForm(ctx: Context): Promise<Partial<ConsultaForm> | FormError> {
  let params: URLSearchParams;
  try {
    params = await readForm(ctx, FORM_LIMIT);
  } catch (err) {
    if (err instanceof FormError) return err;
    throw err;
  }
  const value = (name: keyof ConsultaForm) => (params.get(name) ?? '').trim().slice(0, 40);
  return {
    ruc: value('ruc'),
    tipo: value('tipo'),
    serie: value('serie').toUpperCase(),
    numero: value('numero'),
    fecha: value('fecha'),
    total: value('total'),
  };
}

/** What is wrong with the form's shape (not whether it matches anything): said plainly, it reveals nothing. */
function formProblem(form: Partial<ConsultaForm>): string | null {
  if (!/^\d{11}$/.test(form.ruc ?? '')) return 'El RUC del emisor tiene 11 dígitos.';
  if (!isConsultaType(form.tipo ?? '')) return 'Elija el tipo de comprobante.';
  if (!/^[A-Z0-9]{4}$/.test(form.serie ?? '')) return 'La serie tiene 4 caracteres (por ejemplo F001 o B001).';
  if (!/^\d{1,8}$/.test(form.numero ?? '')) return 'El número tiene de 1 a 8 dígitos.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.fecha ?? '')) return 'Indique la fecha de emisión.';
  return null;
}

/**
 * The total as printed: `S/ 1,180.00`, `S/1,180.00`, `1,180.00`, `118.00`, `118` (a currency sign, commas between
 * thousands, a point before the cents). Anything else is not guessed at: `118,00` could be 118 or 11,800, `1,18.00`
 * has its comma in the wrong place; the buyer gets a hint instead of a silent "not found".
 */
export function readTotal(typed: string): { amount: string } | { hint: string } {
  const text = typed.replace(/^(S\/\.?|US\$|\$)/i, '').trim();
  if (text === '') return { amount: '' };
  if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(text)) return { amount: text.replace(/,/g, '') };
  if (/^\d{1,12}(\.\d{1,2})?$/.test(text)) return { amount: text };
  if (/^\d+,\d{1,2}$/.test(text))
    return {
      hint: `¿«${typed}» lleva decimales? Escriba el importe como está impreso, con punto antes de los céntimos: por ejemplo 118.00 o 1,180.00.`,
    };
  return {
    hint: `No entendimos el importe «${typed}». Escríbalo como está impreso en el comprobante: por ejemplo S/ 1,180.00 o 118.00.`,
  };
}

/**
 * Whether the buyer's date and total are the document's: the total compared as a decimal, never a float. A document
 * of a type that prints a total but has none stored (signed externally before totals were read) matches no total.
 */
function matches(doc: ListedDocument, form: ConsultaForm): boolean {
  // Guides print no total: the buyer leaves it empty (or 0).
  if (String(doc.issue_date) !== form.fecha) return false;
  const total = doc.totals?.PayableAmount;
  const typed = form.total;
  if (total === undefined) return DESPATCH_TYPES.has(doc.doc_type) && (typed === '' || new Decimal(typed).isZero());
  return typed !== '' && new Decimal(typed).equals(new Decimal(total));
}

/** What the buyer reads of SUNAT's verdicts; any other status is still being reported. */
const RESOLVED_STATES: Partial<Record<DocStatus, FoundDocument['state']>> = {
  accepted: { word: 'Aceptado', tone: 'aceptado', valid: true, detail: 'SUNAT aceptó este comprobante.' },
  observed: {
    word: 'Aceptado con observaciones',
    tone: 'aceptado',
    valid: true,
    detail: 'SUNAT aceptó este comprobante con observaciones; es válido.',
  },
  rejected: {
    word: 'Rechazado: no es válido',
    tone: 'rechazado',
    valid: false,
    detail: 'Este comprobante no es válido: SUNAT lo rechazó. No sirve como sustento; pida al emisor uno nuevo.',
  },
};
const IN_PROCESS: FoundDocument['state'] = {
  word: 'En proceso',
  tone: 'proceso',
  valid: true,
  detail: 'El comprobante fue emitido y se está informando a SUNAT. Vuelva a consultar más tarde.',
};

async function stateOf(deps: AppDeps, doc: ListedDocument): Promise<FoundDocument['state']> {
  const demo = doc.environment === '01' ? ' Es un documento de prueba (DEMO): no tiene valor tributario.' : '';
  if (await isVoided(deps.db, doc.id))
    return {
      word: 'Anulado: no es válido',
      tone: 'anulado',
      valid: false,
      detail: `Este comprobante no es válido: el emisor lo dio de baja ante SUNAT. No sirve como sustento de una compra o un gasto.${demo}`,
    };
  const state = RESOLVED_STATES[doc.status] ?? IN_PROCESS;
  return { ...state, detail: `${state.detail}${demo}` };
}

/**
 * Counts one request against `key`'s limit (its kind's keys bounded, db/rate-limits.ts); past it, answers 429 with
 * Retry-After and the form saying `what`, and says so.
 */
async function overLimit(deps: AppDeps, ctx: Context, key: string, rate: Rate, what: string): Promise<boolean> {
  const kind = key.slice(0, key.indexOf(':'));
  const decision = await admitKeyed(deps.db, key, rate.limit, rate.windowSeconds, {
    kind,
    maxKeys: deps.config.rateLimitKeys,
  });
  if (decision.admitted) return false;
  ctx.status = 429;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Retry-After', String(decision.resetSeconds));
  ctx.body = formPage(
    deps.config.buyers.publicUrl ?? '',
    {},
    {
      text: `${what} Espere ${decision.resetSeconds} segundos e inténtelo de nuevo.`,
      tone: 'error',
    },
  );
  return true;
}

/**
 * The buyers' consultation page (docs/buyers.md): `GET /consulta` the form, `POST /consulta` the lookup by the six
 * facts printed on every document, `GET /consulta/archivo/{id}/{pdf|xml|cdr}` the files behind signed links that
 * expire in an hour. No token; lookups rate limited per client address, file downloads per client address and per
 * document (each PDF is rendered); a mismatch reads like a missing document.
 */
export function consultaRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/consulta' });
  const base = deps.config.buyers.publicUrl ?? '';
  const { consultaRate, consultaDownloadRate, consultaDocumentRate } = deps.config.buyers;

  router.get('/estilos.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = STYLESHEET;
  });

  router.get('/', pageHeaders, (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = formPage(base);
  });

  router.post('/', pageHeaders, async (ctx) => {
    const startedAt = Date.now();
    ctx.type = 'text/html; charset=utf-8';
    const lookup = `consulta:${limitKey(ctx.ip)}`;
    if (await overLimit(deps, ctx, lookup, consultaRate, 'Demasiadas consultas desde su conexión.')) return;
    const read = await consultaForm(ctx);
    const form = read instanceof FormError ? null : read;
    const problem = form ? formProblem(form) : 'Complete el formulario.';
    if (!form || problem) {
      ctx.status = read instanceof FormError && read.status === 413 ? 413 : 422;
      ctx.body = formPage(base, form ?? {}, { text: problem!, tone: 'error' });
      return;
    }
    const total = readTotal(form.total ?? '');
    if ('hint' in total) {
      ctx.body = formPage(base, form, { text: total.hint, tone: 'info' });
      return;
    }
    const typed = { ...form, total: total.amount } as ConsultaForm;
    const candidates = await findByPrintedNumber(deps.db, {
      ruc: typed.ruc,
      docType: typed.tipo,
      series: typed.serie,
      number: Number(typed.numero),
    });
    const doc = candidates.find((candidate) => matches(candidate, typed));
    let page: { status: number; body: string };
    if (!doc) {
      page = { status: 404, body: formPage(base, form, { text: NOT_FOUND, tone: 'error' }) };
    } else {
      const company = await findCompanyById(deps.db, doc.company_id);
      const facts = documentFacts(doc);
      const link = (kind: FileKind) => `${base}${signedFilePath(deps.secrets, doc.id, kind)}`;
      page = {
        status: 200,
        body: resultPage(base, {
          company: company?.business_name ?? '',
          ruc: doc.ruc,
          title: facts.title,
          number: facts.number,
          date: facts.date,
          total: facts.total,
          state: await stateOf(deps, doc),
          links: {
            pdf: PRINTABLE_TYPES.has(doc.doc_type) ? link('pdf') : null,
            xml: link('xml'),
            cdr: doc.has_cdr ? link('cdr') : null,
          },
        }),
      };
    }
    const wait = CONSULTA_FLOOR_MS - (Date.now() - startedAt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    ctx.status = page.status;
    ctx.body = page.body;
  });

  router.get('/archivo/:id/:kind', pageHeaders, async (ctx) => {
    // Every request counts for its address, valid link or not; only a document's valid links count for it.
    const address = `consulta-download:${limitKey(ctx.ip)}`;
    if (await overLimit(deps, ctx, address, consultaDownloadRate, 'Demasiadas descargas desde su conexión.')) return;
    const kind = ctx.params.kind as FileKind;
    const valid =
      FILE_KINDS.includes(kind) &&
      checkFileLink(deps.secrets, ctx.params.id, kind, String(ctx.query.vence ?? ''), String(ctx.query.firma ?? ''));
    const doc = valid ? await findDocument(deps.db, ctx.params.id) : null;
    const many = 'Este comprobante se descargó muchas veces en poco tiempo.';
    if (doc && (await overLimit(deps, ctx, `consulta-document:${doc.id}`, consultaDocumentRate, many))) return;
    // A rejected or voided document has no PDF here: the result page offers none, and a kept link gets none either.
    const withdrawn = async (row: { id: string; status: DocStatus }) =>
      isRejected(row.status) || (await isVoided(deps.db, row.id));
    const expired = () => {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = expiredLinkPage(base);
    };
    if (!doc || (kind === 'pdf' && (await withdrawn(doc)))) return expired();
    await sendDocumentFile(ctx, deps, doc, kind, { unavailable: expired });
  });

  return router;
}
