import { expect } from 'chai';
import {
  call,
  documentCount,
  expectDocumented,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from './support';
import { findDocument } from '../../db/documents';
import { verifyXmlSignature } from '../../documents/signing';
import { newAccountToken } from '../companies/helpers';
import { startTestStack } from '../support/stack';

const ISSUE_KEYS = [
  'success',
  'status',
  'message',
  'external_id',
  'filename',
  'hash',
  'environment',
  'environment_name',
  'xml',
  'time',
];

describe('POST /v1/cpe (issue) and GET /v1/cpe/{external_id}', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let demo: TestCompany;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack();
    demo = await newCompany(env.stack);
  });
  after(() => env?.stop());
  beforeEach(() => env.sim.clearRules());

  it('answers 202 with exactly the body of spec 2.4 (queued), signs verifiably, and the simulator accepts it', async () => {
    const res = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(Object.keys(res.body)).to.deep.equal(ISSUE_KEYS);
    expect(res.body).to.include({ success: true, status: 'queued', environment: '01', environment_name: 'demo' });
    expect(res.body.filename).to.match(new RegExp(`^${demo.ruc}-01-F001-\\d+$`));
    expect(res.body.time).to.be.a('number').within(0, 10);
    const xml = Buffer.from(res.body.xml, 'base64').toString('utf8');
    const signature = verifyXmlSignature(xml);
    expect(signature.ok, signature.reason).to.equal(true);
    expect(signature.digest).to.equal(res.body.hash);

    const row = (await findDocument(env.stack.db, res.body.external_id))!;
    expect(row).to.include({ signed_by: 'provider_certificate', status: 'queued', destination: 'tax_authority' });
    const done = await until(env.stack, row.id, ['accepted', 'observed', 'rejected']);
    expect(done.status).to.equal('accepted');
    expect(done.workflow_started_at, 'started right after the answer').to.not.equal(null);

    const got = await call(env.stack, 'GET', `/v1/cpe/${row.id}`, { token: demo.token });
    expect(got.status).to.equal(200);
    expect(got.body.data.document).to.include({
      external_id: row.id,
      status: 'accepted',
      resolved: true,
      document_type_id: '01',
      filename: res.body.filename,
    });
  });

  it('answers malformed JSON with the 7.2 body, naming line, column and a snippet', async () => {
    const res = await call(env.stack, 'POST', '/v1/cpe', {
      token: demo.token,
      body: '{\n  "tipoDoc": "01",\n  "serie": "F001",,\n}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ success: false, origin: 'validation', action: 'correct', reached_sunat: false });
    expect(res.body.details[0]).to.include({ line: 3, col: 19, path: null });
    expect(res.body.details[0].snippet).to.contain('"F001",,');
    expect(res.body.errors[0]).to.contain('line 3, column 19');
  });

  it('adds warnings only when the library reports some', async () => {
    const res = await issue(env.stack, demo.token, payload('gre-09-unidad-fuera-de-catalogo.json', demo.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body.warnings).to.deep.equal(['[SUNAT 4320] items[1].unidad XYZ is not a unit code of catalog 03']);
    expect(Object.keys(res.body)).to.deep.equal([...ISSUE_KEYS.slice(0, 9), 'warnings', 'time']);
  });

  it('manual sending mode: to_send until POST /send, then delivered; /send again is a 409', async () => {
    const manual = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    const res = await issue(env.stack, manual.token, payload('invoice-basic.json', manual.ruc));
    expect(res.status).to.equal(202);
    expect(Object.keys(res.body)).to.deep.equal(ISSUE_KEYS);
    expect(res.body.status).to.equal('to_send');
    const id = res.body.external_id;
    const resend = await call(env.stack, 'POST', `/v1/cpe/${id}/resend`, { token: manual.token });
    expect(resend.status).to.equal(409);
    expect(resend.body.message).to.contain(`/v1/cpe/${id}/send`);
    await new Promise((r) => setTimeout(r, 300));
    expect((await findDocument(env.stack.db, id))!.status, 'nothing sends it by itself').to.equal('to_send');

    const sent = await call(env.stack, 'POST', `/v1/cpe/${id}/send`, { token: manual.token });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    expect(sent.body.data.document.status).to.be.oneOf(['queued', 'accepted']);
    expect((await until(env.stack, id, ['accepted', 'rejected'])).status).to.equal('accepted');
    const again = await call(env.stack, 'POST', `/v1/cpe/${id}/send`, { token: manual.token });
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ success: false, message: again.body.message });
    expect(again.body.message).to.contain('accepted');
  });

  it('receipts mode summary: receipts and their B-series notes are to_summarize (no workflow), invoices still queued', async () => {
    const summary = await newCompany(env.stack, { settings: { receipts_mode: 'summary' } });
    const receipt = await issue(env.stack, summary.token, payload('receipt-basic.json', summary.ruc));
    expect(receipt.status).to.equal(202);
    expect(Object.keys(receipt.body)).to.deep.equal(ISSUE_KEYS);
    expect(receipt.body.status).to.equal('to_summarize');
    await new Promise((r) => setTimeout(r, 300));
    expect((await findDocument(env.stack.db, receipt.body.external_id))!.workflow_started_at).to.equal(null);
    const note = await issue(env.stack, summary.token, payload('credit-note-boleta.json', summary.ruc));
    expect(note.status, JSON.stringify(note.body)).to.equal(202);
    expect(note.body.status).to.equal('to_summarize');
    const invoice = await issue(env.stack, summary.token, payload('invoice-basic.json', summary.ruc));
    expect(invoice.body.status).to.equal('queued');
    for (const action of ['send', 'resend']) {
      expect(
        (await call(env.stack, 'POST', `/v1/cpe/${receipt.body.external_id}/${action}`, { token: summary.token }))
          .status,
        action,
      ).to.equal(409);
    }
  });

  it('422: the 7.2 body (origin validation, action correct, reached_sunat false); nothing is stored', async () => {
    const before = await documentCount(env.stack, demo.row.id);
    const bad = payload('invoice-basic.json', demo.ruc, { serie: 'B001', tipoMoneda: 'XXX' });
    const res = await issue(env.stack, demo.token, bad);
    expect(res.status).to.equal(422);
    expect(Object.keys(res.body)).to.have.members([
      'success',
      'message',
      'errors',
      'details',
      'time',
      'origin',
      'origin_description',
      'action',
      'reached_sunat',
    ]);
    expect(res.body).to.include({ success: false, origin: 'validation', action: 'correct', reached_sunat: false });
    expect(res.body.errors).to.be.an('array').that.is.not.empty;
    expect(res.body.errors.join(' ')).to.match(/\[SUNAT \d{4}\]/);
    expect(res.body.details[0]).to.have.keys(['code', 'message', 'path', 'line', 'col', 'snippet']);

    const other = await issue(env.stack, demo.token, payload('invoice-basic.json', '20100066603'));
    expect(other.status).to.equal(422);
    expect(other.body.errors.join(' ')).to.contain('BR_ISSUER_MISMATCH');
    expect(await documentCount(env.stack, demo.row.id)).to.equal(before);
  });

  it('409 when X-Environment declares another environment; nothing is signed', async () => {
    const before = await documentCount(env.stack, demo.row.id);
    const res = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc), { 'X-Environment': '02' });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ success: false, message: res.body.message });
    expect(res.body.message).to.contain('environment 02');
    expect(await documentCount(env.stack, demo.row.id)).to.equal(before);
    const same = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc), {
      'X-Environment': 'demo',
    });
    expect(same.status).to.equal(202);
    const invalid = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc), {
      'X-Environment': '03',
    });
    expect(invalid.status).to.equal(422);
  });

  it('401 without or with an unknown token, 403 with an account token', async () => {
    const body = payload('invoice-basic.json', demo.ruc);
    expect((await call(env.stack, 'POST', '/v1/cpe', { json: body })).status).to.equal(401);
    expect((await issue(env.stack, 'chq_sig_unknown', body)).status).to.equal(401);
    const forbidden = await issue(env.stack, demo.accountToken, body);
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.message).to.contain('cpe:sign');
  });

  it('Idempotency-Key: two concurrent identical requests make one document and one signature; a new key with the same number answers the same document, a new number issues anew', async () => {
    const company = await newCompany(env.stack, { environment: '02', quota: 5 });
    const body = payload('invoice-basic.json', company.ruc);
    const headers = { 'Idempotency-Key': `issue-${company.ruc}` };
    const [a, b] = await Promise.all([
      issue(env.stack, company.token, body, headers),
      issue(env.stack, company.token, body, headers),
    ]);
    expect([a.status, b.status]).to.deep.equal([202, 202]);
    expect(a.body).to.deep.equal(b.body);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']]).to.include('true');
    expect(await documentCount(env.stack, company.row.id)).to.equal(1);
    const balance = await env.stack.db('accounts').where({ id: company.accountId }).first('quota_units');
    expect(Number(balance.quota_units), 'one signature consumed').to.equal(4);
    const replay = await issue(env.stack, company.token, body, headers);
    expect(replay.body.external_id).to.equal(a.body.external_id);

    // One number is one document: the same body under a new key answers the same document again.
    const sameNumber = await issue(env.stack, company.token, body, { 'Idempotency-Key': `issue-${company.ruc}-2` });
    expect(sameNumber.body.external_id).to.equal(a.body.external_id);
    const fresh = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc), {
      'Idempotency-Key': `issue-${company.ruc}-3`,
    });
    expect(fresh.status).to.equal(202);
    expect(fresh.body.external_id).to.not.equal(a.body.external_id);
    expect(await documentCount(env.stack, company.row.id)).to.equal(2);
  });

  it("GET, send and resend: 403 for another company's document, 404 for an unknown or malformed id", async () => {
    const res = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    const stranger = await newCompany(env.stack);
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/send'],
      ['POST', '/resend'],
    ] as const) {
      const denied = await call(env.stack, method, `/v1/cpe/${res.body.external_id}${suffix}`, {
        token: stranger.token,
      });
      expect(denied.status, `${method} ${suffix}`).to.equal(403);
      expect(
        (await call(env.stack, method, `/v1/cpe/00000000-0000-4000-8000-000000000000${suffix}`, { token: demo.token }))
          .status,
      ).to.equal(404);
      expect((await call(env.stack, method, `/v1/cpe/not-an-id${suffix}`, { token: demo.token })).status).to.equal(404);
    }
  });

  it('resend: refused for resolved documents; a connection failure is sent again without a new signature', async () => {
    const accepted = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    await until(env.stack, accepted.body.external_id, ['accepted']);
    const refused = await call(env.stack, 'POST', `/v1/cpe/${accepted.body.external_id}/resend`, { token: demo.token });
    expect(refused.status).to.equal(409);
    expect(refused.body.message).to.contain('accepted');

    env.sim.addRule({ operation: 'sendBill', ruc: demo.ruc, fault: { kind: 'reset' }, times: 1 });
    const res = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    const id = res.body.external_id;
    const deadline = Date.now() + 20_000;
    while (!(await findDocument(env.stack.db, id))!.result && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const failed = (await findDocument(env.stack.db, id))!;
    expect(failed.result).to.include({ origin: 'connection', action: 'retry' });
    const resend = await call(env.stack, 'POST', `/v1/cpe/${id}/resend`, { token: demo.token });
    expect(resend.status, JSON.stringify(resend.body)).to.equal(202);
    const done = await until(env.stack, id, ['accepted']);
    expect(done.hash, 'same signed XML').to.equal(res.body.hash);
    expect(done.xml).to.equal(failed.xml);
    expect(done.send_attempts).to.equal(2);
  });

  it('every answer is what /v1/openapi.json documents', async () => {
    const cases: [string, Promise<any>][] = [
      ['POST /v1/cpe', issue(env.stack, demo.token, payload('gre-09-unidad-fuera-de-catalogo.json', demo.ruc))],
      ['POST /v1/cpe', issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc, { tipoMoneda: 'XXX' }))],
      [
        'POST /v1/cpe',
        issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc), { 'X-Environment': '02' }),
      ],
      ['POST /v1/cpe', issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc), { 'X-Environment': 'x' })],
      ['POST /v1/cpe', issue(env.stack, 'chq_sig_unknown', {})],
    ];
    for (const [operation, answer] of cases) await expectDocumented(env.stack, operation, await answer);
    const issued = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    const id = issued.body.external_id;
    await expectDocumented(
      env.stack,
      'GET /v1/cpe/{external_id}',
      await call(env.stack, 'GET', `/v1/cpe/${id}`, { token: demo.token }),
    );
    await expectDocumented(
      env.stack,
      'GET /v1/cpe/{external_id}',
      await call(env.stack, 'GET', '/v1/cpe/x', { token: demo.token }),
    );
    await expectDocumented(
      env.stack,
      'POST /v1/cpe/{external_id}/send',
      await call(env.stack, 'POST', `/v1/cpe/${id}/send`, { token: demo.token }),
    );
    await until(env.stack, id, ['accepted']);
    await expectDocumented(
      env.stack,
      'GET /v1/cpe/{external_id}',
      await call(env.stack, 'GET', `/v1/cpe/${id}`, { token: demo.token }),
    );
    await expectDocumented(
      env.stack,
      'POST /v1/cpe/{external_id}/resend',
      await call(env.stack, 'POST', `/v1/cpe/${id}/resend`, { token: demo.token }),
    );
    const manual = await newCompany(env.stack, { settings: { sending_mode: 'manual' } });
    const waiting = await issue(env.stack, manual.token, payload('invoice-basic.json', manual.ruc));
    await expectDocumented(
      env.stack,
      'POST /v1/cpe/{external_id}/send',
      await call(env.stack, 'POST', `/v1/cpe/${waiting.body.external_id}/send`, { token: manual.token }),
    );
  });

  it('429 past the per-token rate limit', async function () {
    const limited = await startTestStack({ worker: false, config: { rateLimitPerMinute: 2 } });
    try {
      const account = await newAccountToken(limited);
      const company = await newCompany(limited, { accountToken: account });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await call(limited, 'GET', '/v1/cpe/not-an-id', { token: company.token })).status);
      expect(statuses).to.deep.equal([404, 404, 429]);
    } finally {
      await limited.stop();
    }
  });
});

describe('issuing while Temporal is unreachable', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({}, { worker: false });
  });
  after(() => env?.stop());

  it('still commits the signed document and answers 202; its workflow is left to the sweeper', async () => {
    const company = await newCompany(env.stack);
    await env.stack.temporal.connection.close();
    const res = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(Object.keys(res.body)).to.deep.equal(ISSUE_KEYS);
    const row = (await findDocument(env.stack.db, res.body.external_id))!;
    expect(row).to.include({ status: 'queued', workflow_started_at: null, hash: res.body.hash });
    await env.stack.workflowStarts.idle();
    expect((await findDocument(env.stack.db, row.id))!.workflow_started_at).to.equal(null);
  });
});
