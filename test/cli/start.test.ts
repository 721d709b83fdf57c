import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import got from 'got';
import { freePort } from '../../runtime/ports';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/chasqui');

/**
 * `npm start` as a person runs it: everything embedded, the README's first steps in a second terminal, Ctrl-C, and a
 * second start that finds the data again.
 */
describe('chasqui start (all-in-one)', function () {
  this.timeout(180_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-start-'));
  let env: NodeJS.ProcessEnv;
  let apiUrl: string;

  before(async () => {
    const [port, temporalPort, uiPort, pgPort, simPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    apiUrl = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      CHASQUI_DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      CHASQUI_EMBEDDED_PG_PORT: String(pgPort),
      SIMULATOR_PORT: String(simPort),
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    delete env.CHASQUI_MASTER_KEY;
  });

  /** Starts `chasqui start` and resolves once it printed that it is running. */
  function start(): Promise<{ child: ChildProcess; output: () => string }> {
    const child = spawn(process.execPath, [BIN, 'start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (b) => (out += b));
    child.stderr!.on('data', (b) => (out += b));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not running after 90 s:\n${out}`)), 90_000);
      child.stdout!.on('data', () => {
        if (out.includes('chasqui is running')) {
          clearTimeout(timer);
          resolve({ child, output: () => out });
        }
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
    });
  }

  function stop(child: ChildProcess): Promise<number | null> {
    return new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill('SIGINT');
    });
  }

  it('runs everything, prints where, stops cleanly on SIGINT and keeps the data for the next start', async () => {
    const first = await start();
    expect(first.output()).to.contain(apiUrl).and.to.contain('Temporal UI  http://127.0.0.1:').and.to.contain('simulator http://127.0.0.1:');
    const ready = await got(`${apiUrl}/readyz`).json<{ data: Record<string, string> }>();
    expect(ready.data).to.deep.equal({ database: 'ok', temporal: 'ok' });

    // The README's first step, from a second terminal.
    const created = spawnSync(process.execPath, [BIN, 'accounts', 'create', '--name', 'Demo', '--json'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(created.status, created.stderr).to.equal(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const company = await got.post(`${apiUrl}/v1/companies`, {
      headers: { authorization: `Bearer ${token}` },
      json: { ruc: '20100066603', business_name: 'Mi Empresa SAC', plan_type: '01', environment: '01' },
      throwHttpErrors: false,
    });
    expect(company.statusCode).to.equal(201);
    expect(fs.existsSync(path.join(dataDir, 'master.key'))).to.equal(true);
    expect(await stop(first.child)).to.equal(0);

    const second = await start();
    try {
      const again = await got(`${apiUrl}/v1/companies/20100066603`, { headers: { authorization: `Bearer ${token}` } }).json<{ data: { company: { business_name: string } } }>();
      expect(again.data.company.business_name).to.equal('Mi Empresa SAC');
    } finally {
      expect(await stop(second.child)).to.equal(0);
    }
  });
});
