import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { startTestStack, type TestStack } from '../support/stack';
import got from 'got';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { call, companyBody, newAccountToken, randomRuc } from './helpers';
import { companyProceduresWorkflowId } from '../../workflows/company-procedures';
import { RucKey } from '../../workflows/search-attributes';

const GOOD = { sol_user: 'MODDATOS', sol_password: 'moddatos' };

describe('portal procedures workflow (tax_procedures)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let portal: SimulatorHandle;
  let token: string;
  before(async function () {
    this.timeout(120_000);
    portal = await startTestSimulator({ port: 0 });
    stack = await startTestStack({
      config: { portalUrl: portal.url, procedures: { retryInitialSeconds: 2, retryMaxSeconds: 4 } },
    });
  });
  // A token of its own per test: each test polls its company and has the whole 120-a-minute budget to itself.
  beforeEach(async () => {
    token = (await newAccountToken(stack)).token;
  });
  after(async () => {
    await stack?.stop();
    await portal?.close();
  });

  /** What the SUNAT portal (the simulator) has on record for a RUC: providers authorised as PSE and linked OSEs. */
  async function portalRecord(ruc: string): Promise<{ pse: string[]; ose: string[] }> {
    const { token: bearer } = await got
      .post(`${portal.url}/portal/v1/login`, { json: { ruc, usuario: GOOD.sol_user, clave: GOOD.sol_password } })
      .json<{ token: string }>();
    const estado = await got(`${portal.url}/portal/v1/estado`, {
      headers: { authorization: `Bearer ${bearer}` },
    }).json<{ pse: unknown[]; ose: unknown[] }>();
    const target = (entry: unknown) =>
      String((entry as Record<string, unknown>).ruc_pse ?? (entry as Record<string, unknown>).ruc_ose ?? '');
    return { pse: estado.pse.map(target), ose: estado.ose.map(target) };
  }

  /** Reads the company until `done` says so (the workflow runs in the background). */
  async function waitFor(ruc: string, done: (procedures: any) => boolean, timeoutMs = 30_000): Promise<any> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const res = await call(stack, 'GET', `/v1/companies/${ruc}`, { token });
      // A slow machine can still reach the 120-a-minute limit: honour Retry-After rather than fail.
      if (res.status === 429) {
        await delay(Number(res.headers['retry-after'] ?? 1) * 1000);
        continue;
      }
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const procedures = res.body.data.company.tax_procedures;
      if (done(procedures)) return procedures;
      if (Date.now() > until) throw new Error(`tax_procedures never matched: ${JSON.stringify(procedures)}`);
      await delay(500);
    }
  }

  it('authorises the PSE and links the OSE when SOL credentials come with the company', async () => {
    const ruc = randomRuc();
    const res = await call(stack, 'POST', '/v1/companies', {
      token,
      json: companyBody(ruc, { ...GOOD, destination: 'provider_ose' }),
    });
    expect(res.status).to.equal(201);
    const procedures = await waitFor(ruc, (p) => p.pse_authorization.state === 'done' && p.ose_link.state === 'done');
    expect(procedures.pse_authorization).to.include({ attempts: 1, last_error: null });
    expect(procedures.pse_authorization.done_at).to.be.a('string');
    expect(await portalRecord(ruc)).to.deep.equal({ pse: [stack.config.providerRuc], ose: [stack.config.providerRuc] });
  });

  it('keeps the SOL password out of the workflow history and tags the run with Ruc', async () => {
    const ruc = randomRuc();
    await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc, GOOD) });
    await waitFor(ruc, (p) => p.pse_authorization.state === 'done');
    const company = await stack.db('companies').where({ ruc }).first();
    const handle = stack.temporal.workflow.getHandle(companyProceduresWorkflowId(ruc, company.id));
    expect(await handle.result()).to.equal('done');
    const history = JSON.stringify(await handle.fetchHistory());
    expect(history).not.to.contain('moddatos');
    expect(company.sol_password_sealed).not.to.contain('moddatos');
    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(RucKey)).to.equal(ruc);
  });

  it('records the failure and recovers from a portal that fails twice', async () => {
    const ruc = randomRuc();
    portal.addRule({ operation: 'portal', fault: { kind: 'http500' }, times: 2 });
    await call(stack, 'POST', '/v1/companies', {
      token,
      json: companyBody(ruc, { ...GOOD, destination: 'provider_ose' }),
    });
    const failed = await waitFor(ruc, (p) => p.pse_authorization.state === 'failed');
    expect(failed.pse_authorization.last_error).to.contain('500');
    expect(failed.pse_authorization.next_attempt_at).to.be.a('string');
    const done = await waitFor(ruc, (p) => p.pse_authorization.state === 'done' && p.ose_link.state === 'done');
    expect(done.pse_authorization.attempts).to.equal(2);
    expect(done.ose_link.attempts).to.equal(2);
  });

  it('records wrong SOL credentials as the last error and starts again when new ones are loaded', async () => {
    const ruc = randomRuc();
    await call(stack, 'POST', '/v1/companies', {
      token,
      json: companyBody(ruc, { sol_user: 'MODDATOS', sol_password: 'wrong' }),
    });
    const failed = await waitFor(ruc, (p) => p.pse_authorization.state === 'failed');
    expect(failed.pse_authorization.last_error).to.contain('rejected the SOL user or password');
    expect(failed.pse_authorization.next_attempt_at).to.equal(null);
    const company = await stack.db('companies').where({ ruc }).first();
    expect(await stack.temporal.workflow.getHandle(companyProceduresWorkflowId(ruc, company.id)).result()).to.equal(
      'failed',
    );

    const fixed = await call(stack, 'PATCH', `/v1/companies/${ruc}/sol-credentials`, { token, json: GOOD });
    expect(fixed.status).to.equal(200);
    expect(fixed.body.data.company.sol_credentials.sol_user).to.equal('MODDATOS');
    expect(JSON.stringify(fixed.body)).not.to.contain('moddatos');
    const done = await waitFor(ruc, (p) => p.pse_authorization.state === 'done');
    expect(done.pse_authorization.last_error).to.equal(null);
  });

  it('runs the OSE link when the destination changes to provider_ose after the PSE authorisation', async () => {
    const ruc = randomRuc();
    await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc, GOOD) });
    const first = await waitFor(ruc, (p) => p.pse_authorization.state === 'done');
    expect(first.ose_link.state).to.equal('not_applicable');
    await call(stack, 'PATCH', `/v1/companies/${ruc}/destination`, { token, json: { destination: 'provider_ose' } });
    const after = await waitFor(ruc, (p) => p.ose_link.state === 'done');
    // The PSE authorisation, already done, is not performed again.
    expect(after.pse_authorization).to.deep.equal(first.pse_authorization);
  });
});

describe('company creation while Temporal is unreachable', function () {
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
  });
  after(() => stack?.stop());

  it('still answers 201 with the one-time token and says the procedures did not start', async () => {
    const { token } = await newAccountToken(stack);
    await stack.temporal.connection.close();
    const ruc = randomRuc();
    const res = await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc, GOOD) });
    expect(res.status).to.equal(201);
    expect(res.body.data.token).to.match(/^chq_sig_/);
    expect(res.body.message).to.contain('could not be started');
    expect(res.body.data.company.tax_procedures.pse_authorization.state).to.equal('pending');
  });
});
