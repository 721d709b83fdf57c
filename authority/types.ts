import type { Cdr } from './cdr';

/** Spec 7.4: where an outcome came from. `validation` belongs to the documents library, never to a connector. */
export type Origin = 'connection' | 'timeout' | 'tax_authority' | 'system';

/** Spec 7.4: what the caller should do next. */
export type Action = 'retry' | 'review' | 'correct';

/**
 * What the call established about the document:
 * - accepted / observed / rejected: the authority pronounced (observed = accepted with observations);
 * - ticket: an asynchronous send was received and a ticket issued (summaries, GRE);
 * - pending: the ticket is still being processed (98);
 * - unknown: no verdict (connection, timeout, unreadable answer, or an "already reported" answer to be queried).
 */
export type AuthorityStatus = 'accepted' | 'observed' | 'rejected' | 'pending' | 'ticket' | 'unknown';

/** One result type for every connector call (SOAP and GRE alike). */
export interface AuthorityResult {
  origin: Origin | null;
  /** false: certainly not received; null: unknown (timeout); true: the authority answered. */
  reached_sunat: boolean | null;
  /** Null when the authority accepted or observed the document, or a ticket/pending state needs no decision. */
  action: Action | null;
  status: AuthorityStatus;
  /** SUNAT return code ("0", "2335", "0111"), ticket status ("98"), or a chasqui transport code ("ECONNREFUSED"). */
  code: string | null;
  message: string;
  /** Each as `[<source> <code>] <text>`. */
  errors: string[];
  /** CDR notes, each as `[SUNAT <code>] <text>`. */
  observations: string[];
  /** The authority says the document (or file) was already reported: query its real state instead of resending. */
  alreadyReported: boolean;
  /** Resolve the real state with a status query before acting (timeouts, unreadable answers, already reported). */
  needsStatusQuery: boolean;
  ticket: string | null;
  /** The CDR zip exactly as received, base64. */
  cdrZip: string | null;
  cdr: Cdr | null;
  /** HTTP status of the answer, when there was one. */
  httpStatus: number | null;
}

/** WS-Security / GRE user: the company RUC, its SOL user (secondary user for web services) and password. */
export interface SolCredentials {
  ruc: string;
  solUser: string;
  solPassword: string;
}

/** GRE REST credentials: the SOL user plus the API client generated in Menú SOL. */
export interface GreCredentials extends SolCredentials {
  clientId: string;
  clientSecret: string;
}

/** Separate connect and response budgets (milliseconds); Temporal owns retries, so none happen here. */
export interface Timeouts {
  connectMs: number;
  responseMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, responseMs: 60_000 };

export interface CallOptions {
  timeouts?: Partial<Timeouts>;
  /** The addresses a target check approved for the URL's host (a company's own OSE): connect to none other. */
  addresses?: string[];
}
