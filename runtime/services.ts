import http from 'node:http';
import { Client, Connection, ScheduleAlreadyRunning, type ScheduleOptions } from '@temporalio/client';
import { NativeConnection, Worker, Runtime, DefaultLogger, type LogLevel } from '@temporalio/worker';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import type { Lookup } from '../core/net-guard';
import { logger } from '../core/logger';
import { temporalLogLine } from '../core/temporal-log';
import { createDb, migrate, type Db } from '../db/knex';
import type { DocumentFiles } from '../files/documents';
import { reasonOf, readinessAnswer, type Readiness } from '../api/health';
import { WorkflowStarts } from '../api/cpe/workflow-starts';
import { HeavyPool } from '../heavy/pool';
import { createActivities } from '../activities';
import { documentSweeperWorkflow, SWEEPER_SCHEDULE_ID } from '../workflows/sweeper';
import { dailySummaryWorkflow, DAILY_SUMMARY_SCHEDULE_ID } from '../workflows/daily-summary';
import {
  companyChecksWorkflow,
  COMPANY_CHECKS_SCHEDULE_ID,
  type CompanyChecksInput,
} from '../workflows/company-checks';
import { LIMA_TIME_ZONE } from '../core/lima';
import { METRICS_CONTENT_TYPE, metricsText, setTemporalMetricsUrl } from '../core/metrics';
import { freePort } from './ports';
import { createWorkers } from './workers';
import type { Lanes } from './lanes';

/** The pieces every entry (start, api, worker, tests) assembles in the same way. */

export async function openDatabase(url: string, options: { migrate: boolean }): Promise<Db> {
  const db = createDb(url);
  await db.raw('select 1');
  if (options.migrate) {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied }, 'database migrated');
  }
  return db;
}

/**
 * gRPC waits up to 2 minutes between reconnection attempts by default; a Temporal that comes back is noticed within
 * 5 s instead (`chasqui api` started before Temporal, or a Temporal restart).
 */
const RECONNECT = { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 5_000 };

export async function connectTemporal(config: Config, address: string): Promise<Client> {
  const connection = await Connection.connect({ address, connectTimeout: '10s', channelArgs: RECONNECT });
  return new Client({ connection, namespace: config.temporal.namespace });
}

/** A client that connects on first use, for an API that must listen (and say what it waits for) before Temporal is up. */
export function lazyTemporalClient(config: Config, address: string): Client {
  return new Client({
    connection: Connection.lazy({ address, connectTimeout: '3s', channelArgs: RECONNECT }),
    namespace: config.temporal.namespace,
  });
}

/** Thrown by untilReachable when the process is told to stop while it still waits. */
export class StoppedWhileWaiting extends Error {}

/**
 * Retries `attempt` until it succeeds: waits of 1 s doubling up to 30 s, each failed try logged with the reason and
 * the next wait, so an operator sees what chasqui waits for. `signal` (Ctrl-C) ends the wait at once.
 */
export async function untilReachable<T>(
  dependency: string,
  where: string,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    if (signal?.aborted) throw new StoppedWhileWaiting(`stopped while waiting for ${dependency}`);
    try {
      const result = await attempt();
      if (tries > 1) logger.info({ dependency, where, tries }, `${dependency} reachable`);
      return result;
    } catch (err) {
      const retryInSeconds = Math.min(30, 2 ** (tries - 1));
      logger.warn(
        { dependency, where, try: tries, retryInSeconds, reason: reasonOf(err) },
        `${dependency} unreachable; retrying`,
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, retryInSeconds * 1000);
        signal?.addEventListener('abort', done, { once: true });
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
      });
    }
  }
}

/** host:port of a database URL, for logs (never the password). */
export function databaseHost(url: string): string {
  try {
    return new URL(url).host || url.replace(/\/\/[^@]*@/, '//');
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

let runtimeInstalled = false;

/**
 * Temporal's core logs go through chasqui's logger (warn and above; errors only in tests), so operators see one JSON
 * stream; a slow first workflow task names its document (core/temporal-log.ts). Must run before the first Temporal
 * connection of the process. With `metricsAddress`, the SDK's runtime metrics are exported there (loopback) and
 * appended to chasqui's own at /metrics.
 */
export function installTemporalRuntime(metricsAddress?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  if (metricsAddress) setTemporalMetricsUrl(`http://${metricsAddress}/metrics`);
  const level = (process.env.TEMPORAL_LOG_LEVEL as LogLevel) ?? (process.env.NODE_ENV === 'test' ? 'ERROR' : 'WARN');
  Runtime.install({
    // chasqui's entries handle SIGINT/SIGTERM themselves and stop the worker in order.
    shutdownSignals: [],
    // The native core's own lines are forwarded too, instead of going to the console in their own format.
    telemetryOptions: {
      logging: { filter: { core: level, other: 'ERROR' }, forward: {} },
      ...(metricsAddress
        ? {
            metrics: {
              prometheus: { bindAddress: metricsAddress, countersTotalSuffix: true, useSecondsForDurations: true },
            },
          }
        : {}),
    },
    logger: new DefaultLogger(level, (entry) => {
      const line = temporalLogLine({
        level: entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : 'debug',
        message: entry.message,
        meta: { component: 'temporal-worker', ...entry.meta },
      });
      logger[line.level](line.meta, line.message);
    }),
  });
}

/**
 * The schedules every worker keeps (docs/summaries.md, docs/operations.md "Company checks"), one per namespace and
 * task queue: the document sweeper every minute; the daily summary run every day at CHASQUI_SUMMARY_HOUR, Lima
 * time; the company checks every CHASQUI_CHECKS_EVERY.
 */
function schedules(config: Config): ScheduleOptions[] {
  const taskQueue = config.temporal.taskQueue;
  const sweeper = `${SWEEPER_SCHEDULE_ID}-${taskQueue}`;
  const dailySummary = `${DAILY_SUMMARY_SCHEDULE_ID}-${taskQueue}`;
  const companyChecks = `${COMPANY_CHECKS_SCHEDULE_ID}-${taskQueue}`;
  return [
    {
      scheduleId: sweeper,
      spec: { intervals: [{ every: '1 minute' }] },
      action: { type: 'startWorkflow', workflowType: documentSweeperWorkflow, taskQueue, workflowId: `${sweeper}-run` },
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    {
      scheduleId: dailySummary,
      spec: { calendars: [{ hour: config.summary.hour, minute: 0 }], timezone: LIMA_TIME_ZONE },
      action: {
        type: 'startWorkflow',
        workflowType: dailySummaryWorkflow,
        taskQueue,
        workflowId: `${dailySummary}-run`,
      },
      // The daily run only starts the companies' runs; yesterday's company runs still waiting on a ticket never
      // share a receipt with today's.
      policies: { overlap: 'ALLOW_ALL', catchupWindow: '6 hours' },
    },
    {
      scheduleId: companyChecks,
      spec: { intervals: [{ every: config.checks.everyMs }] },
      action: {
        type: 'startWorkflow',
        workflowType: companyChecksWorkflow,
        taskQueue,
        workflowId: `${companyChecks}-run`,
        args: [{ concurrency: config.checks.concurrency }] as [CompanyChecksInput],
      },
      // A run still going when the next is due is left to finish (the next is skipped).
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
    },
  ];
}

/**
 * Creates the worker's schedules, or, when one already exists (several workers start them concurrently), applies
 * a changed hour, interval or concurrency to it.
 */
export async function ensureSchedules(client: Client, config: Config): Promise<void> {
  for (const schedule of schedules(config)) {
    try {
      await client.schedule.create(schedule);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      const { spec, action } = schedule;
      await client.schedule.getHandle(schedule.scheduleId).update((current) => ({ ...current, spec, action }));
    }
  }
}

export interface WorkerHandle {
  /** The worker of each lane: interactive first, then batch when fairness is on (runtime/lanes.ts). */
  workers: Worker[];
  /** The lanes' slots (null with fairness off): what the batch lane holds now. */
  lanes: Lanes | null;
  /** The worker's own connection: a Client on it may ask for eager workflow starts (see `eagerStarter`). */
  connection: NativeConnection;
  /** Resolves when the worker has stopped (after shutdown() or a fatal error). */
  running: Promise<void>;
  stop(): Promise<void>;
}

/** `files` is the entry's, built beside its database (files/documents.ts openDocumentFiles); the entry closes it. */
export async function startWorker(
  config: Config,
  address: string,
  db: Db,
  files: DocumentFiles,
  secrets: SecretBox,
  seams: { lookup?: Lookup } = {},
): Promise<WorkerHandle> {
  installTemporalRuntime(`127.0.0.1:${await freePort()}`);
  const connection = await NativeConnection.connect({ address });
  let temporal: Client | undefined;
  let created: Awaited<ReturnType<typeof createWorkers>>;
  try {
    temporal = await connectTemporal(config, address);
    await ensureSchedules(temporal, config);
    const activities = createActivities({ config, db, files, secrets, temporal, lookup: seams.lookup });
    created = await createWorkers(config, connection, activities);
  } catch (err) {
    // A failed start leaves no open connection behind, so a caller can simply try again.
    await Promise.allSettled([connection.close(), temporal?.connection.close()]);
    throw err;
  }
  const { workers, lanes } = created;
  // One lane's fatal error stops the other: the process's worker is one thing to its supervisor.
  const stopAll = () => workers.forEach((w) => w.getState() === 'RUNNING' && w.shutdown());
  const running = Promise.all(workers.map((w) => w.run().catch((err) => (stopAll(), Promise.reject(err)))))
    .then(() => undefined)
    .finally(() => {
      lanes?.close();
      return Promise.all([connection.close(), temporal!.connection.close()]);
    });
  return {
    workers,
    lanes,
    connection,
    running,
    stop: async () => {
      stopAll();
      await running.catch((err) => logger.error({ err }, 'worker stopped with an error'));
    },
  };
}

export interface ApiHandle {
  server: http.Server;
  url: string;
  workflowStarts: WorkflowStarts;
  heavy: HeavyPool;
  stop(): Promise<void>;
}

/**
 * `chasqui start` runs the API beside its worker: document workflows are then started through the worker's own
 * connection with eager start, so the first workflow task (plan and first send) comes back in the start's answer
 * instead of going through Temporal's matching and a poll: less work for Temporal and one round trip less per document.
 * Temporal falls back to a normal start when the worker has no free slot.
 */
export function eagerStarter(config: Config, worker: WorkerHandle): Client {
  return new Client({ connection: worker.connection, namespace: config.temporal.namespace });
}

/** `files` as startWorker's: `chasqui start` hands both the same. */
export async function startApi(
  config: Config,
  db: Db,
  files: DocumentFiles,
  temporal: Client,
  secrets: SecretBox,
  port: number,
  host: string,
  eagerClient?: Client,
  seams: { lookup?: Lookup; clock?: () => Date } = {},
): Promise<ApiHandle> {
  const workflowStarts = new WorkflowStarts(
    {
      db,
      temporal: eagerClient ?? temporal,
      taskQueue: config.temporal.taskQueue,
      fairness: config.temporal.fairness,
      eager: !!eagerClient,
    },
    { accountBurst: config.temporal.accountBurst, quietMs: config.temporal.lanes.quietMs },
  );
  // Loaded here, not at the top: chasqui worker never serves HTTP and would carry koa, the routes and pdfkit for nothing.
  const { createApp } = require('../api/app') as typeof import('../api/app');
  const heavy = new HeavyPool(config.heavy);
  const app = createApp({
    config,
    db,
    files,
    temporal,
    secrets,
    workflowStarts,
    heavy,
    lookup: seams.lookup,
    clock: seams.clock,
  });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as { port: number };
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    workflowStarts,
    heavy,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await workflowStarts.close();
      await heavy.close();
    },
  };
}

/**
 * The worker's own `GET /metrics` (CHASQUI_METRICS_PORT; the API serves the same text on its port) and, given a
 * readiness, `GET /readyz`: 503 naming what is wrong, as the API's.
 */
export async function startMetricsServer(
  port: number,
  host: string,
  ready?: () => Promise<Readiness>,
): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const route = req.method === 'GET' ? req.url?.split('?')[0] : undefined;
    if (route === '/readyz' && ready) {
      ready().then(
        (checks) => {
          const { status, body } = readinessAnswer(checks);
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        },
        (err: Error) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`readiness unknown: ${err.message}\n`),
      );
      return;
    }
    if (route !== '/metrics') {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(`only GET /metrics${ready ? ' and /readyz' : ''} here\n`);
      return;
    }
    metricsText().then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as { port: number };
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}/metrics`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
