import { ConfigError, loadConfig, secretBoxFrom } from '../../core/config';
import { logger } from '../../core/logger';
import { openDatabase, startMetricsServer, startWorker } from '../../runtime/services';
import { stopAll, untilShutdownSignal } from '../lifecycle';

/** Production worker process: runs the workflows and activities of the chasqui task queue. */
export async function workerCommand(): Promise<number> {
  const config = loadConfig();
  const secrets = secretBoxFrom(config);
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for chasqui worker');
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is required for chasqui worker');
  const db = await openDatabase(config.databaseUrl, { migrate: false });
  const worker = await startWorker(config, config.temporal.address, db, secrets);
  const metrics = await startMetricsServer(config.metricsPort, config.host);
  logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, metrics: metrics.url }, 'chasqui worker running');
  const stopped = await Promise.race([untilShutdownSignal(), worker.running.then(() => 'worker-exit' as const)]);
  await stopAll([
    ['metrics', metrics.stop],
    ['worker', worker.stop],
    ['database pool', () => db.destroy()],
  ]);
  return stopped === 'worker-exit' ? 1 : 0;
}
