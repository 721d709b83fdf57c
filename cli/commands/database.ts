import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../core/config';
import { createDb, type Db } from '../../db/knex';
import { embeddedPostgresUrl, locateEmbeddedPostgres } from '../../runtime/postgres';
import { databaseHost } from '../../runtime/services';

/** The database a command opens and how to name it to the person who ran it (never with the password). */
export interface CommandDatabase {
  url: string;
  label: string;
  /** The embedded server's data folder, which the server must confirm is its own. */
  dataDir: string | null;
}

/** host:port/db of a PostgreSQL URL. */
function where(url: string): string {
  return `${databaseHost(url)}${new URL(url).pathname}`;
}

/**
 * DATABASE_URL, or else the embedded PostgreSQL that `npm start` runs for CHASQUI_DATA_DIR, found by the record it
 * leaves there (runtime/postgres.ts) — never whatever answers on the default port, which may be another chasqui's.
 */
export function commandDatabase(config: Config): CommandDatabase {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, label: `${where(config.databaseUrl)} (DATABASE_URL)`, dataDir: null };
  }
  const dataDir = path.join(config.dataDir, 'postgres');
  const found = locateEmbeddedPostgres(dataDir);
  if (typeof found === 'string') {
    throw new ConfigError(
      `${found}: start chasqui with CHASQUI_DATA_DIR=${config.dataDir} (npm start), or set CHASQUI_DATA_DIR to the ` +
        'data dir of a running one, or DATABASE_URL',
    );
  }
  const url = embeddedPostgresUrl(found.port, found.database, found.socketDir);
  return { url, label: `${where(url)} (embedded PostgreSQL, data in ${found.dataDir})`, dataDir: found.dataDir };
}

/** Refuses a server that is not the recorded one (a pid reused, a port taken over): its data folder tells. */
async function confirmDataDir(db: Db, expected: string): Promise<void> {
  const rows = (await db.raw("select current_setting('data_directory') as dir")) as { rows: { dir: string }[] };
  const real = (dir: string) => (fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir));
  const served = rows.rows[0].dir;
  if (real(served) !== real(expected))
    throw new ConfigError(
      `the port recorded for ${expected} is answered by another PostgreSQL (data in ${served}): start chasqui ` +
        'there again (npm start), or set CHASQUI_DATA_DIR or DATABASE_URL to the one you mean',
    );
}

/**
 * For one-shot commands (accounts, support, keys, …): the database of `commandDatabase`, said on stderr before the
 * answer (stdout stays the answer alone, for --json), so a person in a second terminal sees which one they read.
 */
export async function withDatabase(run: (deps: { db: Db; config: Config }) => Promise<number>): Promise<number> {
  const config = loadConfig();
  const target = commandDatabase(config);
  const db = createDb(target.url, { max: 2 });
  try {
    try {
      await db.raw('select 1');
    } catch (err) {
      const why = `cannot reach ${target.label}: ${(err as Error).message}`;
      throw new ConfigError(target.dataDir ? `${why} (is chasqui still running there? npm start)` : why);
    }
    if (target.dataDir) await confirmDataDir(db, target.dataDir);
    console.error(`chasqui: database ${target.label}`);
    return await run({ db, config });
  } finally {
    await db.destroy();
  }
}
