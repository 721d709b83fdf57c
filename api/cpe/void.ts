import Router from '@koa/router';
import Joi from 'joi';
import type { AppDeps } from '../deps';
import { ApiError, badRequest, notFound } from '../errors';
import { guard } from '../guard';
import { validate } from '../companies/schemas';
import { COMPANY_SCOPE } from '../../db/tokens';
import { findCompanyById, type CompanyRow } from '../../db/companies';
import { findDocument, type DocumentRow, type NewDocument } from '../../db/documents';
import { markWorkflowStarted } from '../../db/document-starts';
import { findVoid, insertVoid, nextVoidedSequence, voidState, type VoidRow } from '../../db/voids';
import { DocumentValidationError, formatIssue, prepareDocument } from '../../documents';
import { readSignedSale, voidedPayload } from '../../documents/summaries/from-signed';
import { createCompanyKeys, signGenerated, SigningUnavailableError, type CompanyKeys } from '../../keys/signing-keys';
import { limaDate } from '../../core/lima';
import { logger } from '../../core/logger';
import { ownDocument } from './own-document';
import { requestActor } from '../audit';
import type { Actor } from '../../db/audit';
import { startDocumentWorkflow } from '../../workflows/document-client';
import { documentWorkKind, taskPriority } from '../../workflows/priority-types';
import { AWAITING_SUMMARY, isRejected, isValidVerdict } from '../../lifecycle/transitions';

/** SUNAT's VoidReasonDescription holds at most 100 characters. */
const voidSchema = Joi.object({ reason: Joi.string().trim().min(1).max(100).required() });

/** How a document is voided: receipts and B-series notes by a condition 3 line of the daily summary, invoices and F-series notes by an ra. */
export function voidRoute(doc: Pick<DocumentRow, 'doc_type' | 'series'>): 'rc' | 'ra' | null {
  const note = doc.doc_type === '07' || doc.doc_type === '08';
  if (doc.doc_type === '03' || (note && doc.series.startsWith('B'))) return 'rc';
  if (doc.doc_type === '01' || (note && doc.series.startsWith('F'))) return 'ra';
  return null;
}

/** The void as the API shows it: `pending` (waiting for the next daily summary), `sent`, or the verdict of what carried it. */
export async function presentVoid(deps: AppDeps, row: VoidRow) {
  const { status, carrier } = await voidState(deps.db, row);
  return {
    external_id: row.document_id,
    reason: row.reason,
    via: row.via,
    status,
    // The rc or ra document carrying the void (query it like any document), null while it waits for a summary.
    document: carrier ? { external_id: carrier.id, filename: carrier.filename } : null,
    // What the last daily summary carrying it answered (why it failed, or that it voided it); null before any.
    result: row.result,
    requested_at: row.created_at.toISOString(),
  };
}

/** Why a void is refused, for a page to say in its own words: the message stays the API's. */
export type VoidRefusal = 'type' | 'external' | 'rejected' | 'not_accepted';

export class VoidRefused extends ApiError {
  constructor(
    readonly code: VoidRefusal,
    status: number,
    message: string,
  ) {
    super(status, message);
  }
}

/** Why a document cannot be voided, or null. */
function refusal(doc: DocumentRow, company: CompanyRow, via: 'rc' | 'ra' | null): VoidRefused | null {
  if (!via)
    return new VoidRefused(
      'type',
      422,
      `A ${doc.doc_type} document is not voided this way: issue an rr or ra with POST /v1/cpe`,
    );
  if (company.signing === 'external')
    return new VoidRefused(
      'external',
      409,
      `Company ${company.ruc} signs its own documents: issue the ${via} with POST /v1/cpe`,
    );
  if (isValidVerdict(doc.status)) return null;
  // A receipt not reported yet is added by the next summary and voided by the one after it.
  if (via === 'rc' && doc.status === AWAITING_SUMMARY) return null;
  if (isRejected(doc.status))
    return new VoidRefused(
      'rejected',
      409,
      `Document ${doc.filename} was rejected: it never became valid, there is nothing to void`,
    );
  return new VoidRefused(
    'not_accepted',
    409,
    `Document ${doc.filename} is ${doc.status}: it can be voided once the authority has accepted it`,
  );
}

/** Whether a document may be voided now (a page offers the form only then); null when it may. */
export const voidRefusal = (doc: DocumentRow, company: CompanyRow): VoidRefused | null =>
  refusal(doc, company, voidRoute(doc));

/** The signed ra voiding `doc`, numbered inside the void's transaction. */
function voidedDocument(
  deps: AppDeps,
  keys: CompanyKeys,
  doc: DocumentRow & { xml: string },
  company: CompanyRow,
  reason: string,
) {
  return async (trx: Parameters<typeof nextVoidedSequence>[0]): Promise<NewDocument> => {
    const today = limaDate(new Date());
    const sale = readSignedSale(doc.xml);
    const correlativo = await nextVoidedSequence(trx, company.id, `RA-${today.replace(/-/g, '')}`);
    let prepared;
    try {
      prepared = prepareDocument(
        voidedPayload({ correlativo, fechaEmision: today, fechaReferencia: sale.issueDate, issuer: sale.issuer }, [
          { sale, reason },
        ]),
        {
          issuerRuc: company.ruc,
          today,
          calendar: deps.config.rules,
        },
      );
    } catch (err) {
      if (!(err instanceof DocumentValidationError)) throw err;
      throw badRequest('The void cannot be built', { reason: err.issues.map(formatIssue) });
    }
    const signed = await signGenerated(keys, company, prepared, doc.destination as CompanyRow['destination']).catch(
      (err) => {
        throw err instanceof SigningUnavailableError
          ? new ApiError(503, `${err.message}; the void was not recorded`)
          : err;
      },
    );
    // The ra's XML before its row (files/); a store that is down rolls the void back with a 503.
    return deps.files.placeDocument(signed);
  };
}

export interface VoidOutcome {
  row: VoidRow;
  /** A void of this document had been requested before: `row` is that one, nothing new was done. */
  already: boolean;
  via: 'rc' | 'ra';
  /** The ra carrying an invoice's void; null for a receipt's (the next daily summary carries it). */
  carrier: DocumentRow | null;
}

/**
 * Voids a document (the API's route and the panel's form), its audit row (`document.void`, by `actor`) in the void's
 * transaction: receipts wait for the daily summary; an invoice's ra is
 * built, signed and committed with the void request in one transaction, then sent through the document workflow (the
 * sweeper starts it if this process dies first). Refusals throw `VoidRefused`.
 */
export async function voidDocument(
  deps: AppDeps,
  keys: CompanyKeys,
  doc: DocumentRow,
  reason: string,
  actor: Actor,
): Promise<VoidOutcome> {
  const company = (await findCompanyById(deps.db, doc.company_id))!;
  const via = voidRoute(doc);
  const existing = await findVoid(deps.db, doc.id);
  if (existing) return { row: existing, already: true, via: existing.via as 'rc' | 'ra', carrier: null };
  const refused = refusal(doc, company, via);
  if (refused) throw refused;
  const { row, carrier } = await insertVoid(
    deps.db,
    { documentId: doc.id, companyId: company.id, reason, via: via! },
    // The voided document's XML is read before the transaction: no store call while it holds its locks.
    via === 'ra'
      ? voidedDocument(deps, keys, { ...doc, xml: await deps.files.xmlOf(doc) }, company, reason)
      : undefined,
    {
      accountId: company.account_id,
      companyId: company.id,
      companyRuc: company.ruc,
      actor,
      action: 'document.void',
      changes: { document: { to: doc.filename }, reason: { to: reason } },
    },
  );
  if (carrier) {
    try {
      await startDocumentWorkflow(deps.temporal, deps.config.temporal.taskQueue, carrier, {
        priority: taskPriority(deps.config.temporal, documentWorkKind(carrier.doc_type), carrier.account_id),
      });
      await markWorkflowStarted(deps.db, [carrier.id]);
    } catch (err) {
      logger.warn(
        { err, externalId: carrier.id },
        'ra committed but its workflow did not start; the sweeper will start it',
      );
    }
  }
  return { row, already: false, via: via!, carrier: carrier ?? null };
}

/** `POST /v1/cpe/{external_id}/void {reason}` and `GET` of the same path (docs/summaries.md), with a company token. */
export function voidRouter(deps: AppDeps, keys: CompanyKeys = createCompanyKeys(deps)): Router {
  const router = new Router();
  const guarded = guard(deps, COMPANY_SCOPE);

  router.post('/v1/cpe/:external_id/void', ...guarded, async (ctx) => {
    const doc = await ownDocument(deps, ctx);
    const { reason } = validate<{ reason: string }>(voidSchema, ctx.request.body);
    const { row, already, via, carrier } = await voidDocument(deps, keys, doc, reason, requestActor(ctx));
    if (already) {
      ctx.body = {
        success: true,
        message: `A void of ${doc.filename} was already requested`,
        data: { void: await presentVoid(deps, row) },
      };
      return;
    }
    ctx.status = 202;
    ctx.body = {
      success: true,
      message:
        via === 'ra'
          ? `Void of ${doc.filename} sent as ${carrier?.filename ?? 'an ra'}`
          : `Void of ${doc.filename} goes into the next daily summary`,
      data: { void: await presentVoid(deps, row) },
    };
  });

  router.get('/v1/cpe/:external_id/void', ...guarded, async (ctx) => {
    const doc = await ownDocument(deps, ctx);
    const row = await findVoid(deps.db, doc.id);
    if (!row) throw notFound(`No void was requested for ${doc.filename}`);
    ctx.body = { success: true, message: `Void of ${doc.filename}`, data: { void: await presentVoid(deps, row) } };
  });

  return router;
}
