import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { logger } from '../core/logger';
import { parseFileName, SunatBehaviour, type FileName, type Verdict } from './behaviour';
import { messageFor } from './codes';
import { ruleMatches, ruleProblem, type Fault, type FaultRule, type Operation, type RequestSubject } from './rules';
import { part, readSoapCall, soapFault, soapResponse, type SoapCall } from './soap';
import { documentKey, SimulatorStore, type Credential, type PortalEntry, type TicketRecord } from './store';
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
const fault = (code: string | null, message = code ? messageFor(code) : 'Invalid request'): Reply => ({ status: 500, body: soapFault(code, message), type: XML, code });

/** Faults that apply to any operation, decided before the request is processed. */
const TRANSPORT_FAULTS = new Set<Fault['kind']>(['reset', 'hang', 'http500', 'empty200']);
const SOAP_OPERATIONS = new Set<Operation>(['sendBill', 'sendSummary', 'getStatus', 'getStatusCdr']);
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
    if (this.entries.length > this.logLimit) this.entries.splice(0, this.entries.length - this.logLimit);
  }

  logEntries(): LogEntry[] {
    return [...this.entries];
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
  parse(method: string, path: string, body: string, headers: http.IncomingHttpHeaders): Parsed | null {
    if (method === 'POST' && /\/billService$/.test(path)) return this.parseSoap(body, false);
    if (method === 'POST' && /\/billConsultService$/.test(path)) return this.parseSoap(body, true);
    if (method === 'POST' && /^\/v1\/clientessol\/[^/]+\/oauth2\/token\/?$/.test(path)) {
      return { operation: 'greToken', subject: { operation: 'greToken' }, name: null, ticket: null, handle: () => this.greToken(body) };
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

  private parseSoap(body: string, consult: boolean): Parsed {
    const call = readSoapCall(body);
    const unknown: Parsed = { operation: 'unknown', subject: null, name: null, ticket: null, handle: () => fault(null, 'The request is not a SOAP message of this service') };
    if (!call) return unknown;
    const operations: Record<string, Operation> = consult ? { getStatusCdr: 'getStatusCdr' } : { sendBill: 'sendBill', sendSummary: 'sendSummary', getStatus: 'getStatus' };
    const operation = operations[call.operation];
    if (!operation) return unknown;
    if (operation === 'getStatus') {
      const ticket = call.params.ticket ?? '';
      const record = this.store.tickets.get(ticket);
      return { operation, subject: { operation, ...this.ticketSubject(record) }, name: record?.name ?? null, ticket, handle: (f) => this.getStatus(call, f) };
    }
    if (operation === 'getStatusCdr') {
      const p = call.params;
      const subject = { operation, ruc: p.rucComprobante, docType: p.tipoComprobante, series: p.serieComprobante, number: p.numeroComprobante };
      return { operation, subject, name: null, ticket: null, handle: () => this.getStatusCdr(call) };
    }
    const name = call.params.fileName ?? null;
    const file = name ? parseFileName(name) : null;
    return {
      operation,
      subject: { operation, ...file },
      name,
      ticket: null,
      handle: (f) => (operation === 'sendBill' ? this.sendBill(call, file, f) : this.sendSummary(call, file, f)),
    };
  }

  /** Applies a matching transport fault, else processes the request (passing a document-level fault along). */
  respond(parsed: Parsed): { outcome: Outcome; fault: Fault | null } {
    const rule = parsed.subject ? this.takeRule(parsed.subject) : null;
    const f = rule?.fault ?? null;
    switch (f?.kind) {
      case 'reset':
        return { outcome: { kind: 'reset' }, fault: f };
      case 'hang':
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

  private soapUser(call: SoapCall): string | null {
    return this.sunat.authenticateUsername(call.username, call.password);
  }

  private sendBill(call: SoapCall, file: FileName | null, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (!userRuc) return fault('0102');
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
    if (!userRuc) return fault('0102');
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

  private getStatus(call: SoapCall, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (!userRuc) return fault('0102');
    const record = this.store.tickets.get(call.params.ticket ?? '');
    if (!record || record.kind !== 'summary') return fault('0127');
    if (record.ruc !== userRuc) return fault('0126', 'El ticket no le pertenece al usuario');
    if (this.sunat.stillProcessing(record, f?.kind === 'ticketStuck')) {
      return { status: 200, body: soapResponse('getStatus', `<status>${part('statusCode', '98')}</status>`), type: XML, code: '98' };
    }
    const statusCode = record.error ? '99' : '0';
    return { status: 200, body: soapResponse('getStatus', `<status>${part('content', record.cdrZip)}${part('statusCode', statusCode)}</status>`), type: XML, code: statusCode };
  }

  private getStatusCdr(call: SoapCall): Reply {
    if (!this.soapUser(call)) return fault('0102');
    const p = call.params;
    const doc = this.store.documents.get(documentKey(p.rucComprobante ?? '', p.tipoComprobante ?? '', p.serieComprobante ?? '', p.numeroComprobante ?? ''));
    const status = doc
      ? part('content', doc.cdrZip) + part('statusCode', '0004') + part('statusMessage', 'La constancia existe')
      : part('statusCode', '0011') + part('statusMessage', 'Comprobante no encontrado o no existe');
    return { status: 200, body: soapResponse('getStatusCdr', `<statusCdr>${status}</statusCdr>`), type: XML, code: doc ? '0004' : '0011' };
  }

  private issueToken(ruc: string, audience: 'gre' | 'portal'): { token: string; expiresIn: number } {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { ruc, audience, expiresAt: Date.now() + this.ttlMs });
    return { token, expiresIn: Math.round(this.ttlMs / 1000) };
  }

  private bearerRuc(headers: http.IncomingHttpHeaders, audience: 'gre' | 'portal'): string | null {
    const token = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const known = token ? this.tokens.get(token) : undefined;
    return known && known.audience === audience && known.expiresAt > Date.now() ? known.ruc : null;
  }

  private greToken(body: string): Reply {
    const form = new URLSearchParams(body);
    const ruc = this.sunat.authenticateUsername(form.get('username'), form.get('password'));
    if (form.get('grant_type') !== 'password' || !form.get('client_id') || !form.get('client_secret')) {
      return json(400, { error: 'invalid_request', error_description: 'grant_type=password, client_id and client_secret are required' });
    }
    if (!ruc) return json(401, { error: 'invalid_grant', error_description: messageFor('0102') }, '0102');
    const { token, expiresIn } = this.issueToken(ruc, 'gre');
    return json(200, { access_token: token, token_type: 'JWT', expires_in: expiresIn });
  }

  private greSend(name: string, body: string, headers: http.IncomingHttpHeaders, f: Fault | null): Reply {
    const ruc = this.bearerRuc(headers, 'gre');
    const file = parseFileName(name);
    if (!ruc || (file && file.ruc !== ruc)) return json(401, { cod: '401', msg: 'No autorizado' }, '401');
    let archivo: { nomArchivo?: unknown; arcGreZip?: unknown; hashZip?: unknown } | undefined;
    try {
      archivo = (JSON.parse(body) as { archivo?: typeof archivo }).archivo;
    } catch {
      archivo = undefined;
    }
    const invalid = (code: string, message = messageFor(code)) => json(422, { cod: code, msg: message, errors: [{ cod: code, msg: message }] }, code);
    if (!file || (file.docType !== '09' && file.docType !== '31') || archivo?.nomArchivo !== `${name}.zip`) return invalid('0151');
    if (typeof archivo.arcGreZip !== 'string' || typeof archivo.hashZip !== 'string') return invalid('0155');
    if (SunatBehaviour.zipHash(archivo.arcGreZip) !== archivo.hashZip.toLowerCase()) return invalid('0156', 'El hashZip no corresponde al archivo enviado');
    const verdict = this.sunat.judge(file, archivo.arcGreZip, f, true);
    if (verdict.kind === 'exception') return invalid(verdict.code, verdict.message);
    const record = this.sunat.openTicket('gre', file, verdict);
    return json(200, { numTicket: record.ticket, fecRecepcion: new Date().toISOString() });
  }

  private greStatus(ticket: string, headers: http.IncomingHttpHeaders, f: Fault | null): Reply {
    const ruc = this.bearerRuc(headers, 'gre');
    if (!ruc) return json(401, { cod: '401', msg: 'No autorizado' }, '401');
    const record = this.store.tickets.get(ticket);
    if (!record || record.kind !== 'gre' || record.ruc !== ruc) return json(422, { cod: '0127', msg: messageFor('0127'), errors: [{ cod: '0127', msg: messageFor('0127') }] }, '0127');
    if (this.sunat.stillProcessing(record, f?.kind === 'ticketStuck')) return json(200, { codRespuesta: '98' }, '98');
    if (record.error) {
      return json(200, { codRespuesta: '99', error: { numError: record.error.code, desError: record.error.message }, arcCdr: record.cdrZip, indCdrGenerado: '1' }, '99');
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
        return json(200, this.store.credentials.map(({ ruc, user }) => ({ ruc, user })));
      case 'PUT /__admin/credentials':
      case 'POST /__admin/credentials': {
        const list = Array.isArray(input) ? input : [input];
        const valid = list.every((c) => c && typeof c.ruc === 'string' && typeof c.user === 'string' && typeof c.password === 'string');
        if (!valid) return json(400, { error: 'credentials are {ruc, user, password}' });
        const given = list as Credential[];
        const kept = route.startsWith('PUT') ? [] : this.store.credentials.filter((c) => !given.some((g) => g.ruc === c.ruc && g.user === c.user));
        this.store.setCredentials([...kept, ...given.map(({ ruc, user, password }) => ({ ruc, user, password }))]);
        return json(200, this.store.credentials.map(({ ruc, user }) => ({ ruc, user })));
      }
      case 'GET /__admin/documents':
        return json(200, [...this.store.documents.entries()].map(([key, d]) => ({ key, name: d.name, code: d.code, status: d.status, receivedAt: d.receivedAt })));
      default:
        return json(404, { error: `no admin route ${route}` });
    }
  }
}

function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
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

async function serve(sim: Simulator, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
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
    send(sim.admin(method, path, body));
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
