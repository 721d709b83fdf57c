import Router from '@koa/router';
import Joi from 'joi';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { authenticate, authOf } from '../auth';
import { rateLimit } from '../middleware/rate-limit';
import { validate } from '../companies/schemas';
import { accountCompany } from '../companies/routes';
import { findDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import { toApiDocument } from '../../db/document-presentation';
import { COMPANY_SCOPE } from '../../db/tokens';
import { isCalendarDate } from '../../documents/calendar';
import { DOCUMENT_STATUSES, type DocStatus } from '../../lifecycle/transitions';

export const DOCUMENT_TYPES = ['01', '03', '07', '08', '09', '31', 'rc', 'ra', 'rr'] as const;

const isoDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => (isCalendarDate(value) ? value : helpers.error('any.invalid')))
  .messages({ 'string.pattern.base': 'must be a date YYYY-MM-DD', 'any.invalid': 'must be a real date YYYY-MM-DD' });
/** `status=accepted,observed` or `status=accepted&status=observed`. */
const statuses = Joi.array()
  .items(Joi.string().valid(...DOCUMENT_STATUSES))
  .single();

const listQuery = Joi.object({
  ruc: Joi.string()
    .pattern(/^\d{11}$/)
    .message('must be the 11 digits of a RUC'),
  status: statuses,
  tipoDoc: Joi.string().valid(...DOCUMENT_TYPES),
  serie: Joi.string()
    .pattern(/^[A-Za-z0-9]{4}$/)
    .message('must be 4 letters or digits'),
  correlativo: Joi.number().integer().min(1).max(99_999_999),
  desde: isoDate,
  hasta: isoDate,
  resolved: Joi.boolean(),
  cliente: Joi.string()
    .pattern(/^[A-Za-z0-9-]{1,20}$/)
    .message('must be the customer document number (1 to 20 letters, digits or -)'),
  limit: Joi.number().integer().min(1).max(200).default(50),
  before: Joi.string().guid(),
});

interface ListQuery {
  ruc?: string;
  status?: DocStatus[];
  tipoDoc?: string;
  serie?: string;
  correlativo?: number;
  desde?: string;
  hasta?: string;
  resolved?: boolean;
  cliente?: string;
  limit: number;
  before?: string;
}

/** A query string's `a=x,y` as ['x','y'] (Koa gives repeated keys as arrays already). */
function splitStatuses(query: Record<string, unknown>): Record<string, unknown> {
  const raw = query.status;
  if (raw === undefined) return query;
  const list = (Array.isArray(raw) ? raw : [raw])
    .flatMap((s) => String(s).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return { ...query, status: list };
}

/**
 * `GET /v1/cpe` (docs/issuing.md, "Listing documents"): a company token lists its company's documents; an account
 * token names one of its companies with `ruc=`. Newest first, `limit` per page, `before` = the previous page's
 * `next_before`.
 */
export function cpeListRouter(deps: AppDeps): Router {
  const router = new Router();

  /** The company whose documents are listed: the token's own, or the account's company named by `ruc`. */
  async function companyOf(ctx: Context, ruc: string | undefined): Promise<string> {
    const auth = authOf(ctx);
    if (auth.scope === COMPANY_SCOPE) {
      if (ruc !== undefined)
        throw badRequest('A company token lists its own documents', {
          ruc: ['not accepted with a company signing token'],
        });
      return auth.companyId!;
    }
    if (ruc === undefined)
      throw badRequest('An account token must name one of its companies', { ruc: ['required with an account token'] });
    return (await accountCompany(deps, auth.accountId, ruc)).id;
  }

  router.get('/v1/cpe', authenticate(deps), rateLimit(deps), async (ctx) => {
    const query = validate<ListQuery>(listQuery, splitStatuses(ctx.query));
    if (query.desde && query.hasta && query.desde > query.hasta)
      throw badRequest('desde is after hasta', { desde: ['must not be after hasta'] });
    const companyId = await companyOf(ctx, query.ruc);
    if (query.before) {
      const cursor = await findDocument(deps.db, query.before);
      if (cursor?.company_id !== companyId)
        throw badRequest('Unknown document in before', {
          before: ['must be the next_before of a previous page of this list'],
        });
    }
    const rows = await listDocuments(deps.db, {
      companyId,
      statuses: query.status,
      docType: query.tipoDoc,
      series: query.serie?.toUpperCase(),
      number: query.correlativo,
      issuedFrom: query.desde,
      issuedTo: query.hasta,
      resolved: query.resolved,
      customerDoc: query.cliente,
      before: query.before,
      limit: query.limit,
    });
    const documents = rows.map(toApiDocument);
    ctx.body = {
      success: true,
      message: `${documents.length} documents`,
      data: {
        documents,
        count: documents.length,
        next_before: rows.length === query.limit ? rows[rows.length - 1].id : null,
      },
    };
  });

  return router;
}
