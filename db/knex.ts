import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { logger } from '../core/logger';

// A SQL `date` (issue dates) stays the 'YYYY-MM-DD' text it is: turning it into a JS Date would shift it by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

export function createDb(databaseUrl: string, pool: { min?: number; max?: number } = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    migrations: migrationConfig,
    // knex's own warnings carry stack traces on the console; one line in chasqui's log says the same.
    log: {
      warn: (message: unknown) => logger.warn({ component: 'knex' }, String(message).split('\n')[0]),
      error: (message: unknown) => logger.error({ component: 'knex' }, String(message).split('\n')[0]),
      deprecate: (method: string, alternative: string) => logger.warn({ component: 'knex' }, `${method} is deprecated, use ${alternative}`),
      debug: () => undefined,
    },
  });
}

export const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(__dirname, 'migrations'),
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

/** Applies pending migrations; safe to call from several processes at once (knex holds a lock table). */
export async function migrate(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest(migrationConfig);
  return applied as string[];
}
