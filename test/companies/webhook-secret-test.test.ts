import { expect } from 'chai';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually, localTlsCertificate, startReceiver, type Receiver } from '../webhooks/support';
import { webhookSignature } from '../../activities/webhooks';
import { TEST_NOTICE_LIMIT } from '../../api/companies/webhook';
import { call, createCompany, newAccountToken, randomRuc } from './helpers';

/**
 * Issue 42: the webhook's secret rotated through the API, and a test notice a receiver verifies like a real one (same
 * X-Firma, delivered by the delivery workflow) but cannot take for a resolution; every change audited, secret masked.
 */
describe('webhook: secret rotation and test notice (API, worker, local receiver)', function () {
  this.timeout(60_000);
  const tls = localTlsCertificate();
  let stack: TestStack;
  let receiver: Receiver;
  let account: string;
  let accountId: string;
  let ruc: string;
  before(async function () {
    this.timeout(120_000);
    receiver = await startReceiver(tls);
    stack = await startTestStack({ config: { webhookAllowPrivate: true, webhookCaFile: tls.certFile } });
    ({ token: account, accountId } = await newAccountToken(stack));
    ruc = randomRuc();
    await createCompany(stack, account, ruc);
  });
  after(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const webhook = (rest = '', json?: unknown) =>
    call(stack, rest ? 'POST' : 'PATCH', `/v1/companies/${ruc}/webhook${rest}`, { token: account, json });
  const audit = (action: string) =>
    stack.db('audit_log').where({ account_id: accountId, action }).orderBy('id', 'desc');
  const sealed = async () =>
    (await stack.db('companies').where({ ruc, account_id: accountId }).first()).webhook_secret_sealed;

  it('without a webhook, rotating and testing are refused (409)', async () => {
    expect((await webhook('/secret')).status).to.equal(409);
    expect((await webhook('/test')).status).to.equal(409);
  });

  it('PATCH goes through the audited function: the URL and a masked secret recorded', async () => {
    const res = await webhook('', { url: receiver.url });
    expect(res.status).to.equal(200);
    const [row] = await audit('webhook.set');
    expect(row.changes).to.deep.equal({
      url: { from: null, to: receiver.url },
      secret: { from: null, to: '(secreto nuevo)' },
    });
    expect(JSON.stringify(row)).to.not.include(res.body.data.webhook.secret);
    const same = await webhook('', { url: receiver.url });
    expect(same.body.message).to.include('unchanged');
    expect(same.body.data.webhook.note).to.include('/webhook/secret');
  });

  it('rotates the secret for the same URL: shown once, the old one gone, audited masked', async () => {
    const before = await sealed();
    const res = await webhook('/secret');
    expect(res.status).to.equal(200);
    const { url, secret } = res.body.data.webhook;
    expect(url).to.equal(receiver.url);
    expect(secret).to.have.length(48);
    expect(stack.secrets.open(await sealed())).to.equal(secret);
    expect(await sealed()).to.not.equal(before);
    const [row] = await audit('webhook.rotate_secret');
    expect(row.changes).to.deep.equal({ secret: { from: '(secreto)', to: '(secreto nuevo)' } });
    const read = await call(stack, 'GET', `/v1/companies/${ruc}`, { token: account });
    expect(JSON.stringify(read.body)).to.not.include(secret);
  });

  it('sends a test notice the receiver verifies with the secret, under its own event and without a document', async () => {
    const secret = (await webhook('/secret')).body.data.webhook.secret;
    const seen = receiver.requests.length;
    const res = await webhook('/test');
    expect(res.status).to.equal(202);
    const { delivery } = res.body.data;
    expect(delivery).to.include({ event: 'webhook.test', external_id: null, check_event_id: null });
    const got = await eventually(() => receiver.requests[seen]);
    expect(got.headers['x-evento']).to.equal('webhook.prueba');
    expect(got.headers['x-entrega']).to.equal(delivery.id);
    expect(got.headers['x-firma']).to.equal(webhookSignature(secret, got.body));
    const body = JSON.parse(got.body);
    expect(body).to.include({ event: 'webhook.test', test: true });
    expect(body).to.not.have.property('document');
    expect(body.company.ruc).to.equal(ruc);
    const listed = await eventually(async () => {
      const read = await call(stack, 'GET', `/v1/companies/${ruc}/webhook/deliveries/${delivery.id}`, {
        token: account,
      });
      return read.body.data.delivery.status === 'delivered' ? read.body.data.delivery : undefined;
    });
    expect(listed.attempts[0].http_status).to.equal(200);
    // The log's redelivery applies to it as to any ended notice: a new X-Entrega, the same event.
    const again = await call(stack, 'POST', `/v1/companies/${ruc}/webhook/deliveries/${delivery.id}/redeliver`, {
      token: account,
    });
    expect(again.status).to.equal(202);
    const second = await eventually(() => receiver.requests[seen + 1]);
    expect(second.headers['x-evento']).to.equal('webhook.prueba');
    expect(second.headers['x-entrega']).to.equal(again.body.data.delivery.id);
  });

  it('checks the URL as when it was set: a target no longer allowed is refused (422 naming url)', async () => {
    const url = receiver.url;
    await stack
      .db('companies')
      .where({ ruc, account_id: accountId })
      .update({ webhook_url: url.replace('https', 'http') });
    const res = await webhook('/test');
    expect(res.status).to.equal(422);
    expect(res.body.errors).to.have.property('url');
    await stack.db('companies').where({ ruc, account_id: accountId }).update({ webhook_url: url });
  });

  it(`limits test notices to ${TEST_NOTICE_LIMIT.limit} an hour per company (429)`, async () => {
    let status = 202;
    for (let i = 0; i <= TEST_NOTICE_LIMIT.limit && status === 202; i++) status = (await webhook('/test')).status;
    expect(status).to.equal(429);
  });
});
