import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import got from 'got';
import { CHASQUI_BIN, chasquiStartEnv, spawnChasquiStart, stopChasqui, type ChasquiStartEnv } from '../support/chasqui-process';

/**
 * `npm start` as a person runs it: everything embedded, the README's first steps in a second terminal, Ctrl-C, and a
 * second start that finds the data again.
 */
describe('chasqui start (all-in-one)', function () {
  this.timeout(180_000);
  let stack: ChasquiStartEnv;
  before(async () => {
    stack = await chasquiStartEnv();
  });

  it('runs everything, prints where, stops cleanly on SIGINT and keeps the data for the next start', async () => {
    const { env, apiUrl, dataDir } = stack;
    const first = await spawnChasquiStart(env);
    expect(first.output()).to.contain(apiUrl).and.to.contain('Temporal UI  http://127.0.0.1:').and.to.contain('simulator http://127.0.0.1:');
    const ready = await got(`${apiUrl}/readyz`).json<{ data: Record<string, string> }>();
    expect(ready.data).to.deep.equal({ database: 'ok', temporal: 'ok' });

    // The README's first step, from a second terminal.
    const created = spawnSync(process.execPath, [CHASQUI_BIN, 'accounts', 'create', '--name', 'Demo', '--json'], { env, encoding: 'utf8' });
    expect(created.status, created.stderr).to.equal(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const company = await got.post(`${apiUrl}/v1/companies`, {
      headers: { authorization: `Bearer ${token}` },
      json: { ruc: '20100066603', business_name: 'Mi Empresa SAC', plan_type: '01', environment: '01' },
      throwHttpErrors: false,
    });
    expect(company.statusCode).to.equal(201);
    expect(fs.existsSync(path.join(dataDir, 'master.key'))).to.equal(true);
    expect(await stopChasqui(first.child)).to.equal(0);

    const second = await spawnChasquiStart(env);
    try {
      const again = await got(`${apiUrl}/v1/companies/20100066603`, { headers: { authorization: `Bearer ${token}` } }).json<{ data: { company: { business_name: string } } }>();
      expect(again.data.company.business_name).to.equal('Mi Empresa SAC');
    } finally {
      expect(await stopChasqui(second.child)).to.equal(0);
    }
  });
});
