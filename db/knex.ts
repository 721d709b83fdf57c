import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// A SQL `date` (issue dates) stays the 'YYYY-MM-DD' text it is: turning it into a JS Date would shift it by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

export function createDb(databaseUrl: string, pool: { min?: number; max?: number } = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    migrations: migrationConfig,
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
