// Longer than 400 lines: one harness for docker-compose.yml's processes (PostgreSQL, Temporal server, S3, api, worker,
// simulator) that starts, kills and restarts them in compose's order; the order and the shared ports read as one.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { freePort, waitForPort } from '../../runtime/ports';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../runtime/postgres';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { loadConfig } from '../../core/config';
import { startTestS3, type TestS3 } from './s3';
import { buildCompiledLayout } from './compiled-layout';

/**
 * docker-compose.yml's production shape without Docker, for `npm run test:production` and `npm run bench:cost`:
 * Temporal server (the compose version, built from the Go module proxy by deploy/temporal/build-server.sh) on one
 * PostgreSQL that also holds chasqui's database, set up by the very scripts compose runs (deploy/temporal/*.sh),
 * then `chasqui migrate`, and `chasqui api`, `chasqui worker` and `chasqui simulator` each in its own process.
 */

const ROOT = path.resolve(__dirname, '../..');
const DEPLOY = path.join(ROOT, 'deploy/temporal');
const run = promisify(execFile);

export const TASK_QUEUE = 'chasqui';
export const NAMESPACE = 'default';

export type Role = 'api' | 'worker' | 'simulator' | 'temporal' | 'postgres';

export interface ShapeProcess {
  role: Role;
  child: ChildProcess;
  pid: number;
  logFile: string;
}

export interface ShapeOptions {
  /** LOG_LEVEL of chasqui's processes (info: their logs land in the run folder; warn for benchmarks). */
  logLevel?: string;
  /** Extra environment for chasqui's api and worker processes. */
  env?: Record<string, string>;
  /** Progress lines (the build, each step): a long run is never silent. */
  say?: (line: string) => void;
  /**
   * Where api and worker keep signed XML and CDRs: `postgres` (the default, the rows) or `s3`, a real S3-compatible
   * server (versitygw, runtime/s3-server.ts) as compose's `s3` service, a process of this one's over the run folder.
   */
  files?: 'postgres' | 's3';
  /**
   * What chasqui's processes run: `compiled` (the default), the image's layout built by `npm run build` into the run
   * folder; `sources`, the clone's TypeScript through tsx, as in development.
   */
  layout?: 'compiled' | 'sources';
}

/** The Temporal server and SQL tool of the compose version, built once into a cache outside the clone. */
export async function temporalServerDir(say: (line: string) => void = () => undefined): Promise<string> {
  const started = Date.now();
  const child = spawn(path.join(DEPLOY, 'build-server.sh'), [], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b: Buffer) => {
    err += b;
    for (const line of b.toString().split('\n')) if (line.startsWith('build-server:')) say(line);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`deploy/temporal/build-server.sh failed (${code}):\n${err.slice(-3000)}`);
  say(`temporal server ready in ${((Date.now() - started) / 1000).toFixed(0)} s (${out.trim()})`);
  return out.trim();
}

export class ProductionShape {
  readonly processes: ShapeProcess[] = [];
  readonly apiUrls: string[] = [];
  temporalProcess: ShapeProcess | null = null;
  simulatorUrl = '';
  readonly masterKey = randomBytes(32).toString('base64');
  readonly accountToken = `prod-shape-${randomBytes(12).toString('hex')}`;
  private temporalEnv: NodeJS.ProcessEnv = {};
  private client: Client | null = null;
  /** The S3-compatible server and its bucket when `files: 's3'`. */
  s3: TestS3 | null = null;

  private constructor(
    readonly runDir: string,
    readonly serverDir: string,
    private pg: EmbeddedPostgresHandle,
    readonly pgPort: number,
    readonly temporalAddress: string,
    private readonly options: ShapeOptions,
    /** The folder chasqui's processes run in (the image's /app): the compiled layout, or the clone. */
    readonly appDir: string,
  ) {}

  private get bin(): string {
    return path.join(this.appDir, 'bin/chasqui');
  }

  /** Builds (or reuses) the server, then brings the whole shape up in compose's order. */
  static async start(options: ShapeOptions = {}): Promise<ProductionShape> {
    const say = options.say ?? (() => undefined);
    const serverDir = await temporalServerDir(say);
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-production-'));
    fs.chmodSync(runDir, 0o755);
    const pgPort = await freePort();
    // persistent: fsync on, as a real deployment runs; the folder is removed by stop().
    const pg = await startEmbeddedPostgres({ dataDir: path.join(runDir, 'postgres'), port: pgPort, persistent: true });
    const frontendPort = await freePort();
    const appDir = options.layout === 'sources' ? ROOT : path.join(runDir, 'app');
    const shape = new ProductionShape(runDir, serverDir, pg, pgPort, `127.0.0.1:${frontendPort}`, options, appDir);
    try {
      if (appDir !== ROOT) {
        say('build: npm run build (the compiled layout the image runs)');
        await buildCompiledLayout(appDir);
      }
      if (options.files === 's3') {
        shape.s3 = await startTestS3({ dataDir: path.join(runDir, 's3') });
        say(`s3: versitygw on ${shape.s3.server.endpoint}, ${shape.s3.env.CHASQUI_FILES_URL}`);
      }
      say('temporal-schema: deploy/temporal/setup-postgres.sh');
      await shape.script('setup-postgres.sh', {
        POSTGRES_SEEDS: '127.0.0.1',
        DB_PORT: String(pgPort),
        POSTGRES_USER: 'postgres',
        POSTGRES_PWD: 'chasqui',
        TEMPORAL_SCHEMA_DIR: path.join(serverDir, 'schema'),
      });
      shape.temporalEnv = await temporalServerEnv(serverDir, pgPort, frontendPort);
      say(`temporal: temporal-server start on ${shape.temporalAddress}`);
      await shape.startTemporal();
      say('temporal-namespace: deploy/temporal/create-namespace.sh');
      await shape.script('create-namespace.sh', {
        TEMPORAL_ADDRESS: shape.temporalAddress,
        TEMPORAL_NAMESPACE: NAMESPACE,
      });
      say('migrate: chasqui migrate');
      await run(process.execPath, [shape.bin, 'migrate'], { cwd: appDir, env: shape.chasquiEnv() });
      const simPort = await freePort();
      // The suites issue fixtures with old dates (CHASQUI_SENDING_WINDOW_DAYS=0 on chasqui's side): SUNAT's window off here too.
      await shape.spawn('simulator', ['simulator', '--port', String(simPort), '--sending-window-days', '0'], {});
      await waitForPort('127.0.0.1', simPort, 30_000);
      shape.simulatorUrl = `http://127.0.0.1:${simPort}`;
      say(`simulator: ${shape.simulatorUrl}`);
      return shape;
    } catch (err) {
      await shape.stop();
      throw err;
    }
  }

  /** A deploy script exactly as compose runs it, with the binaries of this machine on PATH. */
  async script(name: string, env: Record<string, string>): Promise<string> {
    // The deploy scripts use the `temporal` CLI as the admin-tools image does: found or fetched like npm start's.
    const config = loadConfig();
    const cli = await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
    const PATH = [this.serverDir, process.env.PATH].join(path.delimiter);
    try {
      const { stdout } = await run('sh', [path.join(DEPLOY, name)], {
        env: { ...process.env, PATH, TEMPORAL_CLI: cli, ...env },
        timeout: 300_000,
      });
      return stdout;
    } catch (err: any) {
      throw new Error(`deploy/temporal/${name} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    }
  }

  pgUrl(database = 'chasqui'): string {
    return `postgres://postgres:chasqui@127.0.0.1:${this.pgPort}/${database}`;
  }

  /** What the image (its ENV lines) and compose's x-chasqui-env give api and worker, pointed at this machine's services. */
  chasquiEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env))
      if (name.startsWith('CHASQUI_') || name.startsWith('SUNAT_') || name === 'PORT') delete env[name];
    return {
      ...env,
      ...imageEnv(),
      NODE_ENV: 'production',
      LOG_LEVEL: this.options.logLevel ?? 'info',
      DATABASE_URL: this.pgUrl(),
      TEMPORAL_ADDRESS: this.temporalAddress,
      TEMPORAL_NAMESPACE: NAMESPACE,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      CHASQUI_MASTER_KEY: this.masterKey,
      CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN: this.accountToken,
      ...(this.simulatorUrl ? { CHASQUI_AUTHORITY_URL: this.simulatorUrl, CHASQUI_PORTAL_URL: this.simulatorUrl } : {}),
      ...this.s3?.env,
      ...this.options.env,
      ...extra,
    };
  }

  private async spawn(role: Role, args: string[], env: Record<string, string>): Promise<ShapeProcess> {
    const logFile = path.join(this.runDir, `${role}-${this.processes.filter((p) => p.role === role).length + 1}.log`);
    const out = fs.openSync(logFile, 'a');
    const child =
      role === 'temporal'
        ? spawn(path.join(this.serverDir, 'temporal-server'), ['start'], {
            env: this.temporalEnv,
            stdio: ['ignore', out, out],
          })
        : spawn(process.execPath, [this.bin, ...args], {
            cwd: this.appDir,
            env: this.chasquiEnv(env),
            stdio: ['ignore', out, out],
          });
    fs.closeSync(out);
    const proc = { role, child, pid: child.pid!, logFile };
    this.processes.push(proc);
    return proc;
  }

  /** Starts (or restarts, on the same ports and database) the Temporal server; resolves once it serves the namespace. */
  async startTemporal(): Promise<ShapeProcess> {
    this.temporalProcess = await this.spawn('temporal', [], {});
    const proc = this.temporalProcess;
    const exited = new Promise<never>((_, reject) =>
      proc.child.once('exit', (code) => reject(new Error(`temporal-server exited (${code}):\n${tail(proc.logFile)}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([this.untilServing(), exited]);
    return proc;
  }

  private async untilServing(): Promise<void> {
    const [host, port] = this.temporalAddress.split(':');
    await waitForPort(host, Number(port), 120_000);
    const connection = await Connection.connect({ address: this.temporalAddress, connectTimeout: '20s' });
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        try {
          await connection.workflowService.getSystemInfo({});
          return;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    } finally {
      await connection.close();
    }
  }

  async temporalClient(): Promise<Client> {
    this.client ??= new Client({
      connection: await Connection.connect({ address: this.temporalAddress }),
      namespace: NAMESPACE,
    });
    return this.client;
  }

  /** `chasqui api` on a free port; resolves once /readyz answers 200. */
  async startApi(env: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    const proc = await this.spawn('api', ['api'], { PORT: String(port), HOST: '127.0.0.1', ...env });
    const url = `http://127.0.0.1:${port}`;
    await until(
      `chasqui api (pid ${proc.pid}) ready`,
      proc,
      async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok === true,
      60_000,
    );
    this.apiUrls.push(url);
    return url;
  }

  /** `chasqui worker`; resolves once it polls the task queue (Temporal lists it by its identity, pid@host). */
  async startWorker(env: Record<string, string> = {}): Promise<ShapeProcess> {
    // Each worker serves its own /metrics: on one machine they need a port each (compose gives each its container).
    const proc = await this.spawn('worker', ['worker'], {
      ...composeServiceEnv('worker'),
      CHASQUI_METRICS_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      ...env,
    });
    await until(
      `chasqui worker (pid ${proc.pid}) polling ${TASK_QUEUE}`,
      proc,
      async () => (await this.pollerIdentities()).includes(identityOf(proc)),
      90_000,
    );
    return proc;
  }

  /** Identities polling the workflow task queue now. */
  async pollerIdentities(): Promise<string[]> {
    const client = await this.temporalClient();
    const answer = await client.workflowService.describeTaskQueue({
      namespace: NAMESPACE,
      taskQueue: { name: TASK_QUEUE },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    return (answer.pollers ?? []).map((p) => p.identity ?? '');
  }

  /** kill -9 and wait for the exit (the process is gone, nothing flushed). */
  async kill(proc: ShapeProcess): Promise<void> {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
    const gone = new Promise((resolve) => proc.child.once('exit', resolve));
    proc.child.kill('SIGKILL');
    await gone;
  }

  alive(role: Role): ShapeProcess[] {
    return this.processes.filter((p) => p.role === role && p.child.exitCode === null && p.child.signalCode === null);
  }

  /** SIGTERM (chasqui's ordered shutdown), SIGKILL after 15 s; resolves once the process is gone. */
  private terminate(proc: ShapeProcess): Promise<void> {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000);
      proc.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      proc.child.kill('SIGTERM');
    });
  }

  /** Stops every process of these roles, in this order, each role's processes together. */
  async stopRoles(order: Role[]): Promise<void> {
    for (const role of order) await Promise.all(this.alive(role).map((p) => this.terminate(p)));
    if (order.includes('api')) this.apiUrls.length = 0;
  }

  /**
   * The data folder of the one PostgreSQL (chasqui's database and Temporal's two) with the server stopped: a
   * filesystem-level backup or restore (PostgreSQL's docs, "File System Level Backup"). Everything using the database
   * must be stopped first; the server starts again on the same port.
   */
  async withPostgresStopped(work: (dataDir: string) => void): Promise<void> {
    await this.pg.stop();
    work(path.join(this.runDir, 'postgres'));
    this.pg = await startEmbeddedPostgres({
      dataDir: path.join(this.runDir, 'postgres'),
      port: this.pgPort,
      persistent: true,
    });
  }

  /**
   * The S3 server's folder (its buckets, their metadata) with the server stopped: the bucket's backup or restore as
   * a copy of its volume; the server starts again on the same port.
   */
  async withS3Stopped(work: (dataDir: string) => void): Promise<void> {
    await this.s3!.server.kill();
    work(this.s3!.dataDir);
    await this.s3!.server.restart();
  }

  async stop(): Promise<void> {
    await this.client?.connection.close().catch(() => undefined);
    // chasqui first (SIGTERM: ordered shutdown), then Temporal, then PostgreSQL and the S3 server.
    await this.stopRoles(['api', 'worker', 'simulator', 'temporal']);
    await this.pg.stop().catch(() => undefined);
    await this.s3?.stop().catch(() => undefined);
    if (!process.env.KEEP_PRODUCTION_RUN) fs.rmSync(this.runDir, { recursive: true, force: true });
  }
}

/** The Dockerfile's `ENV` settings (Node's heap flags, malloc arenas): the processes here run as the image runs them. */
export function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('\n')) {
    if (!line.startsWith('ENV ')) continue;
    for (const [, name, quoted, bare] of line.slice(4).matchAll(/(\w+)=(?:"([^"]*)"|(\S+))/g))
      env[name] = quoted ?? bare;
  }
  return env;
}

/** What docker-compose.yml's service sets beyond x-chasqui-env (`NAME: "value"` lines of its environment). */
export function composeServiceEnv(service: string): Record<string, string> {
  const compose = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const block = new RegExp(`\\n  ${service}:\\n([\\s\\S]*?)(?=\\n  \\w|$)`).exec(compose)?.[1] ?? '';
  const env: Record<string, string> = {};
  for (const [, name, value] of block.matchAll(/^ {6}([A-Z_]+): "([^"]*)"$/gm)) env[name] = value;
  return env;
}

export function identityOf(proc: ShapeProcess): string {
  return `${proc.pid}@${os.hostname()}`;
}

/** The environment temporalio/server's image gives the server in docker-compose.yml, with free ports for one host. */
async function temporalServerEnv(serverDir: string, pgPort: number, frontendPort: number): Promise<NodeJS.ProcessEnv> {
  const ports: Record<string, number> = { FRONTEND_GRPC_PORT: frontendPort };
  for (const name of [
    'FRONTEND_HTTP_PORT',
    'FRONTEND_MEMBERSHIP_PORT',
    'HISTORY_GRPC_PORT',
    'HISTORY_MEMBERSHIP_PORT',
    'MATCHING_GRPC_PORT',
    'MATCHING_MEMBERSHIP_PORT',
    'WORKER_GRPC_PORT',
    'WORKER_MEMBERSHIP_PORT',
  ])
    ports[name] = name.endsWith('MEMBERSHIP_PORT') ? await freeMembershipPort() : await freePort();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DB: 'postgres12',
    DB_PORT: String(pgPort),
    POSTGRES_USER: 'postgres',
    POSTGRES_PWD: 'chasqui',
    POSTGRES_SEEDS: '127.0.0.1',
    BIND_ON_IP: '127.0.0.1',
    DYNAMIC_CONFIG_FILE_PATH: path.join(DEPLOY, 'development-sql.yaml'),
    LOG_LEVEL: 'warn',
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
}

/**
 * Temporal stores membership ports in a PostgreSQL smallint (cluster_membership.rpc_port): above 32767 the server
 * dies at start ("out of range for type smallint"), and the kernel's ephemeral ports start at 32768.
 */
async function freeMembershipPort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below 32768 for Temporal membership');
}

async function until(what: string, proc: ShapeProcess, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`${what}: the process exited:\n${tail(proc.logFile)}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${ms / 1000} s:\n${tail(proc.logFile)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function tail(file: string, chars = 3000): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}
