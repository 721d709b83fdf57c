import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freshTestDatabase, testConfig } from '../support/services';
import { companyWithRuc } from '../support/documents';
import { keysOf, startTestS3, type TestS3 } from '../support/s3';
import { CHASQUI_BIN } from '../support/chasqui-process';
import { randomRuc } from '../companies/helpers';
import { insertDocument } from '../../db/documents';
import { DocumentFiles } from '../../files/documents';
import { DirectoryStore } from '../../files/directory';
import { S3Store } from '../../files/s3';
import { findOrphans, migrateFiles } from '../../files/migrate';
import { filesCommand } from '../../cli/commands/files';
import type { Db } from '../../db/knex';
import type { Config } from '../../core/config';

const execFileAsync = promisify(execFile);

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      stdin: Object.assign(process.stdin, { isTTY: false }),
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** `count` documents of one new company with their signed XML in the row, every other one with a CDR too. */
async function seedDocuments(db: Db, count: number) {
  const xmlOf = new Map<string, string>();
  const cdrOf = new Map<string, string>();
  const company = await companyWithRuc(db, randomRuc(), 'Migración S.A.C.');
  for (let n = 1; n <= count; n++) {
    const xml = `<Invoice><cbc:ID>F001-${n}</cbc:ID><x>${randomBytes(64).toString('hex')}</x></Invoice>`;
    const row = await insertDocument(db, {
      account_id: company.account_id,
      company_id: company.id,
      ruc: company.ruc,
      doc_type: '01',
      series: 'F001',
      number: n,
      filename: `${company.ruc}-01-F001-${n}`,
      issue_date: n <= 12 ? '2025-12-30' : '2026-01-05',
      currency: 'PEN',
      environment: '01',
      destination: 'tax_authority',
      signed_by: 'provider_certificate',
      status: 'queued',
      hash: 'x',
      xml,
      totals: null,
      warnings: [],
    });
    xmlOf.set(row.id, xml);
    if (n % 2) {
      const cdr = randomBytes(300).toString('base64');
      await db('documents').where({ id: row.id }).update({ cdr_zip: cdr });
      cdrOf.set(row.id, cdr);
    }
  }
  return { xmlOf, cdrOf };
}

/**
 * `chasqui files migrate` and `chasqui files orphans` on a database of their own (the migration moves every document
 * it finds) and a real S3-compatible server: both ways, stopped midway and resumed, reads falling back to the rows
 * until each document has moved.
 */
describe('files: migration between PostgreSQL and an object store, and the orphans', function () {
  this.timeout(600_000);
  let db: Db;
  let s3: TestS3;
  let config: Config;
  let xmlOf: Map<string, string>;
  let cdrOf: Map<string, string>;

  before(async () => {
    ({ db } = await freshTestDatabase());
    s3 = await startTestS3({ prefix: 'migrated' });
    process.env.CHASQUI_S3_ENDPOINT = s3.location.endpoint!;
    config = { ...testConfig(), files: s3.location };
    ({ xmlOf, cdrOf } = await seedDocuments(db, 25));
  });
  after(async () => {
    delete process.env.CHASQUI_S3_ENDPOINT;
    await db?.destroy();
    await s3?.stop();
  });

  const rows = () => db('documents').select('*').orderBy('number');

  it('a dry run says what would move and moves nothing', async () => {
    const c = capture();
    const code = await filesCommand(
      ['migrate', '--to', 's3://chasqui-files/migrated', '--dry-run'],
      { db, config },
      c.io,
    );
    expect(code).to.equal(0);
    expect(c.err()).to.match(/25 documents \(0\.0 MB\) have files to move to s3:\/\/chasqui-files\/migrated/);
    expect((await rows()).every((r) => r.xml !== null && r.xml_sha256 === null)).to.equal(true);
  });

  it('moves to S3 in batches, stopped midway and resumed; reads fall back to the rows until each has moved', async () => {
    const store = new S3Store(s3.location);
    let moved = 0;
    const first = await migrateFiles(db, {
      target: store,
      source: null,
      rate: null,
      batch: 4,
      progress: () => undefined,
      stopped: () => moved++ >= 10,
    });
    expect(first).to.deep.equal({ moved: 10, total: 25 });
    const midway = await rows();
    expect(midway.filter((r) => r.xml_sha256 !== null)).to.have.length(10);
    // Every document reads the same bytes, from the bucket or (not moved yet) from its row.
    const files = new DocumentFiles(store);
    for (const row of midway) {
      expect(await files.xmlOf(row)).to.equal(xmlOf.get(row.id));
      if (cdrOf.has(row.id)) expect((await files.read(row, 'cdr'))!.toString('base64')).to.equal(cdrOf.get(row.id));
    }

    const c = capture();
    const code = await filesCommand(
      ['migrate', '--to', 's3://chasqui-files/migrated', '--yes', '--rate', '1000', '--batch', '3'],
      { db, config },
      c.io,
    );
    expect(code, c.err()).to.equal(0);
    expect(c.err()).to.match(/15 documents .* have files to move/);
    expect(c.err()).to.match(/15\/15 documents \(100%\), [\d.]+ MB, [\d.]+\/s, ETA 0 s/);
    expect(c.out()).to.equal("moved 15 documents' files to s3://chasqui-files/migrated\n");
    for (const row of await rows()) {
      expect([row.xml, row.cdr_zip]).to.deep.equal([null, null]);
      expect(keysOf(row).xml).to.match(new RegExp(`/01/(2025/12|2026/01)/${sha256(xmlOf.get(row.id)!)}\\.xml$`));
      expect(await files.xmlOf(row)).to.equal(xmlOf.get(row.id));
      expect(row.cdr_sha256 !== null).to.equal(cdrOf.has(row.id));
    }
    // Run again: nothing is left to move, nothing changes.
    const again = capture();
    expect(
      await filesCommand(['migrate', '--to', 's3://chasqui-files/migrated', '--yes'], { db, config }, again.io),
    ).to.equal(0);
    expect(again.err()).to.match(/^chasqui files: 0 documents/);
    await store.close();
  });

  it('moves back to PostgreSQL, and the objects left behind are orphans once a day old', async () => {
    const c = capture();
    expect(await filesCommand(['migrate', '--to', 'postgres:', '--yes'], { db, config }, c.io), c.err()).to.equal(0);
    for (const row of await rows()) {
      expect(row.xml).to.equal(xmlOf.get(row.id));
      expect(row.cdr_zip).to.equal(cdrOf.get(row.id) ?? null);
      expect([row.xml_sha256, row.cdr_sha256]).to.deep.equal([null, null]);
    }
    const store = new S3Store(s3.location);
    const young = [];
    for await (const o of findOrphans(db, store, 24 * 3600_000)) young.push(o);
    expect(young, 'objects written minutes ago are never reported').to.have.length(0);
    const old = [];
    for await (const o of findOrphans(db, store, 24 * 3600_000, Date.now() + 25 * 3600_000)) old.push(o.key);
    expect(old).to.have.length(25 + cdrOf.size);
    await store.close();
  });

  it('chasqui files orphans lists and deletes objects no row names (a directory store, its times set back two days)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-orphans-'));
    const store = new DirectoryStore(root);
    const files = new DocumentFiles(store);
    const [named] = await rows();
    const kept = await files.put(named, 'xml', Buffer.from(named.xml));
    await db('documents').where({ id: named.id }).update({ xml: null, xml_sha256: kept.sha256, xml_size: kept.size });
    const orphan = await files.put(named, 'xml', Buffer.from('<Invoice>never committed</Invoice>'));
    const recent = await files.put(named, 'cdr', Buffer.from('just written'));
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    for (const key of [kept.key, orphan.key]) fs.utimesSync(path.join(root, key), twoDaysAgo, twoDaysAgo);
    const directoryConfig = { ...config, files: { kind: 'directory' as const, path: root } };

    const listed = capture();
    expect(await filesCommand(['orphans', '--json'], { db, config: directoryConfig }, listed.io)).to.equal(0);
    const reported = listed
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(reported.map((o) => o.key)).to.deep.equal([orphan.key]);
    expect(reported[0]).to.include({ deleted: false });

    const refused = capture();
    expect(await filesCommand(['orphans', '--delete'], { db, config: directoryConfig }, refused.io)).to.equal(2);
    expect(refused.err()).to.match(/not on a terminal: add --yes to delete the orphans older than 24 h/);
    expect(fs.existsSync(path.join(root, orphan.key))).to.equal(true);
    const removed = capture();
    expect(await filesCommand(['orphans', '--delete', '--yes'], { db, config: directoryConfig }, removed.io)).to.equal(
      0,
    );
    expect(removed.err()).to.match(/1 orphans .* older than 24 h .*, deleted/);
    expect(fs.existsSync(path.join(root, orphan.key))).to.equal(false);
    expect(fs.existsSync(path.join(root, kept.key))).to.equal(true);
    expect(fs.existsSync(path.join(root, recent.key))).to.equal(true);
  });

  it('refuses a bad --to, --rate or subcommand with exit code 2 and the usage', async () => {
    for (const argv of [
      ['migrate'],
      ['migrate', '--to', 'ftp://x'],
      ['migrate', '--to', 'postgres:', '--rate', '0'],
      ['sweep'],
    ]) {
      const c = capture();
      expect(await filesCommand(argv, { db, config }, c.io), argv.join(' ')).to.equal(2);
      expect(c.err()).to.match(/^chasqui files: /);
    }
    // From one object store (the suite's CHASQUI_FILES_URL) to another: the objects are copied with the stores' tools.
    const c = capture();
    expect(
      await filesCommand(['migrate', '--to', 'file:///tmp/elsewhere', '--dry-run'], { db, config }, c.io),
    ).to.equal(2);
    expect(c.err()).to.contain('from one object store to another the keys stay the same');
  });
});

/**
 * The real command as an operator runs it, killed (SIGKILL: no handler runs, no batch is finished) while it moves, then
 * run again: the second run moves only what the first did not, and no document ever reads other bytes than its own.
 */
describe('files: chasqui files migrate killed midway', function () {
  this.timeout(600_000);

  it('SIGKILLed while moving, the same command goes on where it was and every document keeps its bytes', async () => {
    const { db, url } = await freshTestDatabase();
    const s3 = await startTestS3({ prefix: 'killed' });
    const store = new S3Store(s3.location);
    try {
      const { xmlOf, cdrOf } = await seedDocuments(db, 30);
      // The rows are where a service that has run on postgres: keeps them; the bucket is named by --to only.
      const { CHASQUI_FILES_URL: to, ...s3Env } = s3.env;
      const env: NodeJS.ProcessEnv = { ...process.env, ...s3Env, DATABASE_URL: url, LOG_LEVEL: 'warn' };
      delete env.CHASQUI_FILES_URL;
      const args = [CHASQUI_BIN, 'files', 'migrate', '--to', to, '--yes', '--batch', '4'];
      const moved = async () =>
        Number((await db('documents').whereNull('xml').whereNull('cdr_zip').count({ n: '*' }))[0].n);

      const first = spawn(process.execPath, [...args, '--rate', '5'], { env, stdio: 'ignore' });
      const exited = once(first, 'exit');
      while ((await moved()) < 5) await new Promise((resolve) => setTimeout(resolve, 50));
      first.kill('SIGKILL');
      expect((await exited)[1]).to.equal('SIGKILL');
      const killedAt = await moved();
      expect(killedAt, 'killed before the end').to.be.below(30);

      const files = new DocumentFiles(store);
      const readsItsOwn = async () => {
        for (const row of await db('documents').select('*')) {
          expect(await files.xmlOf(row)).to.equal(xmlOf.get(row.id));
          const cdr = await files.read(row, 'cdr');
          expect(cdr && cdr.toString('base64')).to.equal(cdrOf.get(row.id) ?? null);
        }
      };
      await readsItsOwn();

      const again = await execFileAsync(process.execPath, args, { env });
      expect(again.stderr).to.contain(`${30 - killedAt} documents`);
      expect(again.stdout).to.equal(`moved ${30 - killedAt} documents' files to ${to}\n`);
      expect(await moved()).to.equal(30);
      await readsItsOwn();
    } finally {
      await store.close();
      await db.destroy();
      await s3.stop();
    }
  });
});
