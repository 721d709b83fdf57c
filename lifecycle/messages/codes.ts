/**
 * Every code of the lifecycle's messages and the facts its texts quote (`params`: names, statuses, counts, never
 * sentences), declared once; each language is a table of texts over these (en.ts, es.ts) the rules name by code.
 */

/** A lifecycle text as data. */
export interface Message {
  readonly code: MessageCode;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The document a text names. */
export type Doc = { filename: string };
/**
 * Where the document went (documents.destination, unsaid: SUNAT): SUNAT itself, an OSE (the company's own or the
 * provider's), or `any` for a group holding both.
 */
export type At = { destination?: string };
export type Status = { status: string };
/** The credentials a check asked SUNAT with: a SOL user, or a GRE client with one. */
export type Credentials = { user: string; client?: string; ruc: string };
export type Procedure = { procedure: string; provider: string };
type None = Record<string, never>;

export interface MessageParams {
  // What an action did (support/actions.ts, lifecycle/email.ts).
  'action.would': { action: string };
  'send.done': Doc;
  'resend.done.api': Doc;
  'resend.done': None;
  'recheck.done': None;
  'redeliver.done': { delivery: string };
  'email.would': Doc & { to: string[] };
  'email.done': Doc & { to: string[] };
  'send.not_handed_over': None;
  // Why an action does not apply (lifecycle/transitions.ts, support/actions.ts, lifecycle/email.ts).
  'send.not_manual': Doc & Status;
  'send.now': Doc & Status;
  'resend.resolved': Doc & Status;
  'resend.not_sent': Doc & { id: string };
  'resend.by_summary': Doc;
  'resend.ticket': Doc & At & { ticket: string | null };
  'resend.sending': Doc;
  'resend.may_have_arrived': At & { origin: string };
  // Support's recheck and resend of a timeout no state query reaches: the one learns nothing, the other is unsafe.
  'action.no_query': At;
  'recheck.resolved': Status;
  'recheck.not_sent': { waiting: Message };
  'recheck.not_reached': At;
  'recheck.sending': None;
  'redeliver.no_webhook': None;
  'redeliver.pending': { delivery: string; next: string | null };
  'redeliver.none': None;
  'redeliver.no_verdict': Status;
  'email.not_found': { id: string };
  'email.no_address': Doc;
  'email.too_many': { max: number; got: number };
  'email.bad_address': { address: string };
  'email.not_accepted': Doc & Status;
  'email.rate_limited': Doc & { limit: number; seconds: number };
  'email.pending': Doc;
  // Why an unresolved document has no verdict yet (lifecycle/transitions.ts waitingReason).
  'waiting.timeout': At;
  // No state query reaches it (an OSE, a type other than 01/07/08, SUNAT's beta): nothing resolves it by itself.
  // `origin`: a timeout or an unreadable answer; unsaid for a group holding both.
  'waiting.unqueried': At & { origin?: string };
  'waiting.ticket': At;
  'waiting.connection': At;
  'waiting.not_received': At;
  'waiting.unreadable': At;
  'waiting.not_started': None;
  'waiting.sending': None;
  'waiting.manual': None;
  'waiting.summary': None;
  // A document's timeline (support/timeline.ts): events, then their details.
  'event.issued': None;
  'event.send': None;
  'event.ticket': None;
  'event.query': None;
  'event.verdict': None;
  'event.delivery': None;
  'event.redelivery': None;
  'event.delivery_attempt': { number: number };
  'detail.delivery_pruned': { days: number };
  'event.email': None;
  'event.support': { action: string };
  'detail.issued': { hash: string };
  'detail.attempt': At & { origin: string; code: string | null; status: string; message: string | null; own: boolean };
  'detail.result': { origin: string | null; code: string | null; message: string };
  'detail.verdict': Status & { code: string | null };
  'detail.delivery': Status & { delivery: string; attempts: number };
  'detail.delivery_done': { http: number | null; ms: number | null };
  'detail.delivery_failed': { error: string | null; http: number | null };
  'detail.email': Status & { to: string[]; attempts: number; error: string | null };
  'detail.support': { operator: string; result: string; detail: string | null; message: Message | null };
  // A company check's outcome (activities/checks/): English for the API and `chasqui support checks`, Spanish for the
  // console's companies page. `origin` is the certificate's (own, assigned, service).
  'check.certificate.not_yet': { origin: string; not_before: string };
  'check.certificate.expired': { origin: string; not_after: string };
  'check.certificate.expiring': { origin: string; days: number; not_after: string };
  'check.certificate.valid': { origin: string; days: number; not_after: string };
  'check.certificate.external': None;
  'check.certificate.unavailable': { reason: string };
  'check.credentials.unreachable': { code: string | null; message: string };
  'check.credentials.refused': Credentials & { code: string | null; message: string };
  'check.credentials.accepted': Credentials;
  'check.credentials.no_sol': { ruc: string; own: boolean };
  'check.credentials.gre_needs_sol': { ruc: string };
  'check.credentials.not_asked': None;
  'check.series_gaps.none': { since: string };
  'check.series_gaps.missing': { since: string; missing: number; series: number; numbers: string[] };
  'check.sending_window.closed': { count: number; days: number; numbers: string };
  'check.sending_window.closing': { count: number; numbers: string };
  'check.sending_window.open': None;
  'check.rules.pass': { days: number; rules: number; horizon: number };
  'check.rules.would_fail': {
    failing: { would_fail: number; checked: number; rule: string; effective: string; codes: string[] }[];
  };
  'check.procedure.done': Procedure;
  'check.procedure.failed': Procedure & { error: string | null; ruc: string };
  'check.procedure.pending': Procedure & { state: string; ruc: string; sol: boolean };
  'check.email.chasqui': None;
  'check.email.unusable': { reason: string; ruc: string };
  'check.email.refused': { reason: string; ruc: string; host: string };
  'check.email.public': { host: string; port: number };
}

export type MessageCode = keyof MessageParams;

/** One language's texts, one for every code; `say` renders a message quoted inside another, in the same language. */
export type Texts = {
  readonly [C in MessageCode]: (p: MessageParams[C], say: (m: Message) => string) => string;
};

export const list = (to: readonly string[]) => to.join(', ');
