/**
 * The steps of the document workflow as I/O: a send, a ticket poll, a state query, each recorded on the row before its
 * outcome is returned. Changes when what a step does with the authority's answer changes; where a document goes is
 * document-routing.ts, whose CDR it is document-cdr.ts, the API's words document-result.ts.
 */
import type { ActivityDeps } from './deps';
import { getStatus, getStatusCdr, GreConnector, sendBill, sendSummary, type AuthorityResult } from '../authority';
import { PgGreTokenStore } from '../authority/gre/pg-token-store';
import { numberTaken } from '../authority/classify';
import { findCompanyById, type CompanyRow } from '../db/companies';
import { beginSend, findDocument, recordOutcome, type DocumentRow } from '../db/documents';
import { emailDue } from '../lifecycle/email';
import { logger } from '../core/logger';
import { authorityCalls } from '../core/metrics';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { DOCUMENT_MISSING, type DocStatus, type DocumentPlan, type StepOutcome } from '../workflows/document-types';
import { afterStep, NO_TICKET_TO_POLL, recordedKind, resolutionFollowUp, type Step } from '../lifecycle/transitions';
import type { WebhookActivities } from '../workflows/webhook-types';
import { billServiceOf, isGreType, isSummaryType, oseTarget, queryable, route, type Route } from './document-routing';
import { earlierAttemptMayHaveReached, lostWithRestore, whoseCdr } from './document-cdr';
import { toDocumentResult } from './document-result';

/** What every step uses: the dependencies (the file store among them), the GRE connector (its token cache), the call timeouts. */
export interface StepContext {
  deps: ActivityDeps;
  notices: Pick<WebhookActivities, 'openWebhookDelivery'>;
  gre: GreConnector;
  callOptions: { timeouts: ActivityDeps['config']['authorityTimeouts'] };
}

export function stepContext(deps: ActivityDeps, notices: Pick<WebhookActivities, 'openWebhookDelivery'>): StepContext {
  return {
    deps,
    notices,
    gre: new GreConnector(new PgGreTokenStore(deps.db, deps.secrets)),
    callOptions: { timeouts: deps.config.authorityTimeouts },
  };
}

type Loaded = { doc: DocumentRow; company: CompanyRow };

export async function load(ctx: StepContext, externalId: string): Promise<Loaded> {
  const doc = await findDocument(ctx.deps.db, externalId);
  if (!doc) throw documentMissing(externalId);
  const company = await findCompanyById(ctx.deps.db, doc.company_id);
  if (!company) throw new Error(`company of document ${externalId} does not exist`);
  return { doc, company };
}

/** `beginSend`, for a document and company that must exist. */
export async function begin(ctx: StepContext, externalId: string, expected?: DocStatus): Promise<Loaded> {
  const marked = await beginSend(ctx.deps.db, externalId, expected);
  if (!marked) throw documentMissing(externalId);
  if (!marked.company) throw new Error(`company of document ${externalId} does not exist`);
  return { doc: marked.doc, company: marked.company };
}

export function planOf(ctx: StepContext, doc: DocumentRow, company: CompanyRow): DocumentPlan {
  const r = route(ctx.deps, doc, company);
  return {
    ruc: doc.ruc,
    docType: doc.doc_type,
    status: doc.status,
    queryable: 'endpoints' in r ? queryable(doc, r.endpoints) : false,
    ticket: doc.ticket,
    oneTask: true,
  };
}

async function queryCdr(ctx: StepContext, doc: DocumentRow, r: Route): Promise<AuthorityResult> {
  const key = { ruc: doc.ruc, type: doc.doc_type, series: doc.series, number: String(doc.number) };
  return heartbeating(() => getStatusCdr(r.endpoints.billConsultService!, r.creds, key, ctx.callOptions));
}

/**
 * `notify`: a resolution whose company has a webhook is notified by this same activity (delivery opened, attempt 1
 * made): no local activity of its own in the workflow. Only the first send asks; other steps leave it to the workflow.
 */
async function record(
  ctx: StepContext,
  doc: DocumentRow,
  result: AuthorityResult,
  step: Step,
  notify = false,
  r?: Route | AuthorityResult,
): Promise<StepOutcome> {
  const { kind, status } = afterStep(result, step, doc.status);
  authorityCalls.inc({ operation: step, classification: result.origin ?? 'answered' });
  // The CDR before the row that names it; a store that is down fails the activity, which Temporal retries (the
  // step's answer is then asked for again: a query first for a document that was sent).
  const cdr = doc.resolved ? null : await ctx.deps.files.placeCdr(doc, result.cdrZip);
  const stored = await recordOutcome(ctx.deps.db, doc.id, {
    step,
    status,
    result: toDocumentResult(doc.id, result),
    ticket: result.ticket,
    cdrZip: cdr?.cdr_zip,
    cdrSha256: cdr?.cdr_sha256,
    cdrSize: cdr?.cdr_size,
    sent: result.reached_sunat !== false,
    // The plan's own predicate, so the waiting reason says whether the workflow queries it (lifecycle waitingReason).
    queryable: r && 'endpoints' in r ? queryable(doc, r.endpoints) : undefined,
  });
  logger.info(
    {
      externalId: doc.id,
      ruc: doc.ruc,
      docType: doc.doc_type,
      step,
      status: stored.status,
      code: result.code,
      origin: result.origin,
    },
    'document step recorded',
  );
  if (!stored.resolved) return { kind, status: stored.status, code: result.code, ticket: stored.ticket };
  const resolved: StepOutcome = { kind: 'resolved', status: stored.status, code: result.code, ticket: stored.ticket };
  const followUp = resolutionFollowUp(stored.resolution_notice, emailDue(stored), notify);
  if (followUp.email) resolved.email = true;
  if (followUp.webhook === 'none') return { ...resolved, webhook: false };
  if (followUp.webhook === 'open_here')
    return { ...resolved, notice: await ctx.notices.openWebhookDelivery(doc.id, { attemptFirst: true }) };
  return resolved;
}

/** What an earlier run of a step recorded, as that step's outcome. */
function recorded(doc: DocumentRow): StepOutcome {
  return { kind: recordedKind(doc.status), status: doc.status, code: doc.result?.code ?? null, ticket: doc.ticket };
}

/**
 * The send of a row `beginSend` has just marked (and returned as it was before). `waitMs` (the first send, inside
 * the workflow task): an answer that does not come within it is not waited for nor recorded; 'handedOff' says so.
 */
export function sendMarked(
  ctx: StepContext,
  before: DocumentRow,
  company: CompanyRow,
  expected?: DocStatus,
  notify?: boolean,
): Promise<StepOutcome>;
export function sendMarked(
  ctx: StepContext,
  before: DocumentRow,
  company: CompanyRow,
  expected: DocStatus,
  notify: boolean,
  waitMs: number,
): Promise<StepOutcome | 'handedOff'>;
export async function sendMarked(
  ctx: StepContext,
  before: DocumentRow,
  company: CompanyRow,
  expected?: DocStatus,
  notify = false,
  waitMs?: number,
): Promise<StepOutcome | 'handedOff'> {
  if (before.resolved) return resolvedBefore(before);
  if (expected && before.status !== expected) return recorded(before);
  const r = route(ctx.deps, before, company);
  const done = (result: AuthorityResult, step: 'send' | 'query') => record(ctx, before, result, step, notify, r);
  if (!('endpoints' in r)) return done(r, 'send');
  const target = await oseTarget(ctx.deps, before, company);
  if (!target.ok) return done(target.refused, 'send');
  // An earlier attempt died after sending and before recording: ask before sending twice.
  if (before.send_started_at && queryable(before, r.endpoints)) {
    const known = await queryCdr(ctx, before, r);
    if (known.status !== 'unknown' || known.reached_sunat !== false)
      return done(whoseCdr(before, known, true), 'query');
  }
  const file = { filename: before.filename, xml: await ctx.deps.files.xmlOf(before) };
  const timeouts = ctx.callOptions.timeouts;
  const shortened = waitMs !== undefined && waitMs < timeouts.responseMs;
  const options = {
    ...(shortened ? { timeouts: { ...timeouts, responseMs: waitMs } } : ctx.callOptions),
    addresses: target.addresses,
  };
  const result = await heartbeating(() =>
    isGreType(before.doc_type)
      ? ctx.gre.sendGre({ auth: r.endpoints.greAuth, api: r.endpoints.greApi }, r.gre!, file, options)
      : isSummaryType(before.doc_type)
        ? sendSummary(billServiceOf(before, r.endpoints), r.creds, file, options)
        : sendBill(billServiceOf(before, r.endpoints), r.creds, file, options),
  );
  // Nothing recorded: the row keeps send_started_at, so the send activity asks the authority before sending again.
  if (shortened && result.origin === 'timeout') {
    logger.info(
      { externalId: before.id, ruc: before.ruc, filename: before.filename, waitMs },
      'first send unanswered within the workflow task; the send activity takes it over',
    );
    return 'handedOff';
  }
  // "Already reported" is not a rejection by itself, nor an acceptance: whose the number is decides.
  if (result.alreadyReported) {
    const mayHaveReached = earlierAttemptMayHaveReached(before);
    if (queryable(before, r.endpoints)) {
      const known = await queryCdr(ctx, before, r);
      if (known.status !== 'unknown') {
        const ours = mayHaveReached || (await lostWithRestore(ctx.deps.db, before, known));
        return done(whoseCdr(before, known, ours, result.code ?? '1033'), 'query');
      }
    }
    if (!mayHaveReached) return done(numberTaken(result.code ?? '1033', result.httpStatus), 'send');
  }
  return done(result, 'send');
}

export async function checkTicket(ctx: StepContext, externalId: string): Promise<StepOutcome> {
  const { doc, company } = await load(ctx, externalId);
  if (doc.resolved) return resolvedBefore(doc);
  if (!doc.ticket) return { ...NO_TICKET_TO_POLL, code: null, ticket: null };
  const r = route(ctx.deps, doc, company);
  if (!('endpoints' in r)) return record(ctx, doc, r, 'ticket', false, r);
  const target = await oseTarget(ctx.deps, doc, company);
  if (!target.ok) return record(ctx, doc, target.refused, 'ticket', false, r);
  const ticket = doc.ticket;
  const result = await heartbeating(() =>
    isGreType(doc.doc_type)
      ? ctx.gre.getGreStatus({ auth: r.endpoints.greAuth, api: r.endpoints.greApi }, r.gre!, ticket, ctx.callOptions)
      : getStatus(billServiceOf(doc, r.endpoints), r.creds, ticket, {
          ...ctx.callOptions,
          addresses: target.addresses,
        }),
  );
  return record(ctx, doc, { ...result, ticket: result.ticket ?? doc.ticket }, 'ticket', false, r);
}

export async function queryState(ctx: StepContext, externalId: string): Promise<StepOutcome> {
  const { doc, company } = await load(ctx, externalId);
  if (doc.resolved) return resolvedBefore(doc);
  const r = route(ctx.deps, doc, company);
  if (!('endpoints' in r) || !queryable(doc, r.endpoints)) {
    return { kind: 'unknown', status: doc.status, code: doc.result?.code ?? null, ticket: doc.ticket };
  }
  // Reconciliation follows a send that may have reached the authority; a CDR with another document's hash is still not ours.
  return record(ctx, doc, whoseCdr(doc, await queryCdr(ctx, doc, r), true), 'query', false, r);
}

/**
 * A workflow whose row is gone (chasqui's database restored to a backup older than the document): retrying cannot
 * bring it back, so the failure is final and the workflow ends (docs/operations.md, "Restoring from a backup").
 */
function documentMissing(externalId: string): ApplicationFailure {
  logger.warn({ externalId }, `document ${externalId} does not exist (lost with a restore?); its workflow ends`);
  return ApplicationFailure.nonRetryable(`document ${externalId} does not exist`, DOCUMENT_MISSING);
}

/**
 * The outcome of a step that finds its document resolved by an earlier run (a local activity run again after a lost
 * workflow task): an e-mail still pending is asked for again (its workflow id makes a second start harmless).
 */
function resolvedBefore(doc: DocumentRow): StepOutcome {
  const outcome: StepOutcome = {
    kind: 'resolved',
    status: doc.status,
    code: doc.result?.code ?? null,
    ticket: doc.ticket,
  };
  if (emailDue(doc)) outcome.email = true;
  return outcome;
}

/** The running activity's context; null when called outside one (a direct call in a test): nothing to tell Temporal. */
export function currentActivity(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/** Heartbeats every 5 s while `work` runs (inside an activity), so Temporal tells a slow call from a dead worker. */
async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = currentActivity();
  // A local activity has no heartbeat of its own (the SDK keeps its workflow task alive instead).
  const timer = context && !context.info.isLocal ? setInterval(() => context!.heartbeat(), 5_000) : null;
  try {
    return await work();
  } finally {
    if (timer) clearInterval(timer);
  }
}
