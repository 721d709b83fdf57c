import { seedDocument, seedProblem, type SeededDocument } from './seed';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import { logger } from '../core/logger';
import { parseFileName, SunatBehaviour, type FileName, type Verdict } from './behaviour';
import { messageFor } from './codes';
import { ruleMatches, ruleProblem, type Fault, type FaultRule, type Operation, type RequestSubject } from './rules';
import { part, rawSoapFault, readSoapRequest, soapFault, soapResponse, type SoapCall } from './soap';
import { BILL_CONSULT_SERVICE, BILL_SERVICE, wsdlDocument, type SoapServiceDefinition } from './wsdl';
import { documentKey, SimulatorStore, type Credential, type PortalEntry, type TicketRecord } from './store';
import { wrongService } from './other-cpe';
import { sunatRules } from './sunat-rules';

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Persist state here (append-only JSON lines) so it survives a restart; memory only when absent. */
  dataDir?: string;
  /** Polls a ticket answers 98 before its final answer (default 1). */
  ticketPolls?: number;
  /** Lifetime of GRE and portal tokens (default 3600 s). */
  tokenTtlSeconds?: number;
  /** Users accepted besides MODDATOS/moddatos. */
  credentials?: Credential[];
  /** Entries kept in the request log (default 1000). */
  logLimit?: number;
  /** Judge with SUNAT's own XSL rules compiled into this cache directory (simulator/sunat-rules.ts); off when absent. */
  sunatRules?: { cacheDir: string; warmUp?: boolean };
}

export interface LogEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  operation: Operation | 'admin' | 'unknown';
  ruc: string | null;
  name: string | null;
  ticket: string | null;
  /** HTTP status answered; null when the connection was reset or left hanging. */
  httpStatus: number | null;
  /** SUNAT code of the answer (fault code, CDR ResponseCode, ticket status). */
  code: string | null;
  fault: Fault['kind'] | null;
}

export interface SimulatorHandle {
  url: string;
  port: number;
  addRule(rule: Omit<FaultRule, 'id'> & { id?: string }): FaultRule;
  /** A number the authority holds from elsewhere (simulator/seed.ts). */
  seedDocument(doc: SeededDocument): void;
  clearRules(): void;
  log(): LogEntry[];
  reset(): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: string;
  type?: string;
  /** SUNAT code the answer carries, for the log. */
  code?: string | null;
}

type Outcome = Reply | { kind: 'reset' } | { kind: 'hang' };

const XML = 'text/xml;charset=UTF-8';
const JSON_TYPE = 'application/json';
const MAX_BODY = 20 * 1024 * 1024;
const ERROR_PAGE = '<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>';

const json = (status: number, value: unknown, code: string | null = null): Reply => ({ status, body: JSON.stringify(value), type: JSON_TYPE, code });
const fault = (code: string, message = messageFor(code)): Reply => ({ status: 500, body: soapFault(code, message), type: XML, code });

/** Faults that apply to any operation, decided before the request is processed. */
const TRANSPORT_FAULTS = new Set<Fault['kind']>(['reset', 'hang', 'http500', 'empty200']);
const SOAP_OPERATIONS = new Set<Operation>(['sendBill', 'sendSummary', 'sendPack', 'getStatus', 'consultStatus', 'getStatusCdr']);
const GRE_SCOPE = 'https://api-cpe.sunat.gob.pe';

/** Every SOAP service the simulator serves, by the last segment of its path. */
const SOAP_SERVICES: readonly SoapServiceDefinition[] = [BILL_SERVICE, BILL_CONSULT_SERVICE];
/** billConsultService answers only for facturas and their notes (greenter demo#32: "debe ser 01, 07, 08"). */
const CONSULT_TYPES = new Set(['01', '07', '08']);
/** billConsultService getStatus validity answers (PROTOCOL.md §2). */
const VALIDITY: Record<string, string> = {
  '0001': 'El comprobante existe y está aceptado',
  '0002': 'El comprobante existe pero está rechazado',
  '0003': 'El comprobante existe pero está de baja',
};
const GRE_OPERATIONS = new Set<Operation>(['greToken', 'greSend', 'greStatus']);

function applicable(kind: Fault['kind'], operation: Operation): boolean {
  if (TRANSPORT_FAULTS.has(kind)) return true;
  switch (kind) {
    case 'soapFault':
      return SOAP_OPERATIONS.has(operation);
    case 'greHttp':
      return GRE_OPERATIONS.has(operation);
    case 'ticketStuck':
      return operation === 'getStatus' || operation === 'greStatus';
    case 'reject':
    case 'observe':
    case 'malformedCdr':
    case 'unsignedCdr':
      return operation === 'sendBill' || operation === 'sendSummary' || operation === 'greSend';
    default:
      return false;
  }
}

/** What the request is about, for rule matching and the log. */
interface Parsed {
  operation: Operation | 'unknown';
  subject: RequestSubject | null;
  name: string | null;
  ticket: string | null;
  handle: (fault: Fault | null) => Reply;
}

/**
 * The SUNAT / OSE / portal simulator: SUNAT's own paths over plain HTTP, fault rules applied per request, an
 * admin API under `/__admin/`, and a request log.
 */
class Simulator {
  readonly store: SimulatorStore;
  private readonly sunat: SunatBehaviour;
  private readonly entries: LogEntry[] = [];
  private seq = 0;
  /** Bearer tokens of the GRE API and of the portal; each is valid only where it was issued. */
  private readonly tokens = new Map<string, { ruc: string; audience: 'gre' | 'portal'; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly logLimit: number;
  private readonly tokenKey = randomBytes(32);

  constructor(options: SimulatorOptions) {
    this.store = new SimulatorStore(options.credentials ?? [], options.dataDir);
    this.sunat = new SunatBehaviour(this.store, options.ticketPolls ?? 1, options.sunatRules ? sunatRules(options.sunatRules.cacheDir, options.sunatRules.warmUp) : null);
    this.ttlMs = (options.tokenTtlSeconds ?? 3600) * 1000;
    this.logLimit = options.logLimit ?? 1000;
  }

  addRule(input: Omit<FaultRule, 'id'> & { id?: string }): FaultRule {
    const problem = ruleProblem(input);
    if (problem) throw new Error(`invalid fault rule: ${problem}`);
    const rule: FaultRule = { ...input, id: input.id ?? randomBytes(6).toString('hex') };
    this.store.setRules([...this.store.rules.filter((r) => r.id !== rule.id), rule]);
    return rule;
  }

  /** The first rule matching the request whose fault applies to the operation; consumes one of its `times`. */
  private takeRule(subject: RequestSubject): FaultRule | null {
    const rule = this.store.rules.find((r) => applicable(r.fault.kind, subject.operation) && ruleMatches(r, subject));
    if (rule) this.consume(rule);
    return rule ?? null;
  }

  private consume(rule: FaultRule): void {
    if (rule.times === undefined) return;
    const rest = rule.times - 1;
    this.store.setRules(rest > 0 ? this.store.rules.map((r) => (r === rule ? { ...r, times: rest } : r)) : this.store.rules.filter((r) => r !== rule));
  }

  /** `refuse` acts on a new connection, before anything is read. */
  refuseConnection(): boolean {
    const rule = this.store.rules.find((r) => r.fault.kind === 'refuse');
    if (rule) this.consume(rule);
    return rule !== undefined;
  }

  log(entry: Omit<LogEntry, 'seq' | 'at'>): void {
    this.entries.push({ seq: ++this.seq, at: new Date().toISOString(), ...entry });
    // Trimmed in batches: cutting one entry off the front per request moved the whole array each time.
    if (this.entries.length >= 2 * this.logLimit) this.entries.splice(0, this.entries.length - this.logLimit);
  }

  logEntries(): LogEntry[] {
    return this.entries.slice(-this.logLimit);
  }

  clearLog(): void {
    this.entries.length = 0;
  }

  reset(): void {
    this.store.reset();
    this.tokens.clear();
    this.clearLog();
  }

  /** Routes one request to its operation; null for paths the simulator does not serve. */
  parse(method: string, path: string, raw: Buffer, headers: http.IncomingHttpHeaders): Parsed | null {
    const service = method === 'POST' ? SOAP_SERVICES.find((s) => path.endsWith(`/${s.name}`)) : undefined;
    if (service) return this.parseSoap(service, raw, headers['content-type'] ?? '', path);
    const body = raw.toString('utf8');
    const token = /^\/v1\/clientessol\/([^/]+)\/oauth2\/token\/?$/.exec(path);
    if (method === 'POST' && token) {
      const clientId = decodeURIComponent(token[1]);
      return { operation: 'greToken', subject: { operation: 'greToken' }, name: null, ticket: null, handle: () => this.greToken(clientId, body) };
    }
    const status = /^\/v1\/contribuyente\/gem\/comprobantes\/envios\/([^/]+)$/.exec(path);
    if (method === 'GET' && status) {
      const ticket = decodeURIComponent(status[1]);
      const record = this.store.tickets.get(ticket);
      return {
        operation: 'greStatus',
        subject: { operation: 'greStatus', ...this.ticketSubject(record) },
        name: record?.name ?? null,
        ticket,
        handle: (f) => this.greStatus(ticket, headers, f),
      };
    }
    const send = /^\/v1\/contribuyente\/gem\/comprobantes\/([^/]+)$/.exec(path);
    if (method === 'POST' && send) {
      const name = decodeURIComponent(send[1]);
      const file = parseFileName(name);
      return {
        operation: 'greSend',
        subject: { operation: 'greSend', ...file },
        name,
        ticket: null,
        handle: (f) => this.greSend(name, body, headers, f),
      };
    }
    if (path.startsWith('/portal/v1/')) {
      return { operation: 'portal', subject: { operation: 'portal' }, name: null, ticket: null, handle: () => this.portal(method, path, body, headers) };
    }
    return null;
  }

  private ticketSubject(record: TicketRecord | undefined): Partial<RequestSubject> {
    return record ? { ruc: record.ruc, docType: record.docType, series: record.series, number: record.number } : {};
  }

  /**
   * One SOAP request: read strictly against the service's contract (a refusal is answered before any rule or
   * SUNAT check), then routed to the operation.
   */
  private parseSoap(service: SoapServiceDefinition, raw: Buffer, contentType: string, path: string): Parsed {
    const read = readSoapRequest(raw, contentType, service.contract);
    if (!read.ok) {
      const { faultcode, faultstring } = read.refusal;
      return { operation: 'unknown', subject: null, name: null, ticket: null, handle: () => ({ status: 500, body: rawSoapFault(faultcode, faultstring), type: XML, code: null }) };
    }
    const { call } = read;
    const p = call.params;
    if (service === BILL_CONSULT_SERVICE) {
      const operation: Operation = call.operation === 'getStatusCdr' ? 'getStatusCdr' : 'consultStatus';
      const subject = { operation, ruc: p.rucComprobante, docType: p.tipoComprobante, series: p.serieComprobante, number: p.numeroComprobante };
      return { operation, subject, name: null, ticket: null, handle: () => this.consult(operation, call) };
    }
    if (call.operation === 'getStatus') {
      const ticket = p.ticket ?? '';
      const record = this.store.tickets.get(ticket);
      return { operation: 'getStatus', subject: { operation: 'getStatus', ...this.ticketSubject(record) }, name: record?.name ?? null, ticket, handle: (f) => this.getStatus(call, f) };
    }
    const operation = call.operation as 'sendBill' | 'sendSummary' | 'sendPack';
    const name = p.fileName ?? null;
    const file = name ? parseFileName(name) : null;
    const handlers = { sendBill: this.sendBill, sendSummary: this.sendSummary, sendPack: this.sendPack };
    const handle = (f: Fault | null) => {
      // Each billService (CPE, otros CPE) takes only its own document types.
      const misrouted = file && wrongService(path, file.docType);
      return misrouted ? fault(misrouted) : handlers[operation].call(this, call, file, f);
    };
    return { operation, subject: { operation, ...file }, name, ticket: null, handle };
  }

  /** Applies a matching transport fault, else processes the request (passing a document-level fault along). */
  respond(parsed: Parsed): { outcome: Outcome; fault: Fault | null } {
    const rule = parsed.subject ? this.takeRule(parsed.subject) : null;
    const f = rule?.fault ?? null;
    switch (f?.kind) {
      case 'reset':
        return { outcome: { kind: 'reset' }, fault: f };
      case 'hang':
        if (f.afterReceipt) parsed.handle(null);
        return { outcome: { kind: 'hang' }, fault: f };
      case 'http500':
        return { outcome: { status: 500, body: ERROR_PAGE, type: 'text/html' }, fault: f };
      case 'empty200':
        return { outcome: { status: 200, body: '', type: XML }, fault: f };
      case 'soapFault':
        return { outcome: fault(f.code, f.message ?? messageFor(f.code)), fault: f };
      case 'greHttp': {
        const code = f.code ?? String(f.status);
        const message = f.message ?? (f.status === 401 ? 'No autorizado' : f.status === 422 ? messageFor(code) : 'Error inesperado');
        const value = f.status === 422 ? { cod: code, msg: message, errors: [{ cod: code, msg: message }] } : { cod: code, msg: message };
        return { outcome: json(f.status, value, code), fault: f };
      }
      default:
        return { outcome: parsed.handle(f), fault: f };
    }
  }

  /** The WS-Security user's RUC, or SUNAT's fault: 0101 without a UsernameToken, 0102 for wrong credentials. */
  private soapUser(call: SoapCall): string | Reply {
    if (call.username === null || call.password === null) return fault('0101');
    return this.sunat.authenticateUsername(call.username, call.password) ?? fault('0102');
  }

  private sendBill(call: SoapCall, file: FileName | null, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    if (!file) return fault('0151');
    if (file.summary) return fault('0152');
    if (file.ruc !== userRuc) return fault('0154');
    const verdict = this.sunat.judge(file, call.params.contentFile ?? '', f, true);
    if (verdict.kind === 'exception') return fault(verdict.code, verdict.message);
    const cdr = this.sunat.keep(file, verdict, f);
    return { status: 200, body: soapResponse('sendBill', part('applicationResponse', cdr)), type: XML, code: verdict.code };
  }

  private sendSummary(call: SoapCall, file: FileName | null, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    if (!file || !file.summary) return fault('0151');
    if (file.ruc !== userRuc) return fault('0154');
    let verdict: Verdict = this.sunat.judge(file, call.params.contentFile ?? '', f, false);
    if (verdict.kind === 'exception') return fault(verdict.code, verdict.message);
    if (this.sunat.summaryPresented(file)) {
      verdict = { ...verdict, status: 'rejected', code: '2223', content: { ...verdict.content, code: '2223', description: messageFor('2223'), notes: [] } };
    }
    const record = this.sunat.openTicket('summary', file, verdict);
    return { status: 200, body: soapResponse('sendSummary', part('ticket', record.ticket)), type: XML, code: null };
  }

  /**
   * sendPack (lotes de facturas) is in SUNAT's WSDL, but no source read describes a pack's file name or its CDR: the
   * simulator runs SUNAT's checks common to every method (user, then file name) and answers 0151 with that reason.
   */
  private sendPack(call: SoapCall): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    return fault('0151', `${messageFor('0151')} - Detalle: the simulator knows no pack (lote) file name; send documents with sendBill or sendSummary`);
  }

  private getStatus(call: SoapCall, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    const record = this.store.tickets.get(call.params.ticket ?? '');
    if (!record || record.kind !== 'summary') return fault('0127');
    if (record.ruc !== userRuc) return fault('0126');
    if (this.sunat.stillProcessing(record, f?.kind === 'ticketStuck')) {
      return { status: 200, body: soapResponse('getStatus', `<status>${part('statusCode', '98')}</status>`), type: XML, code: '98' };
    }
    const statusCode = record.error ? '99' : '0';
    return { status: 200, body: soapResponse('getStatus', `<status>${part('content', record.cdrZip)}${part('statusCode', statusCode)}</status>`), type: XML, code: statusCode };
  }

  /**
   * billConsultService, production only and for facturas and their notes (01, 07, 08): getStatusCdr answers 0004
   * with the CDR, getStatus the document's validity (0001 accepted, 0002 rejected, 0003 de baja); both 0011 when
   * SUNAT has no such document.
   */
  private consult(operation: 'getStatusCdr' | 'consultStatus', call: SoapCall): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    const p = call.params;
    const wrapper = operation === 'getStatusCdr' ? 'statusCdr' : 'status';
    const answer = (code: string, message: string, content?: string): Reply => ({
      status: 200,
      body: soapResponse(operation === 'getStatusCdr' ? 'getStatusCdr' : 'getStatus', `<${wrapper}>${content ? part('content', content) : ''}${part('statusCode', code)}${part('statusMessage', message)}</${wrapper}>`),
      type: XML,
      code,
    });
    if (!CONSULT_TYPES.has(p.tipoComprobante ?? '')) return answer('0005', messageFor('0005'));
    const doc = this.store.documents.get(documentKey(p.rucComprobante ?? '', p.tipoComprobante ?? '', p.serieComprobante ?? '', p.numeroComprobante ?? ''));
    if (!doc) return answer('0011', messageFor('0011'));
    if (operation === 'getStatusCdr') return answer('0004', messageFor('0004'), doc.cdrZip);
    if (doc.voided) return answer('0003', VALIDITY['0003']);
    return doc.status === 'rejected' ? answer('0002', VALIDITY['0002']) : answer('0001', VALIDITY['0001']);
  }

  /**
   * A bearer token. GRE tokens are JWTs like SUNAT's (`token_type` "JWT"; signed with a per-process key the client
   * never needs: it is opaque to it); portal tokens are random strings.
   */
  private issueToken(ruc: string, audience: 'gre' | 'portal'): { token: string; expiresIn: number } {
    const expiresIn = Math.round(this.ttlMs / 1000);
    let token = randomBytes(24).toString('base64url');
    if (audience === 'gre') {
      const now = Math.floor(Date.now() / 1000);
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: 'api-seguridad (chasqui simulator)', sub: ruc, aud: GRE_SCOPE, iat: now, exp: now + expiresIn, jti: token })}`;
      token = `${unsigned}.${createHmac('sha256', this.tokenKey).update(unsigned).digest('base64url')}`;
    }
    this.tokens.set(token, { ruc, audience, expiresAt: Date.now() + this.ttlMs });
    return { token, expiresIn };
  }

  private bearerRuc(headers: http.IncomingHttpHeaders, audience: 'gre' | 'portal'): string | null {
    const token = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const known = token ? this.tokens.get(token) : undefined;
    return known && known.audience === audience && known.expiresAt > Date.now() ? known.ruc : null;
  }

  /**
   * GRE OAuth2 password grant (PROTOCOL.md §4). The client is checked before the user: the `client_id` of the path
   * and of the body must be one, a client registered in the credentials table must show its secret and belong to the
   * user's RUC ("cliente no autorizado", lycet#613, greenter#219); an unregistered client is accepted only with the
   * beta-style MODDATOS user, as SUNAT's community test host accepts its public test client.
   */
  private greToken(pathClientId: string, body: string): Reply {
    const form = new URLSearchParams(body);
    const field = (name: string) => form.get(name) ?? '';
    const missing = ['grant_type', 'scope', 'client_id', 'client_secret', 'username', 'password'].filter((name) => !field(name));
    if (missing.length) return json(400, { error: 'invalid_request', error_description: `Falta el parámetro ${missing.join(', ')}` }, 'invalid_request');
    if (field('grant_type') !== 'password') return json(400, { error: 'unsupported_grant_type', error_description: 'grant_type debe ser password' }, 'unsupported_grant_type');
    if (field('scope') !== GRE_SCOPE) return json(400, { error: 'invalid_scope', error_description: `scope debe ser ${GRE_SCOPE}` }, 'invalid_scope');
    const unauthorised = json(401, { error: 'invalid_client', error_description: 'cliente no autorizado' }, 'invalid_client');
    if (field('client_id') !== pathClientId) return unauthorised;
    const username = field('username');
    const registered = this.store.credentials.filter((c) => c.clientId === pathClientId);
    if (registered.length) {
      if (!registered.some((c) => c.clientSecret === field('client_secret') && username.startsWith(c.ruc))) return unauthorised;
    } else if (username.slice(11).toUpperCase() !== 'MODDATOS') {
      return unauthorised;
    }
    const ruc = this.sunat.authenticateUsername(username, field('password'));
    if (!ruc) return json(401, { error: 'invalid_grant', error_description: messageFor('0102') }, '0102');
    const { token, expiresIn } = this.issueToken(ruc, 'gre');
    return json(200, { access_token: token, token_type: 'JWT', expires_in: expiresIn });
  }

  private greSend(name: string, body: string, headers: http.IncomingHttpHeaders, f: Fault | null): Reply {
    const ruc = this.bearerRuc(headers, 'gre');
    if (!ruc) return json(401, { cod: '401', msg: 'No autorizado' }, '401');
    const file = parseFileName(name);
    let archivo: { nomArchivo?: unknown; arcGreZip?: unknown; hashZip?: unknown } | undefined;
    try {
      archivo = (JSON.parse(body) as { archivo?: typeof archivo }).archivo;
    } catch {
      archivo = undefined;
    }
    const invalid = (code: string, message = messageFor(code)) => json(422, { cod: code, msg: message, errors: [{ cod: code, msg: message }] }, code);
    if (!file || (file.docType !== '09' && file.docType !== '31') || archivo?.nomArchivo !== `${name}.zip`) return invalid('0151');
    // Another RUC's guide is a refusal of this request (the token is fine): 422 like every send error, not 401.
    if (file.ruc !== ruc) return invalid('0154');
    if (typeof archivo.arcGreZip !== 'string' || typeof archivo.hashZip !== 'string') return invalid('0155');
    if (SunatBehaviour.zipHash(archivo.arcGreZip) !== archivo.hashZip.toLowerCase()) return invalid('0156', 'El hashZip no corresponde al archivo enviado');
    // The content is judged after the ticket is given: an exception comes back at the status query (99, no CDR).
    const record = this.sunat.openTicket('gre', file, this.sunat.judge(file, archivo.arcGreZip, f, true));
    return json(200, { numTicket: record.ticket, fecRecepcion: new Date().toISOString() });
  }

  private greStatus(ticket: string, headers: http.IncomingHttpHeaders, f: Fault | null): Reply {
    const ruc = this.bearerRuc(headers, 'gre');
    if (!ruc) return json(401, { cod: '401', msg: 'No autorizado' }, '401');
    const record = this.store.tickets.get(ticket);
    if (!record || record.kind !== 'gre' || record.ruc !== ruc) return json(422, { cod: '0127', msg: messageFor('0127'), errors: [{ cod: '0127', msg: messageFor('0127') }] }, '0127');
    if (this.sunat.stillProcessing(record, f?.kind === 'ticketStuck')) return json(200, { codRespuesta: '98' }, '98');
    if (record.error) {
      const error = { numError: record.error.code, desError: record.error.message };
      const cdr = record.cdrZip ? { arcCdr: record.cdrZip, indCdrGenerado: '1' } : { indCdrGenerado: '0' };
      return json(200, { codRespuesta: '99', error, ...cdr }, '99');
    }
    return json(200, { codRespuesta: '0', arcCdr: record.cdrZip, indCdrGenerado: '1' }, '0');
  }

  /** The SUNAT portal (Menú SOL) procedures the company-procedures adapter automates. */
  private portal(method: string, path: string, body: string, headers: http.IncomingHttpHeaders): Reply {
    let input: Record<string, unknown> = {};
    if (body.trim()) {
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return json(400, { cod: '400', msg: 'El cuerpo no es JSON' });
      }
    }
    if (method === 'POST' && path === '/portal/v1/login') {
      const { ruc, usuario, clave } = input;
      if (typeof ruc !== 'string' || typeof usuario !== 'string' || typeof clave !== 'string' || !this.sunat.authenticate(ruc, usuario, clave)) {
        return json(401, { cod: '0102', msg: messageFor('0102') }, '0102');
      }
      const { token, expiresIn } = this.issueToken(ruc, 'portal');
      return json(200, { token, expires_in: expiresIn });
    }
    const ruc = this.bearerRuc(headers, 'portal');
    if (!ruc) return json(401, { cod: '401', msg: 'Token inválido o expirado' }, '401');
    if (method === 'GET' && path === '/portal/v1/estado') {
      const view = (kind: PortalEntry['kind']) =>
        this.store.portal
          .filter((e) => e.kind === kind && e.ruc === ruc)
          .map((e) => ({ id: e.id, [kind === 'pse' ? 'ruc_pse' : 'ruc_ose']: e.target, estado: e.estado, fecha: e.fecha }));
      return json(200, { pse: view('pse'), ose: view('ose') });
    }
    const procedure =
      method === 'POST' && path === '/portal/v1/pse/autorizaciones'
        ? ({ kind: 'pse', field: 'ruc_pse', estado: 'AUTORIZADO' } as const)
        : method === 'POST' && path === '/portal/v1/ose/vinculaciones'
          ? ({ kind: 'ose', field: 'ruc_ose', estado: 'VINCULADO' } as const)
          : null;
    if (!procedure) return json(404, { cod: '404', msg: 'Recurso no encontrado' });
    const target = input[procedure.field];
    if (typeof target !== 'string' || !/^\d{11}$/.test(target)) return json(400, { cod: '400', msg: `${procedure.field} debe tener 11 dígitos` });
    const existing = this.store.portal.find((e) => e.kind === procedure.kind && e.ruc === ruc && e.target === target);
    if (existing) return json(200, { id: existing.id, estado: existing.estado, fecha: existing.fecha });
    const entry: PortalEntry = {
      kind: procedure.kind,
      ruc,
      target,
      id: `${procedure.kind.toUpperCase()}-${randomBytes(5).toString('hex')}`,
      estado: procedure.estado,
      fecha: new Date().toISOString(),
    };
    this.store.addPortalEntry(entry);
    return json(201, { id: entry.id, estado: entry.estado, fecha: entry.fecha });
  }

  /** `/__admin/`: rules CRUD, reset, log, credentials table, stored documents. */
  admin(method: string, path: string, body: string): Reply {
    let input: unknown = null;
    if (body.trim()) {
      try {
        input = JSON.parse(body);
      } catch {
        return json(400, { error: 'the body is not JSON' });
      }
    }
    const route = `${method} ${path.replace(/\/+$/, '')}`;
    const ruleId = /^DELETE \/__admin\/rules\/([^/]+)$/.exec(route)?.[1];
    if (ruleId) {
      const before = this.store.rules.length;
      this.store.setRules(this.store.rules.filter((r) => r.id !== decodeURIComponent(ruleId)));
      return before === this.store.rules.length ? json(404, { error: 'no such rule' }) : { status: 204, body: '' };
    }
    switch (route) {
      case 'GET /__admin/rules':
        return json(200, this.store.rules);
      case 'POST /__admin/rules': {
        const problem = input && typeof input === 'object' ? ruleProblem(input as Partial<FaultRule>) : 'the body must be a rule object';
        if (problem) return json(400, { error: problem });
        return json(201, this.addRule(input as FaultRule));
      }
      case 'DELETE /__admin/rules':
        this.store.setRules([]);
        return { status: 204, body: '' };
      case 'POST /__admin/reset':
        this.reset();
        return { status: 204, body: '' };
      case 'GET /__admin/log':
        return json(200, this.logEntries());
      case 'DELETE /__admin/log':
        this.clearLog();
        return { status: 204, body: '' };
      case 'GET /__admin/credentials':
        return json(200, this.store.credentials.map(({ ruc, user, clientId }) => ({ ruc, user, ...(clientId ? { clientId } : {}) })));
      case 'PUT /__admin/credentials':
      case 'POST /__admin/credentials': {
        const list = Array.isArray(input) ? input : [input];
        const optional = (v: unknown) => v === undefined || typeof v === 'string';
        const valid = list.every(
          (c) => c && typeof c.ruc === 'string' && typeof c.user === 'string' && typeof c.password === 'string' && optional(c.clientId) && optional(c.clientSecret) && !c.clientId === !c.clientSecret,
        );
        if (!valid) return json(400, { error: 'credentials are {ruc, user, password, clientId?, clientSecret?} (a GRE client needs both)' });
        const given = list as Credential[];
        const kept = route.startsWith('PUT') ? [] : this.store.credentials.filter((c) => !given.some((g) => g.ruc === c.ruc && g.user === c.user));
        this.store.setCredentials([...kept, ...given.map(({ ruc, user, password, clientId, clientSecret }) => ({ ruc, user, password, ...(clientId ? { clientId, clientSecret } : {}) }))]);
        return json(200, this.store.credentials.map(({ ruc, user, clientId }) => ({ ruc, user, ...(clientId ? { clientId } : {}) })));
      }
      case 'POST /__admin/documents': {
        const problem = seedProblem(input as Partial<SeededDocument> | null);
        if (problem) return json(400, { error: problem });
        const doc = seedDocument(this.store, input as SeededDocument);
        return json(201, { name: doc.name, code: doc.code, status: doc.status });
      }
      case 'GET /__admin/documents':
        return json(200, [...this.store.documents.entries()].map(([key, d]) => ({ key, name: d.name, code: d.code, status: d.status, receivedAt: d.receivedAt })));
      default:
        return json(404, { error: `no admin route ${route}` });
    }
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}

/** Starts the simulator; tests use port 0 (ephemeral) and `close()` it. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const sim = new Simulator(options);
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    serve(sim, req, res).catch((err: unknown) => {
      // The simulator never dies on a request: a bug becomes an HTTP 500 (classified "system" by the connectors).
      logger.error({ err, path: req.url }, 'simulator failed to answer a request');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/html' });
      res.end(ERROR_PAGE);
    });
  });
  server.on('connection', (socket: Socket) => {
    if (sim.refuseConnection()) socket.resetAndDestroy();
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  logger.info({ port, dataDir: options.dataDir ?? null }, 'SUNAT simulator listening');
  return {
    url: `http://${host}:${port}`,
    port,
    addRule: (rule) => sim.addRule(rule),
    seedDocument: (doc) => void seedDocument(sim.store, doc),
    clearRules: () => sim.store.setRules([]),
    log: () => sim.logEntries(),
    reset: () => sim.reset(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sim.store.close();
    },
  };
}

/** `GET …/billService?wsdl` and the documents it imports, with the address the client used. */
function wsdlFor(path: string, query: string, host: string | undefined): string | null {
  for (const service of SOAP_SERVICES) {
    const at = path.lastIndexOf(`/${service.name}`);
    if (at < 0) continue;
    const endpointPath = path.slice(0, at + service.name.length + 1);
    const found = wsdlDocument(service, path.slice(endpointPath.length), query, `http://${host ?? '127.0.0.1'}${endpointPath}`);
    if (found !== null) return found;
  }
  return null;
}

async function serve(sim: Simulator, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const [path, query = ''] = (req.url ?? '/').split(/\?(.*)/s);
  const method = req.method ?? 'GET';
  // A kept-alive connection opened before the rule is refused at its next request.
  if (!path.startsWith('/__admin/') && sim.refuseConnection()) {
    req.socket.resetAndDestroy();
    return;
  }
  const body = await readBody(req);
  if (body === null) {
    res.writeHead(413).end();
    return;
  }
  const send = (reply: Reply) => {
    res.writeHead(reply.status, reply.body ? { 'content-type': reply.type ?? XML } : {});
    res.end(reply.body);
  };
  if (path.startsWith('/__admin/')) {
    send(sim.admin(method, path, body.toString('utf8')));
    return;
  }
  const wsdl = method === 'GET' ? wsdlFor(path, query, req.headers.host) : null;
  if (wsdl !== null) {
    send({ status: 200, body: wsdl, type: XML });
    return;
  }
  const parsed = sim.parse(method, path, body, req.headers);
  if (!parsed) {
    sim.log({ method, path, operation: 'unknown', ruc: null, name: null, ticket: null, httpStatus: 404, code: null, fault: null });
    send(json(404, { error: `the simulator does not serve ${method} ${path}` }));
    return;
  }
  const { outcome, fault: applied } = sim.respond(parsed);
  const entry = {
    method,
    path,
    operation: parsed.operation,
    ruc: parsed.subject?.ruc ?? null,
    name: parsed.name,
    ticket: parsed.ticket,
    fault: applied?.kind ?? null,
  };
  if ('kind' in outcome) {
    sim.log({ ...entry, httpStatus: null, code: null });
    if (outcome.kind === 'reset') req.socket.resetAndDestroy();
    return;
  }
  sim.log({ ...entry, httpStatus: outcome.status, code: outcome.code ?? null });
  send(outcome);
}
