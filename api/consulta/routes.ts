import { readFileSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { FormError, readForm, setPageHeaders } from '../pages';
import { findByPrintedNumber, findDocument, type ListedDocument } from '../../db/documents';
import { findCompanyById } from '../../db/companies';
import { isVoided } from '../../db/summaries';
import { admitKeyed } from '../../db/rate-limits';
import { Decimal } from '../../documents/decimal';
import { PRINTABLE_TYPES } from '../../documents/printed';
import { renderDocumentPdf } from '../../buyers/printed';
import { documentFacts } from '../../buyers/mail';
import { checkFileLink, FILE_KINDS, signedFilePath, type FileKind } from '../../buyers/links';
import { CONSULTA_TYPES, expiredLinkPage, formPage, resultPage, type ConsultaForm, type FoundDocument } from './page';

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

/** The six facts as typed, or null when the body is not the page's form. */
async function consultaForm(ctx: Context): Promise<Partial<ConsultaForm> | null> {
  let params: URLSearchParams;
  try {
    params = await readForm(ctx, FORM_LIMIT);
  } catch (err) {
    if (err instanceof FormError) return null;
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
  if (!CONSULTA_TYPES[form.tipo ?? '']) return 'Elija el tipo de comprobante.';
  if (!/^[A-Z0-9]{4}$/.test(form.serie ?? '')) return 'La serie tiene 4 caracteres (por ejemplo F001 o B001).';
  if (!/^\d{1,8}$/.test(form.numero ?? '')) return 'El número tiene de 1 a 8 dígitos.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.fecha ?? '')) return 'Indique la fecha de emisión.';
  if (form.total && !/^\d{1,12}(\.\d{1,2})?$/.test(form.total.replace(/,/g, '')))
    return 'El importe total es un número, por ejemplo 118.00.';
  return null;
}

/** Whether the buyer's date and total are the document's: the total compared as a decimal, never a float. */
function matches(doc: ListedDocument, form: ConsultaForm): boolean {
  if (String(doc.issue_date) !== form.fecha) return false;
  const total = doc.totals?.PayableAmount;
  const typed = form.total.replace(/,/g, '');
  if (total === undefined) return typed === '' || new Decimal(typed).isZero();
  return typed !== '' && new Decimal(typed).equals(new Decimal(total));
}

async function stateOf(deps: AppDeps, doc: ListedDocument): Promise<FoundDocument['state']> {
  const demo = doc.environment === '01' ? ' Es un documento de prueba (DEMO): no tiene valor tributario.' : '';
  if (await isVoided(deps.db, doc.id))
    return { word: 'Anulado', tone: 'anulado', detail: `El emisor dio de baja este comprobante ante SUNAT.${demo}` };
  switch (doc.status) {
    case 'accepted':
      return { word: 'Aceptado', tone: 'aceptado', detail: `SUNAT aceptó este comprobante.${demo}` };
    case 'observed':
      return {
        word: 'Aceptado con observaciones',
        tone: 'aceptado',
        detail: `SUNAT aceptó este comprobante con observaciones; es válido.${demo}`,
      };
    case 'rejected':
      return {
        word: 'Rechazado',
        tone: 'rechazado',
        detail: `SUNAT rechazó este comprobante: no tiene validez.${demo}`,
      };
    default:
      return {
        word: 'En proceso',
        tone: 'proceso',
        detail: `El comprobante fue emitido y se está informando a SUNAT. Vuelva a consultar más tarde.${demo}`,
      };
  }
}

/**
 * The buyers' consultation page (docs/buyers.md): `GET /consulta` the form, `POST /consulta` the lookup by the five
 * facts printed on every document, `GET /consulta/archivo/{id}/{pdf|xml|cdr}` the files behind signed links that
 * expire in an hour. No token; lookups rate limited per client address; a mismatch reads like a missing document.
 */
export function consultaRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/consulta' });
  const base = deps.config.buyers.publicUrl ?? '';
  const { limit, windowSeconds } = deps.config.buyers.consultaRate;

  router.get('/estilos.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = STYLESHEET;
  });

  router.get('/', pageHeaders, (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = formPage(base);
  });

  router.post('/', pageHeaders, async (ctx) => {
    const startedAt = Date.now();
    ctx.type = 'text/html; charset=utf-8';
    const decision = await admitKeyed(deps.db, `consulta:${ctx.ip}`, limit, windowSeconds);
    if (!decision.admitted) {
      ctx.status = 429;
      ctx.set('Retry-After', String(decision.resetSeconds));
      ctx.body = formPage(
        base,
        {},
        {
          text: `Demasiadas consultas desde su conexión. Espere ${decision.resetSeconds} segundos e inténtelo de nuevo.`,
          tone: 'error',
        },
      );
      return;
    }
    const form = await consultaForm(ctx);
    const problem = form ? formProblem(form) : 'Complete el formulario.';
    if (!form || problem) {
      ctx.status = 422;
      ctx.body = formPage(base, form ?? {}, { text: problem!, tone: 'error' });
      return;
    }
    const typed = form as ConsultaForm;
    const candidates = await findByPrintedNumber(deps.db, {
      ruc: typed.ruc,
      docType: typed.tipo,
      series: typed.serie,
      number: Number(typed.numero),
    });
    const doc = candidates.find((candidate) => matches(candidate, typed));
    let page: { status: number; body: string };
    if (!doc) {
      page = { status: 404, body: formPage(base, typed, { text: NOT_FOUND, tone: 'error' }) };
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
    const kind = ctx.params.kind as FileKind;
    const valid =
      FILE_KINDS.includes(kind) &&
      checkFileLink(deps.secrets, ctx.params.id, kind, String(ctx.query.vence ?? ''), String(ctx.query.firma ?? ''));
    const doc = valid ? await findDocument(deps.db, ctx.params.id) : null;
    if (!doc || (kind === 'cdr' && !doc.cdr_zip) || (kind === 'pdf' && !PRINTABLE_TYPES.has(doc.doc_type))) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = expiredLinkPage(base);
      return;
    }
    if (kind === 'pdf') {
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `attachment; filename="${doc.filename}.pdf"`);
      ctx.body = await renderDocumentPdf(deps.db, doc, 'a4');
    } else if (kind === 'xml') {
      ctx.type = 'application/xml';
      ctx.set('Content-Disposition', `attachment; filename="${doc.filename}.xml"`);
      ctx.body = doc.xml;
    } else {
      ctx.type = 'application/zip';
      ctx.set('Content-Disposition', `attachment; filename="R-${doc.filename}.zip"`);
      ctx.body = Buffer.from(doc.cdr_zip!, 'base64');
    }
  });

  return router;
}
