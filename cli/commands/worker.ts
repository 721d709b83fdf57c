import { ConfigError, loadConfig, secretBoxFrom } from '../../core/config';
import { logger } from '../../core/logger';
import { createDb } from '../../db/knex';
import { databaseHost, startMetricsServer, startWorker, StoppedWhileWaiting, untilReachable } from '../../runtime/services';
import { dependencyChecks } from '../../api/health';
import { onShutdownSignal, stopAll } from '../lifecycle';

/**
 * Production worker process: runs the workflows and activities of the chasqui task queue. Started before PostgreSQL
 * or Temporal is reachable, it retries with growing waits, logging each try, instead of exiting.
 */
export async function workerCommand(): Promise<number> {
  const config = loadConfig();
  const secrets = secretBoxFrom(config);
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for chasqui worker');
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is required for chasqui worker');
  const address = config.temporal.address;
  const shutdown = onShutdownSignal();
  const db = createDb(config.databaseUrl);
  let worker;
  try {
    await untilReachable('PostgreSQL', databaseHost(config.databaseUrl), () => dependencyChecks.database(db), shutdown.signal);
    worker = await untilReachable('Temporal', address, () => startWorker(config, address, db, secrets), shutdown.signal);
  } catch (err) {
    await stopAll([['database pool', () => db.destroy()]]);
    if (err instanceof StoppedWhileWaiting) return 0;
    throw err;
  }
  const metrics = await startMetricsServer(config.metricsPort, config.host);
  logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, metrics: metrics.url }, 'chasqui worker running');
  const stopped = await Promise.race([shutdown.requested, worker.running.then(() => 'worker-exit' as const)]);
  await stopAll([
    ['metrics', metrics.stop],
    ['worker', worker.stop],
    ['database pool', () => db.destroy()],
  ]);
  return stopped === 'worker-exit' ? 1 : 0;
}
