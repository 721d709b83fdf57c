/**
 * bench:cost's two shapes (`npm start` and production, see bench/cost.ts) started and stopped, and the CPU of every
 * process below them read from /proc, by kind (chasqui's roles, PostgreSQL by database, the S3 server, the bench).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Client as PgClient } from 'pg';
import { Client, Connection } from '@temporalio/client';
import { chasquiStartEnv, spawnChasquiStart, stopChasqui } from '../test/support/chasqui-process';
import { ProductionShape } from '../test/support/production-shape';
import { startTestS3 } from '../test/support/s3';
import { embeddedPostgresUrl } from '../runtime/postgres';
import { NODE_ARGS } from './cost-options';
import { descendants, ownCpu, postgresKind, readProcesses, type ProcessInfo } from './proc';

/** The S3 server's process, a child of this one in both shapes. */
export const S3_KIND = 'versitygw (S3)';
export const BENCH = 'bench (load, receiver, floor SDK)';

export interface Shape {
  title: string;
  apiUrl: string;
  temporalAddress: string;
  db: PgClient;
  /** chasqui's database, for what the API does not do (a second account). */
  dbUrl: string;
  accountToken: string;
  /** Processes that are chasqui's (left out of the floor, which is Temporal's). */
  chasquiKinds: Set<string>;
  processes(): { kind: string; info: ProcessInfo }[];
  /** A client of the shape's Temporal server (made once). */
  temporal(): Promise<Client>;
  /** Stops the worker (ordered shutdown) and returns how to start it again; only where it is a process of its own. */
  pauseWorker?(): Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

function lazyClient(address: string): { get(): Promise<Client>; close(): Promise<void> } {
  let client: Client | null = null;
  return {
    get: async () => (client ??= new Client({ connection: await Connection.connect({ address }) })),
    close: async () => void (await client?.connection.close()),
  };
}

const PG_DATABASES = {
  chasqui: 'postgres (chasqui)',
  temporal: 'postgres (temporal)',
  temporal_visibility: 'postgres (temporal)',
};

export function cpuNow(shape: Shape): Map<string, number> {
  const totals = new Map<string, number>();
  for (const { kind, info } of shape.processes()) totals.set(kind, (totals.get(kind) ?? 0) + info.cpu);
  totals.set(BENCH, ownCpu());
  return totals;
}

export const delta = (a: Map<string, number>, b: Map<string, number>) =>
  new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)]));

export async function startShape(
  name: string,
  tlsCaFile: string,
  logLevel: string,
  files: 'postgres' | 's3',
  extraEnv: Record<string, string> = {},
): Promise<Shape> {
  const accountToken = `bench-cost-${randomBytes(12).toString('hex')}`;
  // Rate limit off (0): one company's 400 documents would meet the 120/minute per token.
  const env = {
    CHASQUI_RATE_LIMIT_PER_MINUTE: '0',
    CHASQUI_ACCOUNT_RATE_LIMIT_PER_MINUTE: '0',
    CHASQUI_WEBHOOK_ALLOW_PRIVATE: 'true',
    CHASQUI_WEBHOOK_CA_FILE: tlsCaFile,
    LOG_LEVEL: logLevel,
    ...extraEnv,
  };
  const filesTitle = files === 's3' ? ', files in S3 (versitygw)' : '';
  const title = `(LOG_LEVEL=${logLevel}${filesTitle})`;
  return name === 'start'
    ? startOneProcess(title, env, files, accountToken)
    : startProduction(title, env, files, logLevel);
}

/** `npm start`: one node process (API, worker, simulator) beside Temporal's dev server and embedded PostgreSQL. */
async function startOneProcess(
  title: string,
  env: Record<string, string>,
  files: 'postgres' | 's3',
  accountToken: string,
): Promise<Shape> {
  const started = await chasquiStartEnv();
  const s3 = files === 's3' ? await startTestS3() : null;
  const { child } = await spawnChasquiStart(
    { ...started.env, ...env, ...s3?.env, CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN: accountToken },
    NODE_ARGS,
  );
  const dbUrl = embeddedPostgresUrl(started.pgPort);
  const db = new PgClient({ connectionString: dbUrl });
  await db.connect();
  const temporal = lazyClient(`127.0.0.1:${started.env.TEMPORAL_PORT}`);
  return {
    title: `npm start ${title}: one node process (API + worker + simulator), Temporal dev server (SQLite, WAL), embedded PostgreSQL`,
    apiUrl: started.apiUrl,
    temporalAddress: `127.0.0.1:${started.env.TEMPORAL_PORT}`,
    db,
    dbUrl,
    accountToken,
    chasquiKinds: new Set(['node (API + worker + simulator)', 'postgres (chasqui)', S3_KIND]),
    processes: () => {
      const all = readProcesses();
      return descendants(all, child.pid!)
        .map((info) => ({
          info,
          kind:
            info.pid === child.pid
              ? 'node (API + worker + simulator)'
              : info.name.startsWith('postgres')
                ? postgresKind(info, PG_DATABASES)
                : info.name,
        }))
        .concat(s3 ? s3Processes(all) : []);
    },
    temporal: temporal.get,
    stop: async () => {
      await temporal.close();
      await db.end();
      await stopChasqui(child);
      await s3?.stop();
      fs.rmSync(started.dataDir, { recursive: true, force: true });
    },
  };
}

/** The production shape: chasqui api, worker and simulator as separate processes, Temporal's server on PostgreSQL. */
async function startProduction(
  title: string,
  env: Record<string, string>,
  files: 'postgres' | 's3',
  logLevel: string,
): Promise<Shape> {
  const shape = await ProductionShape.start({ logLevel, env, files, say: (l) => console.error(`  ${l}`) });
  const apiUrl = await shape.startApi();
  await shape.startWorker();
  const db = new PgClient({ connectionString: shape.pgUrl() });
  await db.connect();
  return {
    title: `production ${title}: chasqui api, chasqui worker, chasqui simulator (separate processes), Temporal server 1.30.1 on PostgreSQL`,
    apiUrl,
    temporalAddress: shape.temporalAddress,
    db,
    dbUrl: shape.pgUrl(),
    accountToken: shape.accountToken,
    chasquiKinds: new Set(['api', 'worker', 'simulator', 'postgres (chasqui)', S3_KIND]),
    processes: () => {
      const roles = new Map(
        shape
          .alive('api')
          .concat(shape.alive('worker'), shape.alive('simulator'), shape.alive('temporal'))
          .map((p) => [p.pid, p.role]),
      );
      return descendants(readProcesses(), process.pid)
        .filter((info) => info.pid !== process.pid)
        .map((info) => ({
          info,
          kind:
            roles.get(info.pid) ??
            (info.name.startsWith('postgres')
              ? postgresKind(info, PG_DATABASES)
              : info.name === 'versitygw'
                ? S3_KIND
                : info.name),
        }));
    },
    temporal: () => shape.temporalClient(),
    pauseWorker: async () => {
      await Promise.all(
        shape
          .alive('worker')
          .map((w) => new Promise((resolve) => (w.child.once('exit', resolve), w.child.kill('SIGTERM')))),
      );
      return async () => void (await shape.startWorker());
    },
    stop: async () => {
      await db.end();
      await shape.stop();
    },
  };
}

/** The S3 server (a child of this process) and anything below it. */
function s3Processes(all: Map<number, ProcessInfo>): { kind: string; info: ProcessInfo }[] {
  const server = descendants(all, process.pid).find((info) => info.name === 'versitygw');
  return server ? descendants(all, server.pid).map((info) => ({ info, kind: S3_KIND })) : [];
}
