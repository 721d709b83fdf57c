import { loadConfig, type Config } from '../../core/config';
import { createDb, type Db } from '../../db/knex';
import { embeddedPostgresUrl } from '../../runtime/postgres';

/**
 * For one-shot commands (accounts, …): DATABASE_URL, or else the embedded PostgreSQL of a running `npm start`
 * (same CHASQUI_EMBEDDED_PG_PORT), so a person can follow the README in a second terminal.
 */
export async function withDatabase(run: (deps: { db: Db; config: Config }) => Promise<number>): Promise<number> {
  const config = loadConfig();
  const url = config.databaseUrl ?? embeddedPostgresUrl(config.embeddedPostgresPort);
  const db = createDb(url, { max: 2 });
  try {
    try {
      await db.raw('select 1');
    } catch (err) {
      console.error(
        config.databaseUrl
          ? `chasqui: cannot reach DATABASE_URL (${(err as Error).message})`
          : `chasqui: no DATABASE_URL and no embedded PostgreSQL on port ${config.embeddedPostgresPort}: start chasqui first (npm start)`,
      );
      return 1;
    }
    return await run({ db, config });
  } finally {
    await db.destroy();
  }
}
