import { expect } from 'chai';
import {
  call,
  expectDocumented,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  type IssuingStack,
  type TestCompany,
} from './support';
import { findDocument } from '../../db/documents';
import type { TestStack } from '../support/stack';

const legacy = (stack: TestStack, token: string, body: unknown, headers: Record<string, string> = {}) =>
  call(stack, 'POST', '/api/cpe/enviar', { token, json: body, headers });

/** Response mode `wait` and the legacy POST /api/cpe/enviar against the simulator's verdicts and faults. */
describe('waiting for the verdict (response mode wait, POST /api/cpe/enviar)', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let waiting: TestCompany;
  let plain: TestCompany;
  before(async function () {
    this.timeout(120_000);
    // Short enough that "no answer in time" takes seconds, long enough for a verdict on a loaded machine.
    env = await startIssuingStack({ issuing: { waitTimeoutSeconds: 4 } as never });
    waiting = await newCompany(env.stack, { settings: { response_mode: 'wait' } });
    plain = await newCompany(env.stack);
  });
  after(() => env?.stop());
  beforeEach(() => env.sim.clearRules());

  it('wait mode: 202 (spec 7.1, always on /v1 issue) with the 2.4 fields plus the verdict and the CDR', async () => {
    const res = await issue(env.stack, waiting.token, payload('invoice-basic.json', waiting.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body).to.include({ success: true, status: 'accepted', resolved: true, status_code: '06', ticket: null });
    expect(res.body.result).to.include({ code: '0' });
    expect(res.body.cdr_zip).to.be.a('string').with.length.above(100);
    expect(res.body).to.include.keys(
      'external_id',
      'filename',
      'hash',
      'xml',
      'environment',
      'environment_name',
      'time',
    );
    await expectDocumented(env.stack, 'POST /v1/cpe', res);
  });

  it('wait mode: a rejection is a 202 too (the HTTP code is never the verdict)', async () => {
    env.sim.addRule({ operation: 'sendBill', ruc: waiting.ruc, fault: { kind: 'reject', code: '2017' } });
    const res = await issue(env.stack, waiting.token, payload('invoice-basic.json', waiting.ruc));
    expect(res.status).to.equal(202);
    expect(res.body).to.include({ status: 'rejected', status_code: '09', resolved: true });
    expect(res.body.result).to.include({ code: '2017', origin: 'tax_authority', action: 'correct' });
  });

  it('wait mode: 202 with the issue body when the authority is not reachable within CHASQUI_WAIT_TIMEOUT_SECONDS', async () => {
    env.sim.addRule({ operation: 'sendBill', ruc: waiting.ruc, fault: { kind: 'reset' } });
    const started = Date.now();
    const res = await issue(env.stack, waiting.token, payload('invoice-basic.json', waiting.ruc));
    const seconds = (Date.now() - started) / 1000;
    expect(res.status).to.equal(202);
    expect(res.body.status).to.equal('queued');
    expect(res.body).to.not.have.property('resolved');
    expect(seconds).to.be.within(3.5, 10);
  });

  it('wait mode: a send that timed out (Pending) answers 202 at once, without waiting out the bound', async () => {
    env.sim.addRule({ operation: 'sendBill', ruc: waiting.ruc, fault: { kind: 'hang' } });
    const res = await issue(env.stack, waiting.token, payload('invoice-basic.json', waiting.ruc));
    expect(res.status).to.equal(202);
    const row = (await findDocument(env.stack.db, res.body.external_id))!;
    expect(row.status).to.be.oneOf(['queued', 'sent']);
  });

  it('wait mode: an asynchronous document answers 202 with its ticket', async () => {
    const res = await issue(env.stack, waiting.token, payload('rc-add.json', waiting.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body.ticket).to.be.a('string').and.not.empty;
    expect(res.body.status).to.be.oneOf(['registered', 'accepted', 'observed']);
    await expectDocumented(env.stack, 'POST /v1/cpe', res);
  });

  it('legacy /api/cpe/enviar: waits for any company and answers sunatResponse with the CDR', async () => {
    const res = await legacy(env.stack, plain.token, payload('invoice-basic.json', plain.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal([
      'success',
      'message',
      'external_id',
      'filename',
      'hash',
      'xml',
      'status',
      'ticket',
      'sunatResponse',
      'time',
    ]);
    expect(res.body).to.include({ success: true, status: 'accepted' });
    const { sunatResponse } = res.body;
    expect(sunatResponse).to.include({ success: true, error: null });
    expect(sunatResponse.cdrZip).to.be.a('string').with.length.above(100);
    expect(sunatResponse.cdrResponse).to.deep.include({ code: '0', notes: [] });
    expect(sunatResponse.cdrResponse.id).to.match(/^F001-\d+$/);
    await expectDocumented(env.stack, 'POST /api/cpe/enviar', res);
  });

  it('legacy: a rejection is 200 with success false and the error; no answer in time is 202 with sunatResponse null', async () => {
    env.sim.addRule({ operation: 'sendBill', ruc: plain.ruc, fault: { kind: 'reject', code: '2017' }, times: 1 });
    const rejected = await legacy(env.stack, plain.token, payload('invoice-basic.json', plain.ruc));
    expect(rejected.status).to.equal(200);
    expect(rejected.body).to.include({ success: false, status: 'rejected' });
    expect(rejected.body.sunatResponse.error).to.include({ code: '2017' });

    env.sim.addRule({ operation: 'sendBill', ruc: plain.ruc, fault: { kind: 'reset' } });
    const key = { 'Idempotency-Key': `legacy-${plain.ruc}` };
    const body = payload('invoice-basic.json', plain.ruc);
    const late = await legacy(env.stack, plain.token, body, key);
    expect(late.status).to.equal(202);
    expect(late.body).to.include({ success: true, status: 'queued', sunatResponse: null });
    expect(late.body.message).to.contain(`/v1/cpe/${late.body.external_id}`);
    const replay = await legacy(env.stack, plain.token, body, key);
    expect(replay.status, 'a replay answers what was stored at issue').to.equal(202);
    expect(replay.body.external_id).to.equal(late.body.external_id);
    expect(replay.body.sunatResponse).to.equal(null);
    await expectDocumented(env.stack, 'POST /api/cpe/enviar', rejected);
    await expectDocumented(env.stack, 'POST /api/cpe/enviar', late);
  });
});
