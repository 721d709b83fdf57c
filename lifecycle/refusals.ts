/**
 * Which support action applies to a document, and why not: `send`, `resend` (the API's and support's, stricter),
 * `recheck`. Each answers null when it applies, else the refusal as a message; support/actions.ts carries them out.
 */
import { message, type Message } from './messages';
import { RELEASE, waitingMessage, type LifecycleState } from './transitions';

/** A document as the actions' rules read it: its state, plus the names the refusals quote. */
export type ActionSubject = Omit<LifecycleState, 'workflow_started_at'> & { id: string; filename: string };

/** `POST /send`: only a document waiting in manual mode. Null when it applies. */
export function sendRefusal(doc: Pick<ActionSubject, 'filename' | 'status'>): Message | null {
  return doc.status === RELEASE.from
    ? null
    : message('send.not_manual', { filename: doc.filename, status: doc.status });
}

/** Why `resend` does not apply to a document, or null when it does (docs/issuing.md, POST /v1/cpe/{id}/resend). */
export function resendRefusal(doc: ActionSubject): Message | null {
  const { filename } = doc;
  if (doc.resolved) return message('resend.resolved', { filename, status: doc.status });
  if (doc.status === 'to_send') return message('resend.not_sent', { filename, id: doc.id });
  if (doc.status === 'to_summarize') return message('resend.by_summary', { filename });
  if (doc.status === 'registered')
    return message('resend.ticket', { filename, ticket: doc.ticket, ...destinationOf(doc) });
  if (doc.status === 'queued' && !doc.result) return message('resend.sending', { filename });
  return null;
}

/**
 * Support staff's resend is stricter than the API's (spec 3.1): only what certainly never reached the authority is sent
 * again; a timed-out document may have arrived and is rechecked instead.
 */
export function supportResendRefusal(doc: ActionSubject): Message | null {
  const refusal = resendRefusal(doc);
  if (refusal) return refusal;
  if (doc.result?.reached_sunat !== false)
    return (
      unqueried(doc) ??
      message('resend.may_have_arrived', { origin: doc.result?.origin ?? 'unknown', ...destinationOf(doc) })
    );
  return null;
}

/** Sent, no verdict, and nothing queries it (no state query reaches it, no ticket to poll): a recheck learns nothing. */
function unqueried(doc: ActionSubject): Message | null {
  if (doc.status !== 'sent' || doc.queryable !== false || doc.ticket) return null;
  return message('action.no_query', destinationOf(doc));
}

/** The destination a Spanish refusal names (SUNAT or the OSE), when the caller knows it. */
const destinationOf = (doc: ActionSubject) => (doc.destination ? { destination: doc.destination } : {});

/** Why `recheck` (ask the authority for the real state: query a timeout, poll a ticket) does not apply, or null. */
export function recheckRefusal(doc: ActionSubject): Message | null {
  if (doc.resolved) return message('recheck.resolved', { status: doc.status });
  if (doc.status === 'to_send') return message('recheck.not_sent', { waiting: waitingMessage('manual') });
  if (doc.status === 'to_summarize') return message('recheck.not_sent', { waiting: waitingMessage('summary') });
  if (doc.status === 'queued')
    return doc.result ? message('recheck.not_reached', destinationOf(doc)) : message('recheck.sending');
  return unqueried(doc);
}
