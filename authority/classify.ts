import { formatIssue, issue } from '../documents/errors';
import { acceptsDocument, codeKind, codesDoing, type CodeKind } from '../documents/sunat-codes';
import type { Cdr } from './cdr';
import type { AuthorityResult } from './types';

/** SUNAT return codes as SUNAT writes them: "0" for acceptance, four digits otherwise ("0111", "2335"). */
export function normaliseCode(code: string): string {
  if (!/^\d+$/.test(code)) return code;
  const n = Number(code);
  return n === 0 ? '0' : String(n).padStart(4, '0');
}

/** SUNAT's ranges, as the catalog (documents/sunat-codes.ts) reads them. */
export type CodeCategory = CodeKind;
export const codeCategory = codeKind;

/**
 * Answers meaning "this number (or file) is already known to SUNAT": the document may well be accepted, so the
 * caller must query its real state rather than treat it as a rejection.
 */
export const ALREADY_REPORTED_CODES: ReadonlySet<string> = new Set(codesDoing('query'));

/**
 * SUNAT exceptions saying it could not take the request at all ("El sistema no puede responder su solicitud…"):
 * nothing was registered, so they are handled like an unreachable service and retried.
 */
export const SERVICE_UNAVAILABLE_CODES: ReadonlySet<string> = new Set(codesDoing('retry'));

export function sunatError(code: string | null, text: string): string {
  return formatIssue(issue('SUNAT', code, text));
}

export function chasquiError(code: string, text: string): string {
  return formatIssue(issue('chasqui', code, text));
}

function base(): AuthorityResult {
  return {
    origin: null,
    reached_sunat: true,
    action: null,
    status: 'unknown',
    code: null,
    message: '',
    errors: [],
    observations: [],
    alreadyReported: false,
    needsStatusQuery: false,
    ticket: null,
    cdrZip: null,
    cdr: null,
    httpStatus: null,
  };
}

/** Not reachable (refused, reset, DNS, TLS handshake, connect timeout): certainly not received, retry. */
export function connectionFailure(code: string, message: string, httpStatus: number | null = null): AuthorityResult {
  return {
    ...base(),
    origin: 'connection',
    reached_sunat: false,
    action: 'retry',
    code,
    message,
    errors: [chasquiError(code, message)],
    httpStatus,
  };
}

/** Sent, no answer in time: it may have been received, so never resend blindly. */
export function timeoutFailure(code: string, message: string, httpStatus: number | null = null): AuthorityResult {
  return {
    ...base(),
    origin: 'timeout',
    reached_sunat: null,
    action: 'review',
    code,
    message,
    errors: [chasquiError(code, message)],
    needsStatusQuery: true,
    httpStatus,
  };
}

/** The authority answered but the answer could not be processed (empty body, HTML page, unreadable or unsigned CDR). */
export function systemFailure(
  code: string,
  message: string,
  httpStatus: number | null,
  cdrZip: string | null = null,
): AuthorityResult {
  return {
    ...base(),
    origin: 'system',
    action: 'review',
    code,
    message,
    errors: [chasquiError(code, message)],
    needsStatusQuery: true,
    cdrZip,
    httpStatus,
  };
}

/**
 * A coded answer without a CDR: SOAP faults (exceptions, and the rejections SUNAT beta sends as faults),
 * GRE error bodies, ticket status 99 without CDR.
 */
export function codedAnswer(rawCode: string, message: string, httpStatus: number | null): AuthorityResult {
  const code = normaliseCode(rawCode);
  if (SERVICE_UNAVAILABLE_CODES.has(code)) {
    return { ...connectionFailure(code, message, httpStatus), errors: [sunatError(code, message)] };
  }
  return verdict(code, message, [sunatError(code, message)], [], httpStatus);
}

function verdict(
  code: string,
  message: string,
  errors: string[],
  observations: string[],
  httpStatus: number | null,
): AuthorityResult {
  const category = codeCategory(code);
  if (acceptsDocument(category)) {
    const status = category === 'observation' || observations.length > 0 ? 'observed' : 'accepted';
    return { ...base(), origin: null, status, code, message, observations, httpStatus };
  }
  if (ALREADY_REPORTED_CODES.has(code)) {
    return {
      ...base(),
      origin: 'tax_authority',
      action: 'review',
      status: 'unknown',
      code,
      message,
      errors,
      observations,
      alreadyReported: true,
      needsStatusQuery: true,
      httpStatus,
    };
  }
  return { ...rejection(code, message, httpStatus), errors, observations };
}

/** The authority pronounced a rejection: fix the payload and issue again (new number). */
export function rejection(code: string, message: string, httpStatus: number | null): AuthorityResult {
  return {
    ...base(),
    origin: 'tax_authority',
    action: 'correct',
    status: 'rejected',
    code,
    message,
    errors: [sunatError(code, message)],
    httpStatus,
  };
}

/**
 * The authority already holds this number (1033/1032/2223) with a document that is not ours: a rejection of ours,
 * never an acceptance with the other document's CDR (docs/delivery.md, "A number the authority already has").
 */
export function numberTaken(code: string, httpStatus: number | null): AuthorityResult {
  const message = `The authority already holds this series-number with another document (answer ${code}); this document was not registered: issue it again with the next correlativo`;
  return rejection(code, message, httpStatus);
}

/** The authority has no record of the document (CDR query "not found"): it was never received, so sending is safe. */
export function notRegistered(code: string, message: string, httpStatus: number | null): AuthorityResult {
  return {
    ...base(),
    origin: 'tax_authority',
    reached_sunat: false,
    action: 'retry',
    code,
    message,
    errors: [sunatError(code, message)],
    httpStatus,
  };
}

/** A status query the authority answered without a verdict (bad parameters, constancia unavailable): ask again later. */
export function noVerdict(code: string | null, message: string, httpStatus: number | null): AuthorityResult {
  return {
    ...base(),
    origin: 'tax_authority',
    action: 'review',
    code,
    message,
    errors: [sunatError(code, message)],
    needsStatusQuery: true,
    httpStatus,
  };
}

/** Verdict carried by a CDR (0 accepted, 4000+ or notes observed, 2000–3999 rejected). */
export function fromCdr(cdr: Cdr, cdrZip: string, httpStatus: number | null): AuthorityResult {
  const code = normaliseCode(cdr.responseCode ?? '');
  const message = cdr.description ?? `ResponseCode ${code}`;
  const observations = cdr.notes.map((n) => sunatError(n.code, n.text));
  const category = codeCategory(code);
  const errors = category === 'rejection' || category === 'exception' ? [sunatError(code, message)] : [];
  return { ...verdict(code, message, errors, observations, httpStatus), cdr, cdrZip };
}

/** An asynchronous send was received: the ticket is the receipt (summaries, GRE). */
export function ticketIssued(ticket: string, httpStatus: number): AuthorityResult {
  return { ...base(), status: 'ticket', code: null, message: `Ticket ${ticket}`, ticket, httpStatus };
}

/** Ticket still being processed (98): poll again later. */
export function ticketPending(ticket: string, httpStatus: number): AuthorityResult {
  return {
    ...base(),
    status: 'pending',
    code: '98',
    message: `Ticket ${ticket} is still being processed`,
    ticket,
    httpStatus,
  };
}
