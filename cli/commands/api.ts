import { ConfigError, loadConfig, secretBoxFrom } from '../../core/config';
import { logger } from '../../core/logger';
import { connectTemporal, openDatabase, startApi } from '../../runtime/services';
import { ensureBootstrapAccount } from '../../db/accounts';
import { stopAll, untilShutdownSignal } from '../lifecycle';

/** Production API process: everything from the environment, no embedded services, migrations left to `chasqui migrate`. */
export async function apiCommand(): Promise<number> {
  const config = loadConfig();
  const secrets = secretBoxFrom(config);
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for chasqui api');
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is required for chasqui api');
  const db = await openDatabase(config.databaseUrl, { migrate: false });
  if (config.bootstrapAccountToken) await ensureBootstrapAccount(db, config.bootstrapAccountToken);
  const temporal = await connectTemporal(config, config.temporal.address);
  const api = await startApi(config, db, temporal, secrets, config.port, config.host);
  logger.info({ url: api.url }, 'chasqui api listening');
  await untilShutdownSignal();
  await stopAll([
    ['api', api.stop],
    ['temporal client', () => temporal.connection.close()],
    ['database pool', () => db.destroy()],
  ]);
  return 0;
}
