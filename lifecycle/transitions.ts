/**
 * What a document may become: its statuses and their codes, and every status change as pure code. The repositories
 * (db/) execute these decisions in SQL and the workflow follows them; nothing else decides a status. Pure: imports
 * nothing, so db/, workflows/, activities/ and the API may all read it (docs/architecture.md, "A document's lifecycle").
 */

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
 * What an unresolved status an earlier run of a step recorded means to the workflow (the step is not repeated): a
 * ticket to poll, no verdict to query, or a send to retry.
 */
export function recordedKind(status: DocStatus): Exclude<StepKind, 'resolved'> {
  return status === 'registered' ? 'ticket' : status === 'sent' ? 'unknown' : 'retry';
}

/**
 * A receipt's status once the daily summary that listed it resolved: it takes the summary's verdict when accepted or
 * observed; a rejected summary leaves it `to_summarize` for the next day's summary (docs/summaries.md).
 */
export function afterSummary(summaryStatus: DocStatus): DocStatus {
  return summaryStatus === 'rejected' ? 'to_summarize' : summaryStatus;
}

/** The status a daily summary picks receipts up from (and a rejected summary leaves them in). */
export const AWAITING_SUMMARY: DocStatus = 'to_summarize';

/** Why an unresolved document has no verdict yet, in the words `chasqui support stuck` groups by (docs/operations.md). */
export const WAITING_REASONS = {
  timeout: 'timed out at the authority: waiting for reconciliation (state query every 10 min) — `recheck` queries now',
  ticket: 'received with a ticket, verdict pending (code 98): polled with growing waits — `recheck` polls now',
  connection: 'connection failures: the authority was not reached; retried with growing waits — `resend` retries now',
  not_received:
    'the authority has no record of it (never received): sent again after a short wait — `resend` sends now',
  unreadable: 'the authority answered but the answer could not be processed: `recheck` queries the real state',
  not_started: 'committed but its workflow never started: the sweeper starts it within a minute',
  sending: 'being sent now (no attempt finished yet)',
  manual: 'waiting for POST /v1/cpe/{id}/send (company in manual sending mode)',
  summary: 'waiting for the daily summary (receipt in summary mode)',
} as const;

export type WaitingReason = keyof typeof WAITING_REASONS;

/** The part of a document row the lifecycle reads. */
export interface LifecycleState {
  status: DocStatus;
  resolved: boolean;
  ticket: string | null;
  result: { origin?: string | null; reached_sunat?: boolean | null } | null;
  workflow_started_at: Date | null;
}

export function waitingReason(doc: Pick<LifecycleState, 'status' | 'result' | 'workflow_started_at'>): WaitingReason {
  const origin = doc.result?.origin;
  if (doc.status === 'to_send') return 'manual';
  if (doc.status === 'to_summarize') return 'summary';
  if (doc.status === 'registered') return 'ticket';
  if (origin === 'timeout') return 'timeout';
  if (origin === 'system') return 'unreadable';
  if (origin === 'connection') return 'connection';
  if (doc.result?.reached_sunat === false) return 'not_received';
  if (!doc.workflow_started_at) return 'not_started';
  return 'sending';
}

/** A document as the actions' rules read it: its state, plus the names the refusals quote. */
export type ActionSubject = Omit<LifecycleState, 'workflow_started_at'> & { id: string; filename: string };

/** `POST /send`: only a document waiting in manual mode. Null when it applies. */
export function sendRefusal(doc: Pick<ActionSubject, 'filename' | 'status'>): string | null {
  return doc.status === RELEASE.from
    ? null
    : `Document ${doc.filename} is ${doc.status}; only a document waiting in manual mode (to_send) can be sent`;
}

/** Why `resend` does not apply to a document, or null when it does (docs/issuing.md, POST /v1/cpe/{id}/resend). */
export function resendRefusal(doc: ActionSubject): string | null {
  if (doc.resolved) return `Document ${doc.filename} is already ${doc.status}; a resolved document is not sent again`;
  if (doc.status === 'to_send')
    return `Document ${doc.filename} has not been sent yet: use POST /v1/cpe/${doc.id}/send`;
  if (doc.status === 'to_summarize')
    return `Document ${doc.filename} is reported by the daily summary, not sent on its own`;
  if (doc.status === 'registered')
    return `Document ${doc.filename} was received with ticket ${doc.ticket}; its verdict is being polled`;
  if (doc.status === 'queued' && !doc.result)
    return `Document ${doc.filename} is being sent now; there is nothing to resend yet`;
  return null;
}

/**
 * Support staff's resend is stricter than the API's (spec 3.1): only what certainly never reached the authority is sent
 * again; a timed-out document may have arrived and is rechecked instead.
 */
export function supportResendRefusal(doc: ActionSubject): string | null {
  const refusal = resendRefusal(doc);
  if (refusal) return refusal;
  if (doc.result?.reached_sunat !== false)
    return `it may have reached the authority (${doc.result?.origin ?? 'unknown'}): recheck it instead`;
  return null;
}

/** Why `recheck` (ask the authority for the real state: query a timeout, poll a ticket) does not apply, or null. */
export function recheckRefusal(doc: ActionSubject): string | null {
  if (doc.resolved) return `already ${doc.status}`;
  if (doc.status === 'to_send') return `not sent yet (${WAITING_REASONS.manual})`;
  if (doc.status === 'to_summarize') return `not sent yet (${WAITING_REASONS.summary})`;
  if (doc.status === 'queued')
    return doc.result
      ? 'never reached the authority (connection failure): nothing to query; use resend'
      : 'being sent now';
  return null;
}

/**
 * A webhook delivery of the `cpe.resolved` notice (spec 6):
 * - pending: attempts remain;
 * - delivered: a 2xx answer;
 * - failed: every attempt failed;
 * - cancelled: the webhook was disabled before the notice could be delivered.
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
