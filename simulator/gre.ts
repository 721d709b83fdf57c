/**
 * The GRE REST surface (PROTOCOL.md §4): the OAuth2 password grant of api-seguridad, the send of a guide and the
 * status of its ticket on api-cpe.
 */
import type http from 'node:http';
import { parseFileName, SunatBehaviour } from './behaviour';
import { messageFor } from './codes';
import type { Fault } from './rules';
import type { SimulatorStore } from './store';
import { GRE_SCOPE, type BearerTokens } from './tokens';
import { greInvalid, json, ticketSubject, type Reply, type Route } from './transport';

export class GreApi {
  constructor(
    private readonly store: SimulatorStore,
    private readonly sunat: SunatBehaviour,
    private readonly tokens: BearerTokens,
  ) {}

  /** The GRE operation at this path, or null when the path is not the GRE API's. */
  route(method: string, path: string, raw: Buffer, headers: http.IncomingHttpHeaders): Route | null {
    const body = raw.toString('utf8');
    const token = /^\/v1\/clientessol\/([^/]+)\/oauth2\/token\/?$/.exec(path);
    if (method === 'POST' && token) {
      const clientId = decodeURIComponent(token[1]);
      return {
        operation: 'greToken',
        subject: { operation: 'greToken' },
        name: null,
        ticket: null,
        handle: () => this.token(clientId, body),
      };
    }
    const status = /^\/v1\/contribuyente\/gem\/comprobantes\/envios\/([^/]+)$/.exec(path);
    if (method === 'GET' && status) {
      const ticket = decodeURIComponent(status[1]);
      const record = this.store.tickets.get(ticket);
      return {
        operation: 'greStatus',
        subject: { operation: 'greStatus', ...ticketSubject(record) },
        name: record?.name ?? null,
        ticket,
        handle: (f) => this.status(ticket, headers, f),
      };
    }
    const send = /^\/v1\/contribuyente\/gem\/comprobantes\/([^/]+)$/.exec(path);
    if (method === 'POST' && send) {
      const name = decodeURIComponent(send[1]);
      return {
        operation: 'greSend',
        subject: { operation: 'greSend', ...parseFileName(name) },
        name,
        ticket: null,
        handle: (f) => this.send(name, body, headers, f),
      };
    }
    return null;
  }

  /**
   * GRE OAuth2 password grant (PROTOCOL.md §4). The client is checked before the user: the `client_id` of the path
   * and of the body must be one, a client registered in the credentials table must show its secret and belong to the
   * user's RUC ("cliente no autorizado", lycet#613, greenter#219); an unregistered client is accepted only with the
   * beta-style MODDATOS user, as SUNAT's community test host accepts its public test client.
   */
  private token(pathClientId: string, body: string): Reply {
    const form = new URLSearchParams(body);
    const field = (name: string) => form.get(name) ?? '';
    const missing = ['grant_type', 'scope', 'client_id', 'client_secret', 'username', 'password'].filter(
      (name) => !field(name),
    );
    if (missing.length)
      return json(
        400,
        { error: 'invalid_request', error_description: `Falta el parámetro ${missing.join(', ')}` },
        'invalid_request',
      );
    if (field('grant_type') !== 'password')
      return json(
        400,
        { error: 'unsupported_grant_type', error_description: 'grant_type debe ser password' },
        'unsupported_grant_type',
      );
    if (field('scope') !== GRE_SCOPE)
      return json(400, { error: 'invalid_scope', error_description: `scope debe ser ${GRE_SCOPE}` }, 'invalid_scope');
    const unauthorised = json(
      401,
      { error: 'invalid_client', error_description: 'cliente no autorizado' },
      'invalid_client',
    );
    if (field('client_id') !== pathClientId) return unauthorised;
    const username = field('username');
    const registered = this.store.credentials.filter((c) => c.clientId === pathClientId);
    if (registered.length) {
      if (!registered.some((c) => c.clientSecret === field('client_secret') && username.startsWith(c.ruc)))
        return unauthorised;
    } else if (username.slice(11).toUpperCase() !== 'MODDATOS') {
      return unauthorised;
    }
    const ruc = this.sunat.authenticateUsername(username, field('password'));
    if (!ruc) return json(401, { error: 'invalid_grant', error_description: messageFor('0102') }, '0102');
    const { token, expiresIn } = this.tokens.issue(ruc, 'gre');
    return json(200, { access_token: token, token_type: 'JWT', expires_in: expiresIn });
  }

  private send(name: string, body: string, headers: http.IncomingHttpHeaders, f: Fault | null): Reply {
    const ruc = this.tokens.ruc(headers, 'gre');
    if (!ruc) return json(401, { cod: '401', msg: 'No autorizado' }, '401');
    const file = parseFileName(name);
    let archivo: { nomArchivo?: unknown; arcGreZip?: unknown; hashZip?: unknown } | undefined;
    try {
      archivo = (JSON.parse(body) as { archivo?: typeof archivo }).archivo;
    } catch {
      archivo = undefined;
    }
    if (!file || (file.docType !== '09' && file.docType !== '31') || archivo?.nomArchivo !== `${name}.zip`)
      return greInvalid('0151');
    // Another RUC's guide is a refusal of this request (the token is fine): 422 like every send error, not 401.
    if (file.ruc !== ruc) return greInvalid('0154');
    if (typeof archivo.arcGreZip !== 'string' || typeof archivo.hashZip !== 'string') return greInvalid('0155');
    if (SunatBehaviour.zipHash(archivo.arcGreZip) !== archivo.hashZip.toLowerCase())
      return greInvalid('0156', 'El hashZip no corresponde al archivo enviado');
    // The content is judged after the ticket is given: an exception comes back at the status query (99, no CDR).
    const record = this.sunat.openTicket('gre', file, this.sunat.judge(file, archivo.arcGreZip, f, true));
    return json(200, { numTicket: record.ticket, fecRecepcion: new Date().toISOString() });
  }

  private status(ticket: string, headers: http.IncomingHttpHeaders, f: Fault | null): Reply {
    const ruc = this.tokens.ruc(headers, 'gre');
    if (!ruc) return json(401, { cod: '401', msg: 'No autorizado' }, '401');
    const record = this.store.tickets.get(ticket);
    if (!record || record.kind !== 'gre' || record.ruc !== ruc) return greInvalid('0127');
    if (this.sunat.stillProcessing(record, f?.kind === 'ticketStuck')) return json(200, { codRespuesta: '98' }, '98');
    if (record.error) {
      const error = { numError: record.error.code, desError: record.error.message };
      const cdr = record.cdrZip ? { arcCdr: record.cdrZip, indCdrGenerado: '1' } : { indCdrGenerado: '0' };
      return json(200, { codRespuesta: '99', error, ...cdr }, '99');
    }
    return json(200, { codRespuesta: '0', arcCdr: record.cdrZip, indCdrGenerado: '1' }, '0');
  }
}
