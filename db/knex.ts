import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { logger } from '../core/logger';

// A SQL `date` (issue dates) stays the 'YYYY-MM-DD' text it is: turning it into a JS Date would shift it by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

/** A column list written out (`*` is refused in a statement, see `statement`). */
const STAR = /\bselect\s+\*|\.\*|\breturning\s+\*/i;

/**
 * A statement of the per-document path, written once in PostgreSQL's own terms (`$1`, `$2`…) and run as a named
 * prepared statement: PostgreSQL parses and plans it once per connection (a third of its CPU per document when each
 * call was parsed anew), and node skips knex's builder, runner and response handling (≈ 55 µs of CPU per query, 0.1 ms
 * with the query's compilation; docs/benchmarks-history.md). The name is the label plus a hash of the text.
 * It must name its columns: a prepared `*` keeps the column list of the day it was prepared, and PostgreSQL refuses to
 * run it once a migration adds a column ("cached plan must not change result type").
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

export function statement(label: string, text: string): Statement {
  if (STAR.test(text)) throw new Error(`statement ${label} selects * (name its columns): ${text}`);
  return { name: `${label}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`, text };
}

interface PooledConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a statement on a connection of knex's pool, or on the transaction's own connection when `db` is a transaction
 * (knex's transaction client hands out that connection and keeps it), and returns its rows.
 */
export async function run<R>(db: Db | Knex.Transaction, statement: Statement, values: unknown[]): Promise<R[]> {
  const client = db.client as {
    acquireConnection(): Promise<PooledConnection>;
    releaseConnection(connection: PooledConnection): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ name: statement.name, text: statement.text, values })).rows as R[];
  } finally {
    await client.releaseConnection(connection);
  }
}

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
      deprecate: (method: string, alternative: string) =>
        logger.warn({ component: 'knex' }, `${method} is deprecated, use ${alternative}`),
      debug: () => undefined,
    },
  });
}

interface MigrationFile {
  /** Its name in knex_migrations: the source file's (`….ts`), as recorded since the first deployment. */
  file: string;
  path: string;
}

/**
 * The files of db/migrations this process runs: the TypeScript sources through tsx, or the compiled layout's `.js`
 * (npm run build). Either way a migration keeps its `.ts` name, so a database migrated by one is current for the other.
 */
const migrationSource: Knex.MigrationSource<MigrationFile> = {
  async getMigrations() {
    const dir = path.join(__dirname, 'migrations');
    const ext = path.extname(__filename);
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(ext) && !name.endsWith('.d.ts'))
      .sort()
      .map((name) => ({ file: `${path.basename(name, ext)}.ts`, path: path.join(dir, name) }));
  },
  getMigrationName: (migration) => migration.file,
  getMigration: async (migration) => require(migration.path),
};

export const migrationConfig: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

/** Applies pending migrations; safe to call from several processes at once (knex holds a lock table). */
export async function migrate(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest(migrationConfig);
  return applied as string[];
}
