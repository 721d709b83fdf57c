import got, { CancelError, RequestError, TimeoutError } from 'got';
import { pinnedLookup } from '../core/pinned-lookup';
import { connectionFailure, timeoutFailure } from './classify';
import { DEFAULT_TIMEOUTS, type AuthorityResult, type Timeouts } from './types';

export type HttpOutcome =
  | { kind: 'response'; status: number; body: string; contentType: string }
  | { kind: 'connection'; code: string; message: string }
  | { kind: 'timeout'; code: string; message: string };

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeouts?: Partial<Timeouts>;
  /** Connect only to these addresses (checked by core/net-guard.ts), whatever the host's name resolves to now. */
  addresses?: string[];
}

/**
 * No answer of SUNAT's or an OSE's comes near this (a CDR zip is a few kilobytes); a company's own OSE is an address the
 * account chose, so its answer is read no further (docs/security.md, "OSE URL").
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Timeout phases that end before the request is on the wire: the authority cannot have received anything. */
const PRE_SEND_PHASES = new Set(['lookup', 'connect', 'secureConnect', 'socket', 'send']);

/**
 * What every exchange with an authority shares, merged into got's options once: merging them on every request was
 * ≈ 0.09 ms of CPU per send (got normalises each call's options against its defaults).
 */
const authorityClient = got.extend({
  retry: { limit: 0 },
  throwHttpErrors: false,
  followRedirect: false,
  https: { rejectUnauthorized: true },
});

/**
 * One HTTP exchange as a value. got with no retries (Temporal owns them), TLS verification on (got's default),
 * and separate budgets: `connectMs` for DNS + TCP + TLS, `responseMs` for the answer (headers, then body).
 */
export async function httpRequest(req: HttpRequest): Promise<HttpOutcome> {
  const t = { ...DEFAULT_TIMEOUTS, ...req.timeouts };
  try {
    const request = authorityClient(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      ...(req.addresses ? { dnsLookup: pinnedLookup(req.addresses) } : {}),
      timeout: {
        lookup: t.connectMs,
        connect: t.connectMs,
        secureConnect: t.connectMs,
        response: t.responseMs,
        read: t.responseMs,
      },
    });
    request.on('downloadProgress', (progress) => {
      if (progress.transferred > MAX_ANSWER_BYTES) request.cancel();
    });
    const res = await request;
    return {
      kind: 'response',
      status: res.statusCode,
      body: res.body,
      contentType: String(res.headers['content-type'] ?? ''),
    };
  } catch (err) {
    return classifyRequestError(err);
  }
}

function classifyRequestError(err: unknown): HttpOutcome {
  // The request was sent and answered: whatever it did is unknown, as after a timeout.
  if (err instanceof CancelError)
    return {
      kind: 'timeout',
      code: 'ANSWER_TOO_LARGE',
      message: `the answer is larger than ${MAX_ANSWER_BYTES} bytes`,
    };
  if (err instanceof TimeoutError) {
    const phase = err.event;
    if (PRE_SEND_PHASES.has(phase))
      return { kind: 'connection', code: 'ETIMEDOUT', message: `no connection within the ${phase} timeout` };
    return { kind: 'timeout', code: 'ETIMEDOUT', message: `no answer within the ${phase} timeout` };
  }
  if (err instanceof RequestError) {
    return { kind: 'connection', code: err.code || 'ECONNECTION', message: err.message };
  }
  return { kind: 'connection', code: 'ECONNECTION', message: err instanceof Error ? err.message : String(err) };
}

/** No usable exchange: unreachable (certainly not received) or no answer in time (maybe received). */
export function transportFailure(outcome: Exclude<HttpOutcome, { kind: 'response' }>): AuthorityResult {
  return outcome.kind === 'connection'
    ? connectionFailure(outcome.code, outcome.message)
    : timeoutFailure(outcome.code, outcome.message);
}

/** A gateway answering for a service that is down (502/503: nothing reached it) or that gave up waiting (504). */
export function gatewayFailure(status: number): AuthorityResult | null {
  if (status === 502 || status === 503)
    return connectionFailure(`HTTP_${status}`, `HTTP ${status} from the service`, status);
  if (status === 504) return timeoutFailure(`HTTP_${status}`, 'HTTP 504: the gateway got no answer in time', status);
  return null;
}
