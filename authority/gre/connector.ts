import { createHash } from 'node:crypto';
import { cdrResult, baseName, type OutgoingFile } from '../bill-service';
import {
  codedAnswer,
  connectionFailure,
  noVerdict,
  rejection,
  sunatError,
  systemFailure,
  ticketIssued,
  ticketPending,
} from '../classify';
import { gatewayFailure, httpRequest, transportFailure, type HttpOutcome } from '../http';
import type { AuthorityResult, CallOptions, GreCredentials } from '../types';
import { zipXml } from '../zip';
import type { GreToken, GreTokenStore } from './token-store';

/** GRE REST bases: `auth` serves `/clientessol/{client_id}/oauth2/token/`, `api` serves `/contribuyente/gem/...`. */
export interface GreEndpoints {
  auth: string;
  api: string;
}

export interface GreConnectorOptions {
  /** Refresh this long before expiry (greenter's margin: 600 s). */
  refreshMarginMs?: number;
  now?: () => number;
}

export type TokenOutcome = { ok: true; token: GreToken } | { ok: false; result: AuthorityResult };

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/**
 * GRE (guía de remisión electrónica) REST connector: OAuth2 password grant, tokens cached in a shared store and
 * refreshed before expiry and on a 401, send with `hashZip`, status by ticket.
 */
export class GreConnector {
  private readonly inflight = new Map<string, Promise<TokenOutcome>>();
  private readonly marginMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: GreTokenStore,
    options: GreConnectorOptions = {},
  ) {
    this.marginMs = options.refreshMarginMs ?? 600_000;
    this.now = options.now ?? Date.now;
  }

  /** Sends a signed guide (09/31): a ticket on success. */
  async sendGre(
    endpoints: GreEndpoints,
    creds: GreCredentials,
    file: OutgoingFile,
    options: CallOptions = {},
  ): Promise<AuthorityResult> {
    const name = baseName(file.filename);
    const zip = zipXml(name, file.xml);
    const body = JSON.stringify({
      archivo: {
        nomArchivo: `${name}.zip`,
        arcGreZip: zip.toString('base64'),
        hashZip: createHash('sha256').update(zip).digest('hex'),
      },
    });
    const url = `${endpoints.api}/contribuyente/gem/comprobantes/${encodeURIComponent(name)}`;
    const sent = await this.authorised(endpoints, creds, options, (auth) =>
      httpRequest({
        method: 'POST',
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        body,
        timeouts: options.timeouts,
      }),
    );
    if (!sent.ok) return sent.result;
    const { status, body: text } = sent.response;
    const json = parseJson(text);
    if (status === 200) {
      const ticket = str(json?.numTicket);
      return ticket
        ? ticketIssued(ticket, status)
        : systemFailure('NO_TICKET', 'GRE send answered without numTicket', status);
    }
    return this.errorResult(status, json, text, 'send');
  }

  /** Status of a GRE ticket: 98 pending, 0 CDR, 99 error (with a CDR when one was generated). */
  async getGreStatus(
    endpoints: GreEndpoints,
    creds: GreCredentials,
    ticket: string,
    options: CallOptions = {},
  ): Promise<AuthorityResult> {
    const url = `${endpoints.api}/contribuyente/gem/comprobantes/envios/${encodeURIComponent(ticket)}`;
    const polled = await this.authorised(endpoints, creds, options, (auth) =>
      httpRequest({ method: 'GET', url, headers: auth, timeouts: options.timeouts }),
    );
    if (!polled.ok) return { ...polled.result, ticket };
    const { status, body: text } = polled.response;
    const json = parseJson(text);
    if (status !== 200) return { ...this.errorResult(status, json, text, 'status'), ticket };
    const code = str(json?.codRespuesta);
    const cdr = str(json?.arcCdr);
    if (code === '98') return ticketPending(ticket, status);
    if ((code === '0' || code === '99') && cdr) return { ...cdrResult(cdr, status), ticket };
    if (code === '99') {
      const error = (json?.error ?? {}) as Record<string, unknown>;
      const errCode = str(error.numError) ?? '99';
      return { ...codedAnswer(errCode, str(error.desError) ?? 'the guide was processed with errors', status), ticket };
    }
    return {
      ...systemFailure(
        'UNEXPECTED_STATUS',
        `GRE status answered codRespuesta ${code ?? '(none)'} without a CDR`,
        status,
      ),
      ticket,
    };
  }

  /**
   * Asks for a new token whatever the store holds: the answer says whether the client and the SOL user are accepted
   * (the company checks; no guide is sent, no quota used). A granted token is stored for the sends to use.
   */
  async requestToken(endpoints: GreEndpoints, creds: GreCredentials, options: CallOptions = {}): Promise<TokenOutcome> {
    return this.fetchToken(endpoints, creds, options);
  }

  /** Runs a call with a valid token; on a 401 the token is discarded, a fresh one fetched, and the call made once more. */
  private async authorised(
    endpoints: GreEndpoints,
    creds: GreCredentials,
    options: CallOptions,
    call: (headers: Record<string, string>) => Promise<HttpOutcome>,
  ): Promise<
    { ok: true; response: Extract<HttpOutcome, { kind: 'response' }> } | { ok: false; result: AuthorityResult }
  > {
    for (let attempt = 0; ; attempt++) {
      const token = await this.token(endpoints, creds, options);
      if (!token.ok) return token;
      const outcome = await call({ authorization: `Bearer ${token.token.accessToken}` });
      if (outcome.kind !== 'response') return { ok: false, result: transportFailure(outcome) };
      const gateway = gatewayFailure(outcome.status);
      if (gateway) return { ok: false, result: gateway };
      if (outcome.status !== 401) return { ok: true, response: outcome };
      await this.store.discard(creds.clientId, creds.ruc, token.token.accessToken);
      if (attempt === 1)
        return { ok: false, result: rejection('401', 'the GRE API refused a freshly issued token', 401) };
    }
  }

  private async token(endpoints: GreEndpoints, creds: GreCredentials, options: CallOptions): Promise<TokenOutcome> {
    const cached = await this.store.get(creds.clientId, creds.ruc);
    if (cached && cached.expiresAt - this.marginMs > this.now()) return { ok: true, token: cached };
    // One fetch per client and RUC at a time inside this process; other processes share through the store.
    const key = `${creds.clientId}\u0000${creds.ruc}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetchToken(endpoints, creds, options).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async fetchToken(
    endpoints: GreEndpoints,
    creds: GreCredentials,
    options: CallOptions,
  ): Promise<TokenOutcome> {
    const form = new URLSearchParams({
      grant_type: 'password',
      scope: 'https://api-cpe.sunat.gob.pe',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      username: `${creds.ruc}${creds.solUser}`,
      password: creds.solPassword,
    });
    const outcome = await httpRequest({
      method: 'POST',
      url: `${endpoints.auth}/clientessol/${encodeURIComponent(creds.clientId)}/oauth2/token/`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      timeouts: options.timeouts,
    });
    // Without a token the guide was never sent: every failure here is safe to retry, except refused credentials.
    if (outcome.kind !== 'response')
      return { ok: false, result: connectionFailure(outcome.code, `GRE token: ${outcome.message}`) };
    const json = parseJson(outcome.body);
    const accessToken = str(json?.access_token);
    const expiresIn = Number(json?.expires_in);
    if (outcome.status === 200 && accessToken && expiresIn > 0) {
      const token = { accessToken, expiresAt: this.now() + expiresIn * 1000 };
      await this.store.put(creds.clientId, creds.ruc, token);
      return { ok: true, token };
    }
    if (outcome.status === 400 || outcome.status === 401) {
      const code = str(json?.cod) ?? str(json?.error) ?? String(outcome.status);
      const message = str(json?.msg) ?? str(json?.error_description) ?? 'GRE credentials refused';
      return { ok: false, result: rejection(code, message, outcome.status) };
    }
    return {
      ok: false,
      result: connectionFailure(
        `TOKEN_HTTP_${outcome.status}`,
        `GRE token endpoint answered HTTP ${outcome.status}`,
        outcome.status,
      ),
    };
  }

  private errorResult(
    status: number,
    json: Record<string, unknown> | null,
    text: string,
    what: 'send' | 'status',
  ): AuthorityResult {
    const code = str(json?.cod);
    const message = str(json?.msg) ?? `HTTP ${status}`;
    if (status === 422 && code) {
      const details = Array.isArray(json?.errors) ? (json.errors as Record<string, unknown>[]) : [];
      const errors = details.length
        ? details.map((e) => sunatError(str(e.cod), str(e.msg) ?? ''))
        : [sunatError(code, message)];
      const result = what === 'send' ? codedAnswer(code, message, status) : noVerdict(code, message, status);
      return { ...result, errors };
    }
    const reason = json ? `${code ?? ''} ${message}`.trim() : text.trim() ? 'an unreadable body' : 'an empty body';
    return systemFailure(`HTTP_${status}`, `GRE ${what} answered HTTP ${status} with ${reason}`, status);
  }
}
