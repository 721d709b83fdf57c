import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildCompiledLayout } from '../support/compiled-layout';
import { freshTestDatabase, getTestDb } from '../support/services';
import { createDb } from '../../db/knex';

/**
 * The compiled layout the image runs (Dockerfile, `npm run build`): the parts that found their code by a TypeScript
 * path or loaded it through tsx, run from the layout's JavaScript. test:production runs the whole shape on it.
 */
describe('the compiled layout (npm run build, the image)', function () {
  this.timeout(300_000);
  let dir: string;
  let layout: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-layout-'));
    layout = await buildCompiledLayout(path.join(dir, 'app'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs `script` in a Node of the runtime line inside the layout; its last stdout line, parsed. */
  async function inLayout(script: string, env: NodeJS.ProcessEnv = process.env): Promise<any> {
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: layout, env });
    return JSON.parse(stdout.trim().split('\n').pop()!);
  }
  const tsxLoaded = `Object.keys(require.cache).some((file) => file.includes('/node_modules/tsx/'))`;

  it('holds JavaScript with source maps, no TypeScript', () => {
    const files = fs.readdirSync(layout, { recursive: true, encoding: 'utf8' });
    expect(files.filter((f) => f.endsWith('.ts') && !f.startsWith('node_modules'))).to.deep.equal([]);
    expect(files).to.include.members(['cli/main.js', 'cli/main.js.map', 'db/knex.js', 'bin/chasqui', 'package.json']);
    expect(files).to.include.members(['api/console/console.css', 'validator/xsl/exslt-shim.xsl']);
  });

  it('requires only production dependencies (the image installs no others), tsx only where run from the sources', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(layout, 'package.json'), 'utf8'));
    const production = new Set(Object.keys(pkg.dependencies));
    const outside: string[] = [];
    for (const file of fs.readdirSync(layout, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js') || file.startsWith('node_modules')) continue;
      const code = fs.readFileSync(path.join(layout, file), 'utf8');
      for (const [, , name] of code.matchAll(/require(?:\.resolve)?\((['"])([^'"./][^'"]*)\1\)/g)) {
        const root = name
          .split('/')
          .slice(0, name.startsWith('@') ? 2 : 1)
          .join('/');
        if (!production.has(root) && !isBuiltin(name)) outside.push(`${file}: ${name}`);
      }
    }
    expect(outside).to.have.members([
      'heavy/pool.js: tsx/cjs', // behind fromSources
      'runtime/workflow-bundle.js: tsx/cjs', // behind __filename.endsWith('.ts')
    ]);
  });

  it('bin/chasqui runs the JavaScript with source maps on, without tsx', async () => {
    const probe = path.join(dir, 'probe.js');
    fs.writeFileSync(
      probe,
      `process.on('exit', () => console.log(JSON.stringify({ maps: process.sourceMapsEnabled, tsx: ${tsxLoaded} })));`,
    );
    const run = await promisify(execFile)(process.execPath, ['--require', probe, 'bin/chasqui', '--help'], {
      cwd: layout,
    });
    expect(run.stdout).to.match(/^usage: chasqui/);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).to.deep.equal({ maps: true, tsx: false });
  });

  it("bundles the workflow code from the layout's JavaScript", async () => {
    const out = path.join(dir, 'workflows.js');
    await promisify(execFile)(process.execPath, ['runtime/workflow-bundle.js', out], { cwd: layout });
    const code = fs.readFileSync(out, 'utf8');
    for (const name of ['documentWorkflow', 'webhookDeliveryWorkflow', 'buyerEmailWorkflow'])
      expect(code).to.contain(name);
  });

  it('opens an uploaded PFX in a thread of the heavy-work pool from the JavaScript', async () => {
    const answer = await inLayout(`
      const { generateTestCertificate } = require('./documents/signing');
      const { HeavyPool } = require('./heavy/pool');
      const { heavyConfigOf } = require('./core/heavy-config');
      const pool = new HeavyPool(heavyConfigOf({}));
      const pfx = generateTestCertificate({ ruc: '20100066603' }).pfx('clave');
      pool.run('layout', 'pfx', { pfx, password: 'clave', maxBytes: 64 * 1024 }).then(async (r) => {
        await pool.close();
        console.log(JSON.stringify({ ruc: r.ok && r.certificate.ruc, tsx: ${tsxLoaded} }));
      });`);
    expect(answer).to.deep.equal({ ruc: '20100066603', tsx: false });
  });

  /** In the layout: the migrations `database` lacks (migrationsProblem, the readiness check), then `chasqui migrate`. */
  const migrateInLayout = (url: string) =>
    inLayout(
      `const { createDb, migrate } = require('./db/knex');
       const { migrationsProblem } = require('./api/health');
       (async () => {
         const db = createDb(process.env.URL);
         const before = await migrationsProblem(db);
         const applied = await migrate(db);
         console.log(JSON.stringify({ before, applied }));
         await db.destroy();
       })();`,
      { ...process.env, URL: url },
    );

  it('finds a database the sources migrated current, and migrates an empty one under the same names', async () => {
    const fromSources = await freshTestDatabase();
    const name = `empty_${randomBytes(4).toString('hex')}`;
    await (await getTestDb()).raw(`create database ${name}`);
    const empty = new URL(fromSources.url);
    empty.pathname = `/${name}`;
    const compiled = createDb(empty.toString());
    try {
      expect(await migrateInLayout(fromSources.url)).to.deep.equal({ before: null, applied: [] });
      const names = (await fromSources.db('knex_migrations').orderBy('id').pluck('name')) as string[];
      for (const migration of names) expect(migration).to.match(/^\d{14}_\w+\.ts$/);
      const first = await migrateInLayout(empty.toString());
      expect(first.before).to.match(/^the database is behind this code's migrations: \d+ pending/);
      expect(first.applied).to.deep.equal(names);
      expect(await compiled('knex_migrations').orderBy('id').pluck('name')).to.deep.equal(names);
    } finally {
      await fromSources.db.destroy();
      await compiled.destroy();
    }
  });
});
