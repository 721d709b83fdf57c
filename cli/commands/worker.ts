import { ConfigError, loadConfig, secretBoxFrom } from '../../core/config';
import { logger } from '../../core/logger';
import { createDb } from '../../db/knex';
import {
  databaseHost,
  lazyTemporalClient,
  startMetricsServer,
  startWorker,
  StoppedWhileWaiting,
  untilReachable,
} from '../../runtime/services';
import { checkAtStart, logRuleCalendar, reportRuntimeSupport } from '../../runtime/start-checks';
import { dependencyChecks, readiness } from '../../api/health';
import { onShutdownSignal, stopAll } from '../lifecycle';
import { openDocumentFiles } from '../../files/documents';

/**
 * Production worker process: runs the workflows and activities of the chasqui task queue. Started before PostgreSQL
 * or Temporal is reachable, it retries with growing waits, logging each try, instead of exiting.
 */
export async function workerCommand(): Promise<number> {
  const config = loadConfig();
  reportRuntimeSupport();
  logRuleCalendar(config.rules);
  const secrets = secretBoxFrom(config);
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for chasqui worker');
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is required for chasqui worker');
  const address = config.temporal.address;
  const shutdown = onShutdownSignal();
  const db = createDb(config.databaseUrl);
  const files = openDocumentFiles(config.files);
  // Its own client for the checks: /readyz answers (503, naming what is missing) while the worker waits.
  const probe = lazyTemporalClient(config, address);
  const readinessDeps = {
    db,
    temporal: probe,
    secrets,
    namespace: config.temporal.namespace,
    files: files.store,
  };
  const metrics = await startMetricsServer(config.metricsPort, config.host, () => readiness(readinessDeps));
  const stopBase: Parameters<typeof stopAll>[0] = [
    ['metrics', metrics.stop],
    ['temporal client', () => probe.connection.close()],
  ];
  const stopStores: Parameters<typeof stopAll>[0] = [
    ['file store', () => files.close()],
    ['database pool', () => db.destroy()],
  ];
  let worker;
  try {
    await untilReachable(
      'PostgreSQL',
      databaseHost(config.databaseUrl),
      () => dependencyChecks.database(db),
      shutdown.signal,
    );
    await untilReachable('Temporal', address, () => dependencyChecks.temporal(probe), shutdown.signal);
    await checkAtStart(readinessDeps, shutdown.signal);
    worker = await untilReachable(
      'Temporal',
      address,
      () => startWorker(config, address, db, files, secrets),
      shutdown.signal,
    );
  } catch (err) {
    await stopAll([...stopBase, ...stopStores]);
    if (err instanceof StoppedWhileWaiting) return 0;
    throw err;
  }
  logger.info(
    { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, metrics: metrics.url },
    'chasqui worker running',
  );
  const stopped = await Promise.race([shutdown.requested, worker.running.then(() => 'worker-exit' as const)]);
  await stopAll([stopBase[0], ['worker', worker.stop], stopBase[1], ...stopStores]);
  return stopped === 'worker-exit' ? 1 : 0;
}
