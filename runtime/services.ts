import http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, Runtime, DefaultLogger, type LogLevel } from '@temporalio/worker';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import { logger } from '../core/logger';
import { createDb, migrate, type Db } from '../db/knex';
import { createApp } from '../api/app';
import { createActivities } from '../activities';

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

export async function connectTemporal(config: Config, address: string): Promise<Client> {
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  return new Client({ connection, namespace: config.temporal.namespace });
}

let runtimeInstalled = false;

/**
 * Temporal's core logs go through chasqui's logger (warn and above; errors only in tests), so operators see one JSON
 * stream. Must run before the first Temporal connection of the process.
 */
export function installTemporalRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level = (process.env.TEMPORAL_LOG_LEVEL as LogLevel) ?? (process.env.NODE_ENV === 'test' ? 'ERROR' : 'WARN');
  Runtime.install({
    // chasqui's entries handle SIGINT/SIGTERM themselves and stop the worker in order.
    shutdownSignals: [],
    // The native core's own lines are forwarded too, instead of going to the console in their own format.
    telemetryOptions: { logging: { filter: { core: level, other: 'ERROR' }, forward: {} } },
    logger: new DefaultLogger(level, (entry) => {
      const pinoLevel = entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : 'debug';
      logger[pinoLevel]({ component: 'temporal-worker', ...entry.meta }, entry.message);
    }),
  });
}

export interface WorkerHandle {
  worker: Worker;
  /** Resolves when the worker has stopped (after shutdown() or a fatal error). */
  running: Promise<void>;
  stop(): Promise<void>;
}

export async function startWorker(config: Config, address: string, db: Db, secrets: SecretBox): Promise<WorkerHandle> {
  installTemporalRuntime();
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({ config, db, secrets }),
  });
  const running = worker.run().finally(() => connection.close());
  return {
    worker,
    running,
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch((err) => logger.error({ err }, 'worker stopped with an error'));
    },
  };
}

export interface ApiHandle {
  server: http.Server;
  url: string;
  stop(): Promise<void>;
}

export async function startApi(config: Config, db: Db, temporal: Client, secrets: SecretBox, port: number, host: string): Promise<ApiHandle> {
  const app = createApp({ config, db, temporal, secrets });
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
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
