import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError, badRequest, unauthorized } from '../errors';
import { authOf } from '../auth';
import { idempotencyClaim, type IdempotencyClaim } from '../middleware/idempotency';
import { limaDate } from '../../core/lima';
import type { CompanyRow } from '../../db/companies';
import type { Db } from '../../db/knex';
import { findNumberHolder, insertDocument, isNumberTaken, type DocumentRow } from '../../db/documents';
import { checkNumber, payloadHash } from './number';
import { isXmlEnvelope } from '../middleware/body';
import { consumeProductionUse, loadIssuerContext, type IssuerAccount, type IssuerContext } from '../../db/issuing';
import {
  prepareDocument,
  DocumentValidationError,
  type PrepareOptions,
  type PreparedDocument,
  type ReferencedDocument,
} from '../../documents';
import type { ExternalDocument } from '../../documents/external';
import { declaresDtd, DTD_REFUSED } from '../../documents/xml/dtd';
import { issue } from '../../documents/errors';
import { runHeavy } from '../heavy';
import { signBuiltXml } from '../../documents/signing';
import { customerDocOf } from '../../documents/customer';
import { documentsTotal } from '../../core/metrics';
import { toValidationResponse } from '../../documents/validation-response';
import { hasOwnWorkflow, initialStatus, isRejected } from '../../lifecycle/transitions';
import { exhausted, planBlock, productionCharge } from './plan';
import { SigningUnavailableError, type KeyResolver, type SignedBy } from '../../keys/signing-keys';
import type { WithFiles } from '../../files/documents';

const ENVIRONMENT_NAMES: Record<string, string> = { '01': '01', '02': '02', demo: '01', production: '02' };

/**
 * Spec 4 rule 6: a request may declare the environment it means with `X-Environment: 01|02` (or `demo|production`);
 * when it differs from the company's, nothing is signed (409). Without the header the company's environment applies.
 */
/** The request header by which an integrator marks a bulk backfill (docs/delivery.md): its documents go as batch work. */
export const PRIORITY_HEADER = 'Chasqui-Priority';

/** `batch` or `interactive` (the default); read before anything is signed, so a wrong value changes nothing. */
function declaredWorkKind(header: string): 'interactive' | 'batch' {
  const declared = header.trim().toLowerCase();
  if (declared === '' || declared === 'interactive') return 'interactive';
  if (declared === 'batch') return 'batch';
  throw badRequest(`Invalid ${PRIORITY_HEADER} header`, { [PRIORITY_HEADER]: ['must be interactive or batch'] });
}

/** The kind the document starts as, or a 429 while its account floods and another issues (account-burst.ts). */
function admittedKind(deps: AppDeps, request: IssueRequest): 'interactive' | 'batch' {
  const admission = deps.workflowStarts.admit(request.issuer.company.account_id, declaredWorkKind(request.priority));
  if ('kind' in admission) return admission.kind;
  const wait = String(admission.retryAfterSeconds);
  throw new ApiError(
    429,
    `The account is issuing past its burst while other accounts issue: its documents are taken as its level drains; retry in ${wait} s`,
    { headers: { 'Retry-After': wait } },
  );
}

function checkDeclaredEnvironment(header: string, company: CompanyRow): void {
  const declared = header.trim().toLowerCase();
  if (!declared) return;
  const environment = ENVIRONMENT_NAMES[declared];
  if (!environment)
    throw badRequest('Invalid X-Environment header', { 'X-Environment': ['must be 01 (demo) or 02 (production)'] });
  if (environment !== company.environment) {
    throw new ApiError(
      409,
      `The request declares environment ${environment} but company ${company.ruc} is in ${company.environment}; nothing was signed`,
    );
  }
}

/**
 * The document a note modifies, when this company issued it through chasqui and SUNAT did not reject it: a note dated
 * before it is refused (2885), a credit note above it is warned (NotaCredito2_0 rows 85 and 86) and, from
 * `credit-note-ceiling` (by the note's fechaEmision), refused. The reasons those rows never compare (credit 10, debit
 * 03) cost no query.
 */
async function referencedDocument(
  deps: AppDeps,
  company: CompanyRow,
  body: unknown,
): Promise<ReferencedDocument | null> {
  const b = body as {
    tipoDoc?: unknown;
    motivo?: { codigo?: unknown };
    documentoAfectado?: { tipoDoc?: unknown; serieNumero?: unknown };
  } | null;
  const spared = b?.tipoDoc === '07' ? '10' : b?.tipoDoc === '08' ? '03' : null;
  if (!b || !spared || b.motivo?.codigo === spared) return null;
  const ref = b.documentoAfectado;
  const m = typeof ref?.serieNumero === 'string' ? /^([FB][A-Z0-9]{3})-(\d{1,8})$/.exec(ref.serieNumero) : null;
  if (!m || (ref!.tipoDoc !== '01' && ref!.tipoDoc !== '03')) return null;
  const held = await findNumberHolder(deps.db, {
    ruc: company.ruc,
    environment: company.environment,
    doc_type: ref!.tipoDoc,
    series: m[1],
    number: Number(m[2]),
  });
  if (!held || isRejected(held.status) || !held.totals) return null;
  return { serieNumero: ref!.serieNumero as string, totals: held.totals, issueDate: held.issue_date };
}

/**
 * An externally signed document read and its signature verified in the heavy-work pool (xmldom and the signature
 * check are synchronous: a large document would hold the event loop), in the account's turn; past its time or heap,
 * a 422 naming the XML.
 */
async function readExternal(deps: AppDeps, company: CompanyRow, xml: string): Promise<ExternalDocument> {
  // A DOCTYPE is found by a scan of the prolog, no parser (documents/xml/dtd.ts): refused here, no thread taken.
  if (declaresDtd(xml)) throw new DocumentValidationError([issue('chasqui', 'BR_XML_DTD', DTD_REFUSED, 'xml')]);
  const read = await runHeavy(
    deps,
    company.account_id,
    'xml',
    { xml, issuerRuc: company.ruc },
    {
      failed: (err) =>
        new ApiError(422, 'The document was not issued', {
          errors: {
            xml: [
              `reading and verifying the XML ${err.reason === 'timeout' ? 'took longer than its bound' : 'needed more than its bounds'}: ${err.message}`,
            ],
          },
          data: { reason: err.reason },
        }),
    },
  );
  if (!read.ok) throw new DocumentValidationError(read.issues);
  return read.document;
}

/** The request body as a document: a JSON payload to build, or `{xml: base64}` already signed by the issuer (signing `external`). */
async function readPayload(
  deps: AppDeps,
  request: IssueRequest,
  company: CompanyRow,
  options: PrepareOptions,
): Promise<{ document: PreparedDocument; external: { hash: string } | null }> {
  const body = request.body as Record<string, unknown> | undefined;
  const wantsXml = isXmlEnvelope(body);
  if (company.signing === 'external') {
    if (!wantsXml)
      throw badRequest(`Company ${company.ruc} signs its documents itself: send {"xml": "<signed XML in base64>"}`, {
        xml: ['required: the signed XML in base64'],
      });
    const xml = Buffer.from(body!.xml as string, 'base64').toString('utf8');
    const read = await readExternal(deps, company, xml);
    return { document: read, external: { hash: read.hash } };
  }
  if (wantsXml)
    throw badRequest(
      `Company ${company.ruc} has chasqui sign its documents: send the JSON document (signing external accepts signed XML)`,
      { xml: ['not accepted with signing provider'] },
    );
  return { document: prepareDocument(body, options), external: null };
}

/** What preparing a JSON document needs to know of the company, the calendar and the document it references. */
export async function prepareOptions(deps: AppDeps, company: CompanyRow, body: unknown): Promise<PrepareOptions> {
  return {
    issuerRuc: company.ruc,
    today: limaDate(new Date()),
    sendingWindowDays: deps.config.issuing.sendingWindowDays,
    calendar: deps.config.rules,
    ruleWarnDays: deps.config.ruleWarnDays,
    registers: { igvSpecialRate: company.register_igv_special_rate, productCode: company.register_product_code },
    receiptsViaSummary: company.receipts_mode === 'summary',
    referenced: company.signing === 'external' ? null : await referencedDocument(deps, company, body),
  };
}

/** Signs chasqui's own XML with the company's key (503 when signing is unavailable). */
async function signWithKey(keys: KeyResolver, issuer: IssuerContext, xml: string) {
  const key = await keys(issuer.company.environment, issuer.certificate).catch((err) => {
    throw err instanceof SigningUnavailableError ? new ApiError(503, err.message) : err;
  });
  // The library's builder output is canonical by construction: the signer's fast path applies without a re-check.
  return signBuiltXml(xml, key.signer);
}

function signedByOf(issuer: IssuerContext, external: boolean): SignedBy {
  if (external) return 'external';
  return issuer.certificate?.origin === 'own' ? 'own_certificate' : 'provider_certificate';
}

export interface Issued {
  row: WithFiles<DocumentRow>;
  company: CompanyRow;
  /** What `storedBody` made of the committed row: the answer, byte for byte what a replay returns. */
  body: unknown;
  /** The same company sent the very same bytes for a number it already holds: `row` is that document, nothing new was done. */
  replayed: boolean;
}

/** What issuing reads of a request: the API's from its token, headers and body, the panel's from its form. */
export interface IssueRequest {
  issuer: IssuerAccount;
  body: unknown;
  /** The body as received: its hash tells a byte-identical repeat of a number from another document. */
  rawBody: string;
  /** The `X-Environment` and `Chasqui-Priority` headers as sent ('' when absent). */
  environment: string;
  priority: string;
  claim: IdempotencyClaim | null;
}

/**
 * POST /v1/cpe and the legacy send: the request read from the token, headers and body, then `issueRequest`.
 */
export function issueDocument(
  deps: AppDeps,
  keys: KeyResolver,
  ctx: Context,
  startedAt: number,
  storedBody: (row: WithFiles<DocumentRow>) => unknown,
): Promise<Issued> {
  const issuer = authOf(ctx).issuer;
  if (!issuer) throw unauthorized('The token has no company');
  const request: IssueRequest = {
    issuer,
    body: ctx.request.body,
    rawBody: (ctx.state.rawBody as string | undefined) ?? '',
    environment: ctx.get('X-Environment'),
    priority: ctx.get(PRIORITY_HEADER),
    claim: idempotencyClaim(ctx),
  };
  return issueRequest(deps, keys, request, startedAt, storedBody);
}

/**
 * The new document's insert, its signed XML placed first (docs/files.md): a crash in between leaves an orphan object,
 * never a row without its XML; a store that is down answers 503 here, before anything is acknowledged.
 */
async function placedInsert(
  deps: AppDeps,
  company: CompanyRow,
  document: PreparedDocument,
  signed: { xml: string; hash: string },
  facts: { signedBy: SignedBy; status: DocumentRow['status']; payloadHash: string },
): Promise<(db: Db) => Promise<WithFiles<DocumentRow>>> {
  const placed = await deps.files.placeXml(
    { ruc: company.ruc, doc_type: document.docType, issue_date: document.issueDate },
    signed.xml,
  );
  return async (db) => ({
    ...(await insertDocument(db, {
      id: randomUUID(),
      account_id: company.account_id,
      company_id: company.id,
      ruc: company.ruc,
      doc_type: document.docType,
      series: document.series,
      number: document.number,
      filename: document.filename,
      issue_date: document.issueDate,
      currency: document.currency,
      environment: company.environment,
      // Externally signed documents always go through the provider's OSE (spec 1).
      destination: facts.signedBy === 'external' ? 'provider_ose' : company.destination,
      signed_by: facts.signedBy,
      status: facts.status,
      hash: signed.hash,
      ...placed,
      customer_doc: customerDocOf(document.xml),
      email_to: document.buyerEmail ?? null,
      totals: document.totals,
      warnings: document.warnings,
      payload_hash: facts.payloadHash,
    })),
    xml: signed.xml,
  });
}

/**
 * Validate, check the plan (402 before signing), sign, then ONE transaction (document + production use + idempotency
 * record), then hand the document to `workflowStarts`, which starts its workflow after the answer (the committed row
 * is the outbox; the sweeper starts what a crash loses). `storedBody` is the answer an Idempotency-Key replays.
 */
export async function issueRequest(
  deps: AppDeps,
  keys: KeyResolver,
  request: IssueRequest,
  startedAt: number,
  storedBody: (row: WithFiles<DocumentRow>) => unknown,
): Promise<Issued> {
  const { files } = deps;
  const kind = admittedKind(deps, request);
  const issuer = await loadIssuerContext(deps.db, request.issuer);
  const { company } = issuer;
  checkDeclaredEnvironment(request.environment, company);

  let payload: Awaited<ReturnType<typeof readPayload>>;
  const options = await prepareOptions(deps, company, request.body);
  try {
    payload = await readPayload(deps, request, company, options);
  } catch (err) {
    if (err instanceof DocumentValidationError)
      throw new ApiError(422, 'The document was not issued', { body: { ...toValidationResponse(err, startedAt) } });
    throw err;
  }
  const { document } = payload;
  const hash = payloadHash(request.rawBody);
  const held = await checkNumber(deps.db, company, document, hash, startedAt);
  if (held) {
    const replay = await files.withFiles(held);
    return { row: replay, company, body: storedBody(replay), replayed: true };
  }
  const signedBy = signedByOf(issuer, payload.external !== null);
  const production = company.environment === '02';
  const charge = productionCharge(issuer, signedBy, deps.config);
  const block = planBlock(issuer, charge, signedBy, deps.config, new Date());
  if (block) throw block;

  const signed = payload.external
    ? { xml: document.xml, hash: payload.external.hash }
    : await signWithKey(keys, issuer, document.xml);

  const status = initialStatus(company, document.docType, document.series);
  const { claim } = request;
  const insert = await placedInsert(deps, company, document, signed, { signedBy, status, payloadHash: hash });
  let body: unknown;
  // A demo issue without a key writes one row: it needs no transaction (two round trips fewer on the hot path).
  const commit = () =>
    !production && !claim
      ? insert(deps.db)
      : deps.db.transaction(async (trx) => {
          const inserted = await insert(trx);
          if (production) {
            const consumed = await consumeProductionUse(trx, charge);
            if (!consumed.ok)
              throw exhausted(consumed.lacking, company.ruc, consumed.quotaUnits, consumed.osePackageUnits);
          }
          body = storedBody(inserted);
          await claim?.storeWithin(trx, 202, body);
          return inserted;
        });
  let row: WithFiles<DocumentRow>;
  try {
    row = await commit();
  } catch (err) {
    // Another request took the number between the check and the insert: the index decided, nothing was committed.
    if (!isNumberTaken(err)) throw err;
    const found = await checkNumber(deps.db, company, document, hash, startedAt);
    if (!found) throw err;
    const winner = await files.withFiles(found);
    return { row: winner, company, body: storedBody(winner), replayed: true };
  }
  body ??= storedBody(row);
  documentsTotal.inc({ doc_type: row.doc_type, status: row.status });

  // Receipts waiting for the daily summary are sent by the summary, not by a workflow of their own. The start runs
  // after the answer (api/cpe/workflow-starts.ts): the committed document is what the 202 promises, and a start lost
  // to a crash or to Temporal being down is the sweeper's (docs/delivery.md).
  if (hasOwnWorkflow(status)) deps.workflowStarts.enqueue({ ...row, company_name: company.business_name }, kind);
  return { row, company, body, replayed: false };
}
