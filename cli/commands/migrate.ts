import { ConfigError, loadConfig } from '../../core/config';
import { createDb, migrate } from '../../db/knex';

export async function migrateCommand(): Promise<number> {
  const config = loadConfig();
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for chasqui migrate');
  const db = createDb(config.databaseUrl);
  try {
    const applied = await migrate(db);
    console.log(
      applied.length ? `applied ${applied.length} migrations:\n  ${applied.join('\n  ')}` : 'database is up to date',
    );
    return 0;
  } finally {
    await db.destroy();
  }
}
