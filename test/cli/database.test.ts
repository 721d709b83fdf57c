import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../db/knex';
import { freePort } from '../../runtime/ports';
import { embeddedPostgresRecordFile, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../runtime/postgres';
import { CHASQUI_BIN } from '../support/chasqui-process';
import { testConfig } from '../support/services';
import { commandDatabase } from '../../cli/commands/database';

/** A command run by hand, as in a second terminal: no DATABASE_URL, the data dir and port variables given. */
function chasqui(args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env };
  delete childEnv.DATABASE_URL;
  return spawnSync(process.execPath, [CHASQUI_BIN, ...args], { env: childEnv, encoding: 'utf8' });
}

/**
 * Commands say which database they read, and read the embedded PostgreSQL of their CHASQUI_DATA_DIR (found by the
 * record it leaves there), never whatever answers on the default or exported port (issue 34: `support find` answered
 * with another chasqui's documents).
 */
describe('cli: the database a command opens', function () {
  this.timeout(120_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-cli-db-'));
  const dataDir = (name: string) => path.join(root, name);
  const instances: Record<'a' | 'b', { handle: EmbeddedPostgresHandle; port: number }> = {} as never;
  const tables = async (url: string) => {
    const db = createDb(url, { max: 1 });
    try {
      const rows = await db('pg_tables').where({ schemaname: 'public' }).pluck('tablename');
      return rows as string[];
    } finally {
      await db.destroy();
    }
  };

  before(async () => {
    fs.chmodSync(root, 0o711); // run as root, the servers run as `postgres`, which must enter it
    for (const name of ['a', 'b'] as const) {
      const port = await freePort();
      const handle = await startEmbeddedPostgres({
        dataDir: path.join(dataDir(name), 'postgres'),
        port,
        persistent: false,
      });
      instances[name] = { handle, port };
    }
  });
  after(async () => {
    await Promise.all(Object.values(instances).map((i) => i.handle.stop()));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('the embedded PostgreSQL records its port and postmaster beside its data', () => {
    const record = JSON.parse(fs.readFileSync(embeddedPostgresRecordFile(path.join(dataDir('a'), 'postgres')), 'utf8'));
    expect(record).to.include({
      port: instances.a.port,
      database: 'chasqui',
      dataDir: path.join(dataDir('a'), 'postgres'),
    });
    const postmaster = fs.readFileSync(path.join(dataDir('a'), 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0];
    expect(record.pid).to.equal(Number(postmaster));
  });

  it('removes the record when the server stops', async () => {
    const dir = path.join(dataDir('stopped'), 'postgres');
    const handle = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), persistent: false });
    expect(fs.existsSync(embeddedPostgresRecordFile(dir))).to.equal(true);
    await handle.stop();
    expect(fs.existsSync(embeddedPostgresRecordFile(dir))).to.equal(false);
  });

  it('two instances: a command pointed at one data dir reads that one, whatever port is exported, and says so on stderr', async () => {
    // The trap of the issue: the port variable names the other instance.
    const env = { CHASQUI_DATA_DIR: dataDir('a'), CHASQUI_EMBEDDED_PG_PORT: String(instances.b.port) };
    const migrated = chasqui(['migrate'], env);
    expect(migrated.status, migrated.stderr).to.equal(0);
    expect(migrated.stderr.trim().split('\n')).to.deep.equal([
      `chasqui: database 127.0.0.1:${instances.a.port}/chasqui (embedded PostgreSQL, data in ${dataDir('a')}/postgres)`,
    ]);
    expect(migrated.stdout).to.match(/^applied \d+ migrations:/);
    expect(await tables(instances.a.handle.url)).to.include('knex_migrations');
    expect(await tables(instances.b.handle.url), 'the other instance untouched').to.not.include('knex_migrations');

    // --json keeps stdout the answer alone; the database line is on stderr, before it.
    const found = chasqui(['support', 'find', 'F001-1', '--json'], env);
    expect(JSON.parse(found.stdout)).to.deep.equal({ documents: [] });
    expect(found.stderr).to.match(new RegExp(`^chasqui: database 127\\.0\\.0\\.1:${instances.a.port}/chasqui `));

    const other = chasqui(['support', 'find', 'F001-1'], { CHASQUI_DATA_DIR: dataDir('b') });
    expect(other.stderr).to.contain(`chasqui: database 127.0.0.1:${instances.b.port}/chasqui`);
    expect(other.status).to.equal(1);
    expect(other.stdout, 'b was never migrated').to.match(/relation \\?"documents\\?" does not exist/);
  });

  it("a command whose temp folder (TMPDIR) is not npm start's reaches the socket the server recorded", () => {
    const elsewhere = fs.mkdtempSync(path.join(root, 'tmp-'));
    const run = chasqui(['migrate'], { CHASQUI_DATA_DIR: dataDir('a'), TMPDIR: elsewhere });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.equal(
      `chasqui: database 127.0.0.1:${instances.a.port}/chasqui (embedded PostgreSQL, data in ${dataDir('a')}/postgres)\n`,
    );
  });

  it('with DATABASE_URL, that one, named by host:port/db without its password', () => {
    const target = commandDatabase(testConfig({ databaseUrl: 'postgres://chasqui:s3cret@db.internal:6432/cpe' }));
    expect(target).to.deep.equal({
      url: 'postgres://chasqui:s3cret@db.internal:6432/cpe',
      label: 'db.internal:6432/cpe (DATABASE_URL)',
      dataDir: null,
    });
  });

  it('no instance for the data dir: one line naming CHASQUI_DATA_DIR and DATABASE_URL, exit 1, nothing opened', () => {
    const none = chasqui(['support', 'stuck'], {
      CHASQUI_DATA_DIR: dataDir('none'),
      CHASQUI_EMBEDDED_PG_PORT: String(instances.a.port),
    });
    expect(none.status).to.equal(1);
    expect(none.stdout).to.equal('');
    const lines = none.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^chasqui: no embedded PostgreSQL recorded \(no .*none\/postgres\.json\): start chasqui/);
    expect(lines[0]).to.contain('CHASQUI_DATA_DIR').and.to.contain('DATABASE_URL');
  });

  it('a stale record (its postmaster gone) does not connect to whatever now listens on its port', () => {
    const stale = path.join(dataDir('stale'), 'postgres');
    fs.mkdirSync(stale, { recursive: true });
    // A crash's leftover: the recorded port is now b's, the recorded postmaster long gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.pid'], { encoding: 'utf8' }).pid!;
    fs.writeFileSync(
      embeddedPostgresRecordFile(stale),
      JSON.stringify({
        port: instances.b.port,
        socketDir: os.tmpdir(),
        database: 'chasqui',
        dataDir: stale,
        pid: dead,
      }),
    );
    const result = chasqui(['support', 'stuck'], { CHASQUI_DATA_DIR: dataDir('stale') });
    expect(result.status).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.contain(`(port ${instances.b.port}, pid ${dead}) is no longer running`);
    expect(result.stderr).to.not.contain('chasqui: database');
  });

  it('a record whose pid lives on in another process: the server answering its port is refused by its data folder', () => {
    const reused = path.join(dataDir('reused'), 'postgres');
    fs.mkdirSync(reused, { recursive: true });
    fs.writeFileSync(
      embeddedPostgresRecordFile(reused),
      JSON.stringify({
        port: instances.b.port,
        socketDir: os.tmpdir(),
        database: 'chasqui',
        dataDir: reused,
        pid: process.pid,
      }),
    );
    const result = chasqui(['support', 'stuck'], { CHASQUI_DATA_DIR: dataDir('reused') });
    expect(result.status).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.deep.equal([
      `chasqui: the port recorded for ${reused} is answered by another PostgreSQL (data in ${dataDir('b')}/postgres): ` +
        'start chasqui there again (npm start), or set CHASQUI_DATA_DIR or DATABASE_URL to the one you mean',
    ]);
  });
});
