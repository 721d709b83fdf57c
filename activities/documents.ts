import type { ActivityDeps } from './deps';
import {
  getStatus,
  getStatusCdr,
  GreConnector,
  resolveEndpoints,
  sendBill,
  sendSummary,
  type AuthorityResult,
  type GreCredentials,
  type ResolvedEndpoints,
  type SolCredentials,
} from '../authority';
import { PgGreTokenStore } from '../authority/gre/pg-token-store';
import { connectionFailure, numberTaken } from '../authority/classify';
import { findCompanyById, type CompanyRow } from '../db/companies';
import { emailDue } from '../lifecycle/email';
import { beginSend, findDocument, recordOutcome, type DocumentResult, type DocumentRow } from '../db/documents';
import { answeredInLostWindow } from '../db/restores';
import { logger } from '../core/logger';
import { firstTaskOf } from '../core/temporal-log';
import { authorityCalls } from '../core/metrics';
import { checkPublicHttpsUrl } from '../core/net-guard';
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  DOCUMENT_MISSING,
  type DocStatus,
  type DocumentActivities,
  type DocumentPlan,
  type StepOutcome,
} from '../workflows/document-types';
import { afterStep, recordedKind } from '../lifecycle/transitions';
import type { WebhookActivities } from '../workflows/webhook-types';
import { documentFiles } from '../files/documents';

const SUMMARY_TYPES = new Set(['rc', 'ra', 'rr']);
/** Retención, percepción and their reversals go to SUNAT's "otros CPE" billService (greenter sends RR there too). */
const OTHER_CPE_TYPES = new Set(['20', '40', 'rr']);
const GRE_TYPES = new Set(['09', '31']);
/** SUNAT's CDR query (billConsultService getStatusCdr) answers for invoices and their notes only. */
const QUERYABLE_TYPES = new Set(['01', '07', '08']);

const ORIGIN_DESCRIPTIONS: Record<string, string> = {
  connection: 'The authority or OSE could not be reached; the document was not received. chasqui retries it.',
  timeout: 'Sent, but no answer came in time; it may have been received. Query its state before acting.',
  tax_authority: 'The authority or OSE received the document and answered.',
  system: 'The authority answered, but chasqui could not process the answer. Query its state before acting.',
};

/** The SUNAT beta's well-known test user, used in demo when a company has loaded no SOL credentials. */
const DEMO_SOL = { solUser: 'MODDATOS', solPassword: 'moddatos' };

type Route = { endpoints: ResolvedEndpoints; creds: SolCredentials; gre: GreCredentials | null };

/**
 * The SOL user a company's documents go to SUNAT with (WS-Security and the GRE token alike): spec 1, with its own
 * certificate the secondary user; otherwise the secondary when loaded, the principal when not; in demo SUNAT beta's
 * MODDATOS when it loaded none. Null when none applies. The company checks ask with the same user.
 */
export function sendingSolUser(
  company: CompanyRow,
  environment: string,
  ownCertificate: boolean,
  secrets: ActivityDeps['secrets'],
): { solUser: string; solPassword: string } | null {
  const demo = environment === '01' ? DEMO_SOL : null;
  const principal =
    company.sol_user && company.sol_password_sealed
      ? { solUser: company.sol_user, solPassword: secrets.open(company.sol_password_sealed) }
      : null;
  const secondary =
    company.sol_secondary_user && company.sol_secondary_password_sealed
      ? { solUser: company.sol_secondary_user, solPassword: secrets.open(company.sol_secondary_password_sealed) }
      : null;
  return ownCertificate ? (secondary ?? demo) : (secondary ?? principal ?? demo);
}

/**
 * The I/O of the document workflow. Each activity reads what it needs from the database (the workflow passes only the
 * external id), talks to SUNAT or the OSE through the connectors, records the outcome, and returns a small summary.
 * All are safe to run twice: a resolved document is never sent or changed again.
 */
export function createDocumentActivities(deps: ActivityDeps, notices: Pick<WebhookActivities, 'openWebhookDelivery'>) {
  const gre = new GreConnector(new PgGreTokenStore(deps.db, deps.secrets));
  const callOptions = { timeouts: deps.config.authorityTimeouts };
  const files = documentFiles(deps.config);

  async function load(externalId: string): Promise<{ doc: DocumentRow; company: CompanyRow }> {
    const doc = await findDocument(deps.db, externalId);
    if (!doc) throw documentMissing(externalId);
    const company = await findCompanyById(deps.db, doc.company_id);
    if (!company) throw new Error(`company of document ${externalId} does not exist`);
    return { doc, company };
  }

  /** `beginSend`, for a document and company that must exist. */
  async function begin(externalId: string, expected?: DocStatus): Promise<{ doc: DocumentRow; company: CompanyRow }> {
    const marked = await beginSend(deps.db, externalId, expected);
    if (!marked) throw documentMissing(externalId);
    if (!marked.company) throw new Error(`company of document ${externalId} does not exist`);
    return { doc: marked.doc, company: marked.company };
  }

  /**
   * A company's own OSE is an address the integrator chose: public at configuration, and still public now. Every
   * call to it connects to the addresses this check approved (a name that resolves elsewhere later is not followed).
   */
  async function oseTarget(
    doc: DocumentRow,
    company: CompanyRow,
  ): Promise<{ ok: true; addresses?: string[] } | { ok: false; refused: AuthorityResult }> {
    if (doc.destination !== 'own_ose' || !company.ose_url) return { ok: true };
    const target = await checkPublicHttpsUrl(company.ose_url, { allowPrivate: deps.config.webhookAllowPrivate });
    if (target.ok) return { ok: true, addresses: target.addresses };
    return {
      ok: false,
      refused: connectionFailure(
        'TARGET_REFUSED',
        `the OSE URL ${target.message}; chasqui sends once it points to a public address`,
      ),
    };
  }

  /** Where the document goes and as whom; a value explaining why not when the company is not ready to send. */
  function route(doc: DocumentRow, company: CompanyRow): Route | AuthorityResult {
    let endpoints: ResolvedEndpoints;
    try {
      endpoints = resolveEndpoints(
        {
          environment: doc.environment as '01' | '02',
          destination: doc.destination as CompanyRow['destination'],
          oseUrl: company.ose_url,
        },
        deps.config.authority,
      );
    } catch (err) {
      return connectionFailure('NO_ENDPOINT', (err as Error).message);
    }
    const sol = sendingSolUser(company, doc.environment, doc.signed_by === 'own_certificate', deps.secrets);
    let creds: SolCredentials | null = null;
    if (doc.destination === 'own_ose') {
      if (company.ose_user && company.ose_password_sealed) {
        creds = {
          ruc: doc.ruc,
          solUser: company.ose_user,
          solPassword: deps.secrets.open(company.ose_password_sealed),
        };
      }
    } else if (doc.destination === 'provider_ose' && deps.config.providerOseCredentials) {
      const provider = deps.config.providerOseCredentials;
      creds = { ruc: doc.ruc, solUser: provider.user, solPassword: provider.password };
    } else if (sol) {
      creds = { ruc: doc.ruc, ...sol };
    }
    if (!creds) {
      const missing =
        doc.signed_by === 'own_certificate' && doc.destination === 'tax_authority'
          ? 'its secondary SOL user (it signs with its own certificate): PATCH sol-credentials with secondary_user and secondary_password'
          : `credentials for ${doc.destination}`;
      return connectionFailure(
        'NO_CREDENTIALS',
        `company ${doc.ruc} has no ${missing}; chasqui sends on its next retry once they are loaded`,
      );
    }
    let greCreds: GreCredentials | null = null;
    if (GRE_TYPES.has(doc.doc_type)) {
      if (!company.gre_client_id || !company.gre_client_secret_sealed || !sol) {
        return connectionFailure(
          'NO_GRE_CREDENTIALS',
          `company ${doc.ruc} has no GRE API credentials (PATCH /v1/companies/${doc.ruc}/gre-credentials)`,
        );
      }
      greCreds = {
        ruc: doc.ruc,
        ...sol,
        clientId: company.gre_client_id,
        clientSecret: deps.secrets.open(company.gre_client_secret_sealed),
      };
    }
    return { endpoints, creds, gre: greCreds };
  }

  function queryable(doc: DocumentRow, endpoints: ResolvedEndpoints | null): boolean {
    return !!endpoints?.billConsultService && doc.destination === 'tax_authority' && QUERYABLE_TYPES.has(doc.doc_type);
  }

  async function queryCdr(doc: DocumentRow, r: Route): Promise<AuthorityResult> {
    const key = { ruc: doc.ruc, type: doc.doc_type, series: doc.series, number: String(doc.number) };
    return heartbeating(() => getStatusCdr(r.endpoints.billConsultService!, r.creds, key, callOptions));
  }

  /**
   * `notify`: a resolution whose company has a webhook is notified by this same activity (delivery opened, attempt 1
   * made): no local activity of its own in the workflow. Only the first send asks; other steps leave it to the workflow.
   */
  async function record(
    doc: DocumentRow,
    result: AuthorityResult,
    step: 'send' | 'ticket' | 'query',
    notify = false,
  ): Promise<StepOutcome> {
    const { kind, status } = afterStep(result, step, doc.status);
    authorityCalls.inc({ operation: step, classification: result.origin ?? 'answered' });
    // The CDR before the row that names it; a store that is down fails the activity, which Temporal retries (the
    // step's answer is then asked for again: a query first for a document that was sent).
    const cdr = doc.resolved ? null : await files.placeCdr(doc, result.cdrZip);
    const stored = await recordOutcome(deps.db, doc.id, {
      step,
      status,
      result: toDocumentResult(doc.id, result),
      ticket: result.ticket,
      cdrZip: cdr?.cdr_zip,
      cdrKey: cdr?.cdr_key,
      cdrSize: cdr?.cdr_size,
      sent: result.reached_sunat !== false,
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
    if (stored.resolved) {
      const resolved: StepOutcome = {
        kind: 'resolved',
        status: stored.status,
        code: result.code,
        ticket: stored.ticket,
      };
      // Only the call that resolved the document (webhook_due set) asks for the e-mail: a repeated step does not.
      if (stored.webhook_due !== null && emailDue(stored)) resolved.email = true;
      if (stored.webhook_due === false) return { ...resolved, webhook: false };
      if (stored.webhook_due && notify)
        return { ...resolved, notice: await notices.openWebhookDelivery(doc.id, { attemptFirst: true }) };
      return resolved;
    }
    return { kind, status: stored.status, code: result.code, ticket: stored.ticket };
  }

  /** What an earlier run of a step recorded, as that step's outcome. */
  function recorded(doc: DocumentRow): StepOutcome {
    return { kind: recordedKind(doc.status), status: doc.status, code: doc.result?.code ?? null, ticket: doc.ticket };
  }

  function planOf(doc: DocumentRow, company: CompanyRow): DocumentPlan {
    const r = route(doc, company);
    return {
      ruc: doc.ruc,
      docType: doc.doc_type,
      status: doc.status,
      asynchronous: SUMMARY_TYPES.has(doc.doc_type) || GRE_TYPES.has(doc.doc_type),
      queryable: 'endpoints' in r ? queryable(doc, r.endpoints) : false,
      ticket: doc.ticket,
      oneTask: true,
    };
  }

  /**
   * The send of a row `beginSend` has just marked (and returned as it was before). `waitMs` (the first send, inside
   * the workflow task): an answer that does not come within it is not waited for nor recorded; 'handedOff' says so.
   */
  function sendMarked(
    before: DocumentRow,
    company: CompanyRow,
    expected?: DocStatus,
    notify?: boolean,
  ): Promise<StepOutcome>;
  function sendMarked(
    before: DocumentRow,
    company: CompanyRow,
    expected: DocStatus,
    notify: boolean,
    waitMs: number,
  ): Promise<StepOutcome | 'handedOff'>;
  async function sendMarked(
    before: DocumentRow,
    company: CompanyRow,
    expected?: DocStatus,
    notify = false,
    waitMs?: number,
  ): Promise<StepOutcome | 'handedOff'> {
    const done = (result: AuthorityResult, step: 'send' | 'query') => record(before, result, step, notify);
    if (before.resolved) return resolvedBefore(before);
    if (expected && before.status !== expected) return recorded(before);
    const r = route(before, company);
    if (!('endpoints' in r)) return done(r, 'send');
    const target = await oseTarget(before, company);
    if (!target.ok) return done(target.refused, 'send');
    // An earlier attempt died after sending and before recording: ask before sending twice.
    if (before.send_started_at && queryable(before, r.endpoints)) {
      const known = await queryCdr(before, r);
      if (known.status !== 'unknown' || known.reached_sunat !== false)
        return done(whoseCdr(before, known, true), 'query');
    }
    const file = { filename: before.filename, xml: before.xml ?? (await files.xmlOf(before)) };
    const shortened = waitMs !== undefined && waitMs < callOptions.timeouts.responseMs;
    const options = {
      ...(shortened ? { timeouts: { ...callOptions.timeouts, responseMs: waitMs } } : callOptions),
      addresses: target.addresses,
    };
    const result = await heartbeating(() =>
      GRE_TYPES.has(before.doc_type)
        ? gre.sendGre({ auth: r.endpoints.greAuth, api: r.endpoints.greApi }, r.gre!, file, options)
        : SUMMARY_TYPES.has(before.doc_type)
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
        const known = await queryCdr(before, r);
        if (known.status !== 'unknown') {
          const ours = mayHaveReached || (await lostWithRestore(before, known));
          return done(whoseCdr(before, known, ours, result.code ?? '1033'), 'query');
        }
      }
      if (!mayHaveReached) return done(numberTaken(result.code ?? '1033', result.httpStatus), 'send');
    }
    return done(result, 'send');
  }

  /**
   * A hash-less CDR (SUNAT's invoices) of a document posted after a restore, for its issue date, answered between the
   * backup and the restore: the document acknowledged then and lost with the restore, posted again (docs/operations.md).
   */
  async function lostWithRestore(doc: DocumentRow, known: AuthorityResult): Promise<boolean> {
    const cdr = known.cdr;
    if (!cdr || cdr.documentHash !== null || !cdr.responseDate || !cdr.responseTime) return false;
    if (cdr.issueDate?.slice(0, 10) !== doc.issue_date) return false;
    // SUNAT writes its response time in Lima's (UTC−5 all year), without an offset.
    const answeredAt = new Date(`${cdr.responseDate}T${cdr.responseTime}-05:00`);
    return !Number.isNaN(answeredAt.getTime()) && answeredInLostWindow(deps.db, answeredAt, doc.created_at);
  }

  const activities: DocumentActivities = {
    async loadDocumentPlan(externalId, options) {
      if (!options?.sendQueued) {
        const { doc, company } = await load(externalId);
        return planOf(doc, company);
      }
      // The row is read as the send marks it (a document that is not queued is left unmarked): one round trip.
      const { doc: before, company } = await begin(externalId, 'queued');
      const plan = planOf(before, company);
      if (before.resolved || before.status !== 'queued') return plan;
      // Temporal's warnings about this long workflow task then name the document (core/temporal-log.ts).
      const runId = currentActivity()?.info.workflowExecution?.runId;
      const ended = runId
        ? firstTaskOf(runId, {
            externalId: before.id,
            ruc: before.ruc,
            docType: before.doc_type,
            filename: before.filename,
          })
        : undefined;
      try {
        // Only a document whose state can be asked for is handed over: the next send queries before sending again.
        if (!plan.queryable) return { ...plan, firstSend: await sendMarked(before, company, 'queued', true) };
        const firstSend = await sendMarked(before, company, 'queued', true, deps.config.firstSendWaitMs);
        return firstSend === 'handedOff' ? { ...plan, handedOff: true } : { ...plan, firstSend };
      } finally {
        ended?.();
      }
    },

    async sendDocument(externalId, expected) {
      const { doc: before, company } = await begin(externalId, expected);
      return sendMarked(before, company, expected);
    },

    async checkTicket(externalId) {
      const { doc, company } = await load(externalId);
      if (doc.resolved) return resolvedBefore(doc);
      if (!doc.ticket) return { kind: 'retry', status: 'queued', code: null, ticket: null };
      const r = route(doc, company);
      if (!('endpoints' in r)) return record(doc, r, 'ticket');
      const target = await oseTarget(doc, company);
      if (!target.ok) return record(doc, target.refused, 'ticket');
      const ticket = doc.ticket;
      const result = await heartbeating(() =>
        GRE_TYPES.has(doc.doc_type)
          ? gre.getGreStatus({ auth: r.endpoints.greAuth, api: r.endpoints.greApi }, r.gre!, ticket, callOptions)
          : getStatus(billServiceOf(doc, r.endpoints), r.creds, ticket, {
              ...callOptions,
              addresses: target.addresses,
            }),
      );
      return record(doc, { ...result, ticket: result.ticket ?? doc.ticket }, 'ticket');
    },

    async queryDocumentState(externalId) {
      const { doc, company } = await load(externalId);
      if (doc.resolved) return resolvedBefore(doc);
      const r = route(doc, company);
      if (!('endpoints' in r) || !queryable(doc, r.endpoints)) {
        return { kind: 'unknown', status: doc.status, code: doc.result?.code ?? null, ticket: doc.ticket };
      }
      // Reconciliation follows a send that may have reached the authority; a CDR with another document's hash is still not ours.
      return record(doc, whoseCdr(doc, await queryCdr(doc, r), true), 'query');
    },
  };
  return activities;
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

/**
 * Whether an earlier send of this document may have got through unseen: a worker died mid-send (`send_started_at`
 * left), a send timed out (`reached_sunat` null), or it was left `sent` with no verdict.
 */
function earlierAttemptMayHaveReached(before: DocumentRow): boolean {
  return (
    before.send_started_at !== null ||
    before.status === 'sent' ||
    (before.result !== null && before.result.reached_sunat === null)
  );
}

/**
 * The CDR the authority holds for this document's number, judged as ours or another document's (docs/delivery.md):
 * a CDR carrying a DocumentHash (OSE, GRE) is ours when the hash is ours; one without (SUNAT's invoice CDRs) is ours
 * only when an earlier attempt of this very document may have reached the authority (or, `lostWithRestore`, the
 * document is one lost with a restore and posted again). Otherwise the document is
 * rejected with the authority's code (1033, or 1032 for a number whose document was rejected): never reported accepted with another document's CDR.
 */
function whoseCdr(doc: DocumentRow, known: AuthorityResult, mayHaveReached: boolean, code = '1033'): AuthorityResult {
  if (!known.cdr) return known;
  const theirHash = known.cdr.documentHash;
  const ours = theirHash !== null ? theirHash === doc.hash : mayHaveReached;
  return ours ? known : numberTaken(code, known.httpStatus);
}

function billServiceOf(doc: DocumentRow, endpoints: ResolvedEndpoints): string {
  return OTHER_CPE_TYPES.has(doc.doc_type) ? endpoints.otherCpeService : endpoints.billService;
}

/** The running activity's context; null when called outside one (a direct call in a test): nothing to tell Temporal. */
function currentActivity(): Context | null {
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

/** Spec 2.5 `result`; `action` is left out on acceptance (7.5), and a timeout carries `success: false` and the id. */
export function toDocumentResult(externalId: string, r: AuthorityResult): DocumentResult {
  const result: DocumentResult = {
    code: r.code,
    message: r.message,
    errors: r.errors,
    origin: r.origin,
    origin_description: r.origin ? ORIGIN_DESCRIPTIONS[r.origin] : null,
    action: r.action,
    reached_sunat: r.reached_sunat,
  };
  if (r.observations.length) result.observations = r.observations;
  if (r.origin === 'timeout') Object.assign(result, { success: false, external_id: externalId });
  if (r.action === null) delete (result as Partial<DocumentResult>).action;
  return result;
}
