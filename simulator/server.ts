import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { logger } from '../core/logger';
import { DEFAULT_CALENDAR, type RuleCalendar } from '../documents/calendar';
import { adminAnswer } from './admin';
import { SunatBehaviour } from './behaviour';
import { GreApi } from './gre';
import { RequestLog, type LogEntry } from './log';
import { Portal } from './portal';
import { ruleMatches, ruleProblem, type Fault, type FaultRule, type RequestSubject } from './rules';
import { seedDocument, type SeededDocument } from './seed';
import { SoapServices } from './soap-services';
import { SimulatorStore, type Credential } from './store';
import { sunatRules } from './sunat-rules';
import { BearerTokens } from './tokens';
import {
  answer,
  applicable,
  ERROR_PAGE,
  json,
  XML,
  type Outcome,
  type Reply,
  type Route,
  type Surface,
} from './transport';

export type { LogEntry } from './log';

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
  /** SUNAT's dated rules with the operator's dates (config.rules, CHASQUI_RULE_DATES); SUNAT's own dates by default. */
  rules?: RuleCalendar;
  /**
   * SUNAT's sending window (2108): days after its issue date a factura, boleta, liquidación or note is still received
   * (default 3, SUNAT's); 0 turns it off for tests that send fixtures with old dates (CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS).
   */
  sendingWindowDays?: number;
  /** Judge with SUNAT's own XSL rules compiled into this cache directory (simulator/sunat-rules.ts); off when absent. */
  sunatRules?: { cacheDir: string; warmUp?: boolean };
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

const MAX_BODY = 20 * 1024 * 1024;
/** SUNAT receives facturas, boletas and their notes up to 3 calendar days after their issue date. */
export const SUNAT_SENDING_WINDOW_DAYS = 3;

/**
 * The SUNAT / OSE / portal simulator: SUNAT's own paths over plain HTTP, each surface in its own module (SOAP
 * services, GRE REST, portal, admin), fault rules applied per request (simulator/transport.ts), and a request log.
 */
class Simulator {
  readonly store: SimulatorStore;
  readonly soap: SoapServices;
  private readonly surfaces: Surface[];
  private readonly tokens: BearerTokens;
  private readonly requests: RequestLog;

  constructor(options: SimulatorOptions) {
    this.store = new SimulatorStore(options.credentials ?? [], options.dataDir);
    const dated = {
      calendar: options.rules ?? DEFAULT_CALENDAR,
      sendingWindowDays: options.sendingWindowDays ?? SUNAT_SENDING_WINDOW_DAYS,
    };
    const sunat = new SunatBehaviour(
      this.store,
      options.ticketPolls ?? 1,
      dated,
      options.sunatRules ? sunatRules(options.sunatRules.cacheDir, options.sunatRules.warmUp) : null,
    );
    this.tokens = new BearerTokens((options.tokenTtlSeconds ?? 3600) * 1000);
    this.soap = new SoapServices(this.store, sunat);
    this.surfaces = [this.soap, new GreApi(this.store, sunat, this.tokens), new Portal(this.store, sunat, this.tokens)];
    this.requests = new RequestLog(options.logLimit ?? 1000);
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
    this.store.setRules(
      rest > 0
        ? this.store.rules.map((r) => (r === rule ? { ...r, times: rest } : r))
        : this.store.rules.filter((r) => r !== rule),
    );
  }

  /** `refuse` acts on a new connection, before anything is read. */
  refuseConnection(): boolean {
    const rule = this.store.rules.find((r) => r.fault.kind === 'refuse');
    if (rule) this.consume(rule);
    return rule !== undefined;
  }

  log(entry: Omit<LogEntry, 'seq' | 'at'>): void {
    this.requests.add(entry);
  }

  logEntries(): LogEntry[] {
    return this.requests.list();
  }

  clearLog(): void {
    this.requests.clear();
  }

  reset(): void {
    this.store.reset();
    this.tokens.clear();
    this.clearLog();
  }

  /** Routes one request to its surface's operation; null for paths the simulator does not serve. */
  route(method: string, path: string, raw: Buffer, headers: http.IncomingHttpHeaders): Route | null {
    for (const surface of this.surfaces) {
      const route = surface.route(method, path, raw, headers);
      if (route) return route;
    }
    return null;
  }

  /** Takes the fault rule matching the request (if any) and answers under it. */
  respond(route: Route): { outcome: Outcome; fault: Fault | null } {
    const f = (route.subject ? this.takeRule(route.subject) : null)?.fault ?? null;
    return { outcome: answer(route, f), fault: f };
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
  logger.info(
    {
      port,
      dataDir: options.dataDir ?? null,
      sendingWindowDays: options.sendingWindowDays ?? SUNAT_SENDING_WINDOW_DAYS,
    },
    'SUNAT simulator listening',
  );
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
    send(adminAnswer(sim, method, path, body.toString('utf8')));
    return;
  }
  const wsdl = method === 'GET' ? sim.soap.wsdl(path, query, req.headers.host) : null;
  if (wsdl !== null) {
    send({ status: 200, body: wsdl, type: XML });
    return;
  }
  const route = sim.route(method, path, body, req.headers);
  if (!route) {
    sim.log({
      method,
      path,
      operation: 'unknown',
      ruc: null,
      name: null,
      ticket: null,
      httpStatus: 404,
      code: null,
      fault: null,
    });
    send(json(404, { error: `the simulator does not serve ${method} ${path}` }));
    return;
  }
  const { outcome, fault: applied } = sim.respond(route);
  const entry = {
    method,
    path,
    operation: route.operation,
    ruc: route.subject?.ruc ?? null,
    name: route.name,
    ticket: route.ticket,
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
