import path from 'node:path';
import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { logger } from '../core/logger';

// A SQL `date` (issue dates) stays the 'YYYY-MM-DD' text it is: turning it into a JS Date would shift it by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

// knex's PostgreSQL client (knex has no typings for its dialect classes).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const KnexPgClient = require('knex/lib/dialects/postgres/index.js') as new (config: Knex.Config) => object;

/** A column list written out in a prepared statement: `*` there is refused (see `PreparingPgClient`). */
const STAR = /\bselect\s+\*|\.\*|\breturning\s+\*/i;
/** Statement names whose text passed that check (module-wide: knex builds a transaction's client without our fields). */
const checkedNames = new Set<string>();

/**
 * knex's PostgreSQL client, plus named prepared statements for the queries that ask with `prepared(query, label)`:
 * PostgreSQL then parses and plans them once per connection instead of on every call (the per-document statements;
 * about a third of chasqui's database CPU per document, docs/benchmarks.md). The name is the label plus a hash of the
 * text, so a query whose text varies gets one statement per variant and never another's plan.
 * Such a query must name its columns: a prepared `*` keeps the column list of the day it was prepared, and PostgreSQL
 * refuses to run it once a migration adds a column ("cached plan must not change result type").
 */
class PreparingPgClient extends KnexPgClient {
  _query(connection: unknown, obj: { sql: string; options?: Record<string, unknown> }): Promise<unknown> {
    const label = obj.options?.prepare;
    if (typeof label === 'string') {
      const { prepare: _, ...options } = obj.options!;
      const name = `${label}_${createHash('sha1').update(obj.sql).digest('hex').slice(0, 12)}`;
      if (!checkedNames.has(name)) {
        if (STAR.test(obj.sql)) throw new Error(`prepared statement ${label} selects * (name its columns): ${obj.sql}`);
        checkedNames.add(name);
      }
      obj.options = { ...options, name };
    }
    return (KnexPgClient.prototype as { _query(c: unknown, o: unknown): Promise<unknown> })._query.call(this, connection, obj);
  }
}

/** Runs `query` as a named prepared statement (one per connection and text variant); it must name its columns. */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q, label: string): Q {
  return query.options({ prepare: label }) as Q;
}

export function createDb(databaseUrl: string, pool: { min?: number; max?: number } = {}): Db {
  return knexFactory({
    client: PreparingPgClient as unknown as typeof knexFactory.Client,
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
