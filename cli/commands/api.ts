import { ConfigError, loadConfig, secretBoxFrom } from '../../core/config';
import { logger } from '../../core/logger';
import { logRuleCalendar, reportRuntimeSupport } from '../../runtime/start-checks';
import { createDb } from '../../db/knex';
import {
  databaseHost,
  lazyTemporalClient,
  startApi,
  StoppedWhileWaiting,
  untilReachable,
} from '../../runtime/services';
import { dependencyChecks } from '../../api/health';
import { ensureBootstrapAccount } from '../../db/accounts';
import { openDocumentFiles } from '../../files/documents';
import { onShutdownSignal, stopAll } from '../lifecycle';

/**
 * Production API process: everything from the environment, no embedded services, migrations left to `chasqui migrate`.
 * It listens at once; while PostgreSQL or Temporal is unreachable it retries with growing waits, logging each try,
 * and `/readyz` answers 503 naming what is missing.
 */
export async function apiCommand(): Promise<number> {
  const config = loadConfig();
  reportRuntimeSupport();
  logRuleCalendar(config.rules);
  const secrets = secretBoxFrom(config);
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for chasqui api');
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is required for chasqui api');
  const shutdown = onShutdownSignal();
  const db = createDb(config.databaseUrl);
  const files = openDocumentFiles(config.files);
  const temporal = lazyTemporalClient(config, config.temporal.address);
  const api = await startApi(config, db, files, temporal, secrets, config.port, config.host);
  const stops: Parameters<typeof stopAll>[0] = [
    ['api', api.stop],
    ['temporal client', () => temporal.connection.close()],
    ['file store', () => files.close()],
    ['database pool', () => db.destroy()],
  ];
  logger.info({ url: api.url }, 'chasqui api listening; checking PostgreSQL and Temporal (see /readyz)');
  try {
    await Promise.all([
      untilReachable(
        'PostgreSQL',
        databaseHost(config.databaseUrl),
        () => dependencyChecks.database(db),
        shutdown.signal,
      ),
      untilReachable('Temporal', config.temporal.address, () => dependencyChecks.temporal(temporal), shutdown.signal),
    ]);
    if (config.bootstrapAccountToken) await ensureBootstrapAccount(db, config.bootstrapAccountToken);
    logger.info({ url: api.url }, 'chasqui api ready');
  } catch (err) {
    if (!(err instanceof StoppedWhileWaiting)) {
      await stopAll(stops);
      throw err;
    }
  }
  await shutdown.requested;
  await stopAll(stops);
  return 0;
}
