/**
 * What a document may become: its statuses and their codes, and every status change as pure code. The repositories
 * (db/) execute these decisions in SQL and the workflow follows them; nothing else decides a status. Pure: imports
 * only the pure lifecycle/messages/ (the words of its refusals), so db/, workflows/, activities/ and the API may all
 * read it (docs/architecture.md, "A document's lifecycle").
 */
import { message, type Message } from './messages';

/**
 * Spec 3.1 statuses, in the order the API documents them. chasqui's meaning of the two unresolved ones:
 * - `registered`: the authority acknowledged receipt and gave a ticket (rc, ra, rr, GRE); the verdict is polled.
 * - `sent`: the document left chasqui and no verdict came back (timeout: Pending; or an answer chasqui could not
 *   read): its real state is queried (SUNAT) or waits for an explicit action (OSE).
 */
export const DOCUMENT_STATUSES = [
  'queued',
  'to_send',
  'to_summarize',
  'registered',
  'sent',
  'accepted',
  'observed',
  'rejected',
] as const;
export type DocStatus = (typeof DOCUMENT_STATUSES)[number];

/** Spec 2.5 `status_code`: `09` is the spec's rejected; the rest are chasqui's (docs/issuing.md). */
export const STATUS_CODES: Record<DocStatus, string> = {
  queued: '01',
  to_send: '02',
  to_summarize: '03',
  registered: '04',
  sent: '05',
  accepted: '06',
  observed: '07',
  rejected: '09',
};

/** The authority pronounced; a document in one of these never changes again. */
export const RESOLVED_STATUSES: readonly DocStatus[] = ['accepted', 'observed', 'rejected'];

export function isResolvedStatus(status: DocStatus): boolean {
  return RESOLVED_STATUSES.includes(status);
}

/** The statuses without a verdict yet, in the API's order (the unresolved gauge reports each, even at 0). */
export const UNRESOLVED_STATUSES: readonly DocStatus[] = DOCUMENT_STATUSES.filter((s) => !isResolvedStatus(s));

/** SUNAT accepted the document, with or without observations: a valid tax document (it can be voided, noted, printed). */
export const VALID_VERDICT_STATUSES: readonly DocStatus[] = ['accepted', 'observed'];

export function isValidVerdict(status: string): boolean {
  return (VALID_VERDICT_STATUSES as readonly string[]).includes(status);
}

/** What the issuing company's settings say about a new document (columns of `companies`). */
export interface IssuingModes {
  sending_mode: string;
  receipts_mode: string;
}

/**
 * Spec 3.1 issue-time states: receipts (and their B-series notes) of a summary-mode company wait for the daily
 * summary; a manual-mode company's documents wait for `POST /send`; everything else is queued for sending at once.
 */
export function initialStatus(company: IssuingModes, docType: string, series: string): DocStatus {
  const receipt = docType === '03' || ((docType === '07' || docType === '08') && series.startsWith('B'));
  if (receipt && company.receipts_mode === 'summary') return 'to_summarize';
  return company.sending_mode === 'manual' ? 'to_send' : 'queued';
}

/** What chasqui generates and signs itself (daily summaries, voids) is sent at once. */
export const GENERATED_STATUS = 'queued' satisfies DocStatus;

/** Whether a new document has a workflow of its own (summary receipts are sent by the daily summary's). */
export function hasOwnWorkflow(status: DocStatus): boolean {
  return status !== 'to_summarize';
}

/**
 * `POST /v1/cpe/{id}/send` releases a manual-mode document (to_send → queued); when the send signal cannot be handed to
 * Temporal the release is undone (queued → to_send), but only while nothing was sent.
 */
export const RELEASE = { from: 'to_send', to: 'queued' } as const satisfies { from: DocStatus; to: DocStatus };
export const HOLD = { from: 'queued', to: 'to_send' } as const satisfies { from: DocStatus; to: DocStatus };

/** One step of the document workflow: a send, a ticket poll, a state query. */
export type Step = 'send' | 'ticket' | 'query';

/**
 * What a step established, in the workflow's terms:
 * - resolved: accepted, observed or rejected;
 * - retry: not received (connection failure): send again after a wait;
 * - ticket: received, verdict pending under a ticket;
 * - unknown: no verdict (timeout, unreadable answer, already reported, not found yet): query or wait for action.
 */
export type StepKind = 'resolved' | 'retry' | 'ticket' | 'unknown';

/** An authority answer as the lifecycle reads it (authority/types.ts AuthorityResult has these two fields). */
export interface Answer {
  status: 'accepted' | 'observed' | 'rejected' | 'pending' | 'ticket' | 'unknown';
  /** false: certainly not received; null: unknown (timeout); true: the authority answered. */
  reached_sunat: boolean | null;
}

/** How an answer reads: a verdict, a ticket (or 98, still processing), certainly not received, or no verdict. */
type AnswerClass = 'verdict' | 'ticket' | 'not_received' | 'no_verdict';

interface Next {
  kind: StepKind;
  /** `verdict`: the answer's own status (accepted, observed, rejected). */
  status: DocStatus | 'verdict';
  /** A document already `sent` stays `sent`: an earlier send may have arrived even if this one did not. */
  keepsSent?: true;
}

/** Spec 3.1: the status after each step, by what the authority answered. */
export const STEP_TRANSITIONS: Record<AnswerClass, Record<Step, Next>> = {
  verdict: {
    send: { kind: 'resolved', status: 'verdict' },
    ticket: { kind: 'resolved', status: 'verdict' },
    query: { kind: 'resolved', status: 'verdict' },
  },
  ticket: {
    send: { kind: 'ticket', status: 'registered' },
    ticket: { kind: 'ticket', status: 'registered' },
    query: { kind: 'ticket', status: 'registered' },
  },
  not_received: {
    send: { kind: 'retry', status: 'queued', keepsSent: true },
    // A ticket's status query that fails keeps the ticket: it is polled again.
    ticket: { kind: 'ticket', status: 'registered' },
    query: { kind: 'retry', status: 'queued' },
  },
  no_verdict: {
    send: { kind: 'unknown', status: 'sent' },
    ticket: { kind: 'ticket', status: 'registered' },
    query: { kind: 'unknown', status: 'sent' },
  },
};

function classOf(answer: Answer): AnswerClass {
  if (answer.status === 'accepted' || answer.status === 'observed' || answer.status === 'rejected') return 'verdict';
  if (answer.status === 'ticket' || answer.status === 'pending') return 'ticket';
  return answer.reached_sunat === false ? 'not_received' : 'no_verdict';
}

/** What an authority answer to `step` makes of a document now in `current` (spec 3.1; STEP_TRANSITIONS). */
export function afterStep(answer: Answer, step: Step, current: DocStatus): { kind: StepKind; status: DocStatus } {
  const next = STEP_TRANSITIONS[classOf(answer)][step];
  const status =
    next.status === 'verdict'
      ? (answer.status as DocStatus)
      : next.keepsSent && current === 'sent'
        ? 'sent'
        : next.status;
  return { kind: next.kind, status };
}

/**
 * A ticket poll of a document that holds no ticket (no answer ever gave it one): nothing to poll, so it is sent again.
 * Nothing is recorded: the row keeps what its last step stored.
 */
export const NO_TICKET_TO_POLL = { kind: 'retry', status: 'queued' } as const satisfies {
  kind: StepKind;
  status: DocStatus;
};

/**
 * What an unresolved status an earlier run of a step recorded means to the workflow (the step is not repeated): a
 * ticket to poll, no verdict to query, or a send to retry.
 */
export function recordedKind(status: DocStatus): Exclude<StepKind, 'resolved'> {
  return status === 'registered' ? 'ticket' : status === 'sent' ? 'unknown' : 'retry';
}

/** Queued: the document waits for (or is in) its send. */
export function isQueued(status: DocStatus): boolean {
  return status === 'queued';
}

/** Sent with no verdict: it left chasqui and may have reached the authority. */
export function isSentWithoutVerdict(status: DocStatus): boolean {
  return status === 'sent';
}

/** A manual-mode document waits for `POST /send` (RELEASE) before anything is sent. */
export function awaitsRelease(status: DocStatus): boolean {
  return status === RELEASE.from;
}

/**
 * The step a document's workflow starts with, by the state its plan found: a document under a ticket polls it, one
 * sent without verdict is queried, anything else is sent.
 */
export function firstStep(status: DocStatus, ticket: string | null): Step {
  if (ticket && status === 'registered') return 'ticket';
  return isSentWithoutVerdict(status) ? 'query' : 'send';
}

/**
 * The step after the wait that follows an unresolved one (`kind`): a retry sends, a ticket is polled again; no verdict
 * is queried, or sent again when a resend was asked for meanwhile. Where nothing can be queried (an OSE) a ticket the
 * document holds is polled instead.
 */
export function stepAfterWait(
  kind: Exclude<StepKind, 'resolved'>,
  wait: { resendRequested: boolean; queryable: boolean; ticket: string | null },
): Step {
  if (kind === 'retry') return 'send';
  if (kind === 'ticket') return 'ticket';
  if (wait.resendRequested) return 'send';
  return !wait.queryable && wait.ticket ? 'ticket' : 'query';
}

/**
 * What recording a step did about the document's `cpe.resolved` notice (db/documents.ts `recordOutcome` decides it in
 * the statement that resolves the document):
 * - `not_resolved_here`: this call did not resolve the document (still unresolved, or resolved by an earlier call);
 * - `webhook_due`: this call resolved it and the company has a webhook: a delivery is due;
 * - `no_webhook`: this call resolved it and the company has none: the event is stored as already handled.
 */
export type ResolutionNotice = 'not_resolved_here' | 'webhook_due' | 'no_webhook';

/**
 * What the step that recorded an outcome leaves to do about a resolution:
 * - `email`: the buyer's e-mail is started, only by the call that resolved the document (a repeated step does not);
 * - `webhook`: `none`, nothing to deliver (no webhook); `open_here`, this step opens the delivery itself (`opensDelivery`:
 *   today's first send); `workflow`, the workflow opens it (idempotent, so a repeated step may ask again).
 */
export function resolutionFollowUp(
  notice: ResolutionNotice,
  emailDue: boolean,
  opensDelivery: boolean,
): { email: boolean; webhook: 'none' | 'open_here' | 'workflow' } {
  const resolvedHere = notice !== 'not_resolved_here';
  const webhook =
    notice === 'no_webhook' ? 'none' : notice === 'webhook_due' && opensDelivery ? 'open_here' : 'workflow';
  return { email: resolvedHere && emailDue, webhook };
}

/**
 * A receipt's status once the daily summary that listed it resolved: it takes the summary's verdict when accepted or
 * observed; a rejected summary leaves it `to_summarize` for the next day's summary (docs/summaries.md).
 */
export function afterSummary(summaryStatus: DocStatus): DocStatus {
  return summaryStatus === 'rejected' ? 'to_summarize' : summaryStatus;
}

/**
 * Where a void stands (docs/summaries.md), by the document carrying it (an ra, or the daily summary whose condition 3
 * line lists it; null while there is none): `pending` while it waits for a summary (a rejected summary's void waits
 * for the next one), `sent` while its carrier has no verdict, else the carrier's verdict. `carried`: the carrier
 * counts (a rejected summary's does not).
 */
export function voidStatus(
  via: 'rc' | 'ra',
  carrier: { status: DocStatus; resolved: boolean } | null,
): { status: DocStatus | 'pending'; carried: boolean } {
  if (!carrier || (via === 'rc' && isRejected(carrier.status))) return { status: 'pending', carried: false };
  return { status: carrier.resolved ? carrier.status : 'sent', carried: true };
}

/** The status a daily summary picks receipts up from (and a rejected summary leaves them in). */
export const AWAITING_SUMMARY: DocStatus = 'to_summarize';

/**
 * Why an unresolved document has no verdict yet, the groups `chasqui support stuck` and the console's stuck page show
 * (docs/operations.md); each is said by its `waiting.*` message (lifecycle/messages/).
 */
export const WAITING_REASONS = [
  'timeout',
  'unqueried',
  'ticket',
  'connection',
  'not_received',
  'unreadable',
  'not_started',
  'sending',
  'manual',
  'summary',
] as const;

export type WaitingReason = (typeof WAITING_REASONS)[number];

/** `destination`: where the document went (SUNAT or an OSE), which the Spanish texts name; `origin`: its last outcome's. */
export const waitingMessage = (reason: WaitingReason, destination?: string, origin?: string | null): Message =>
  message(`waiting.${reason}`, { ...(destination ? { destination } : {}), ...(origin ? { origin } : {}) });

/** The part of a document row the lifecycle reads. */
export interface LifecycleState {
  status: DocStatus;
  resolved: boolean;
  ticket: string | null;
  result: { origin?: string | null; reached_sunat?: boolean | null } | null;
  workflow_started_at: Date | null;
  /** Whether the workflow queries its real state (the step's recorded decision); null or unsaid: not known. */
  queryable?: boolean | null;
  /** Where it went (SUNAT or an OSE), which the Spanish refusals name. */
  destination?: string;
}

/**
 * `queryable` is what the step that recorded the outcome decided (the workflow's plan predicate): false, nothing
 * queries a timeout by itself; null, recorded before chasqui kept it (said as before, a query).
 */
export function waitingReason(
  doc: Pick<LifecycleState, 'status' | 'result' | 'workflow_started_at'> & { queryable?: boolean | null },
): WaitingReason {
  const origin = doc.result?.origin;
  if (doc.status === 'to_send') return 'manual';
  if (doc.status === 'to_summarize') return 'summary';
  if (doc.status === 'registered') return 'ticket';
  if (doc.queryable === false && (origin === 'timeout' || origin === 'system')) return 'unqueried';
  if (origin === 'timeout') return 'timeout';
  if (origin === 'system') return 'unreadable';
  if (origin === 'connection') return 'connection';
  if (doc.result?.reached_sunat === false) return 'not_received';
  if (!doc.workflow_started_at) return 'not_started';
  return 'sending';
}

/**
 * The authority refused it (a document's status, or a verdict the validator foresees): no tax document. Its number is
 * burnt, its PDF is marked, a rejected daily summary leaves its receipts for the next.
 */
export function isRejected(status: string): boolean {
  return status === 'rejected';
}

/** Held by chasqui, not sent yet: waiting for `POST /send` (manual mode) or for the daily summary. */
export function isHeld(status: DocStatus): boolean {
  return status === RELEASE.from || status === AWAITING_SUMMARY;
}

/** Queued: its workflow is sending it now, so its verdict may come within a request's wait. */
export function isBeingSent(status: DocStatus): boolean {
  return status === RELEASE.to;
}

/** Accepted with observations (a summary's receipts say so in their result). */
export function isObserved(status: DocStatus): boolean {
  return status === 'observed';
}
