import got, { RequestError, TimeoutError } from 'got';

/**
 * The authority's portal (SOL menu) as far as chasqui's procedures need it: log in with the company's principal SOL
 * user, authorise the PSE (menu 11.9.6.1.1) and link the OSE (menu 11.14.1.1.1). SUNAT has no public API for these,
 * so this is an interface; the HTTP implementation speaks the simulator's portal contract (`/portal/v1/...`).
 * Outcomes are values: nothing here throws for a portal answer or a network failure.
 */
export type PortalFailure = 'invalid_credentials' | 'connection' | 'timeout' | 'refused' | 'unexpected';

export type PortalOutcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      failure: PortalFailure;
      message: string;
      /** Worth trying again later without any change. */ retryable: boolean;
    };

export interface PortalSession {
  token: string;
}

export interface PortalProcedureResult {
  id: string;
  date: string;
  /** The portal answered that this was already in place. */
  alreadyDone: boolean;
}

export interface TaxPortal {
  login(credentials: { ruc: string; user: string; password: string }): Promise<PortalOutcome<PortalSession>>;
  authorizePse(session: PortalSession, pseRuc: string): Promise<PortalOutcome<PortalProcedureResult>>;
  linkOse(session: PortalSession, oseRuc: string): Promise<PortalOutcome<PortalProcedureResult>>;
}

interface HttpAnswer {
  status: number;
  body: Record<string, unknown> | null;
}

function failure(kind: PortalFailure, message: string): PortalOutcome<never> {
  return { ok: false, failure: kind, message, retryable: kind !== 'invalid_credentials' };
}

function portalMessage(answer: HttpAnswer): string {
  const { cod, msg } = answer.body ?? {};
  return msg ? `${cod ? `[${String(cod)}] ` : ''}${String(msg)}` : `HTTP ${answer.status}`;
}

export function createHttpPortal(
  baseUrl: string,
  timeouts: { connectMs: number; responseMs: number } = { connectMs: 5_000, responseMs: 20_000 },
): TaxPortal {
  const base = baseUrl.replace(/\/+$/, '');

  async function call(
    method: 'GET' | 'POST',
    path: string,
    json: unknown,
    token?: string,
  ): Promise<HttpAnswer | PortalOutcome<never>> {
    try {
      const res = await got(`${base}${path}`, {
        method,
        json,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { connect: timeouts.connectMs, response: timeouts.responseMs },
      });
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(res.body) as Record<string, unknown>;
      } catch {
        body = null;
      }
      return { status: res.statusCode, body };
    } catch (err) {
      if (err instanceof TimeoutError) return failure('timeout', `the portal did not answer ${path} in time`);
      if (err instanceof RequestError)
        return failure('connection', `the portal could not be reached (${err.code ?? err.message})`);
      throw err;
    }
  }

  async function procedure(
    session: PortalSession,
    path: string,
    json: unknown,
  ): Promise<PortalOutcome<PortalProcedureResult>> {
    const answer = await call('POST', path, json, session.token);
    if ('ok' in answer) return answer;
    if ((answer.status === 200 || answer.status === 201) && answer.body?.id !== undefined) {
      return {
        ok: true,
        value: {
          id: String(answer.body.id),
          date: String(answer.body.fecha ?? ''),
          alreadyDone: answer.status === 200,
        },
      };
    }
    if (answer.status === 401) return failure('refused', `the portal session was refused: ${portalMessage(answer)}`);
    if (answer.status >= 500) return failure('unexpected', `the portal failed: ${portalMessage(answer)}`);
    return failure('refused', `the portal refused the procedure: ${portalMessage(answer)}`);
  }

  return {
    async login({ ruc, user, password }) {
      const answer = await call('POST', '/portal/v1/login', { ruc, usuario: user, clave: password });
      if ('ok' in answer) return answer;
      if (answer.status === 200 && typeof answer.body?.token === 'string')
        return { ok: true, value: { token: answer.body.token } };
      if (answer.status === 401 || answer.status === 403) {
        return failure('invalid_credentials', `the portal rejected the SOL user or password: ${portalMessage(answer)}`);
      }
      return failure('unexpected', `the portal login failed: ${portalMessage(answer)}`);
    },
    authorizePse: (session, pseRuc) => procedure(session, '/portal/v1/pse/autorizaciones', { ruc_pse: pseRuc }),
    linkOse: (session, oseRuc) => procedure(session, '/portal/v1/ose/vinculaciones', { ruc_ose: oseRuc }),
  };
}
