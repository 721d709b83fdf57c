import { expect } from 'chai';
import { recordHistory } from '../support/histories';
import got from 'got';
import { webhookSignature } from '../../activities/webhooks';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  call,
  expectDocumented,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { webhookWorkflowId } from '../../workflows/webhook-delivery';
import { documentWorkflowId } from '../../workflows/document';
import { createWebhookSweeperActivities } from '../../activities/webhooks';
import {
  eventually,
  historyText,
  resolvedDocument,
  localTlsCertificate,
  spawnExampleReceiver,
  type ExampleReceiver,
  type TlsFiles,
} from './support';

/**
 * The whole path an integrator sees: POST /v1/cpe → document workflow → simulator verdict → webhook (first attempt
 * in the document workflow, later ones in the delivery workflow) →
 * the documented example receiver (examples/webhook-receiver.js, its own process, over https) → the account reads the
 * delivery and asks for a redelivery.
 */
describe('webhooks end to end (API, worker, simulator, example receiver)', function () {
  this.timeout(90_000);
  let env: IssuingStack;
  let tls: TlsFiles;
  let company: TestCompany;
  let receiver: ExampleReceiver;
  let secret: string;

  before(async function () {
    this.timeout(120_000);
    tls = localTlsCertificate();
    env = await startIssuingStack({ webhookAllowPrivate: true, webhookCaFile: tls.certFile });
    company = await newCompany(env.stack);
    // The secret is only known once the URL is registered, and the receiver needs it: register, then point at it.
    const probe = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/webhook`, {
      token: company.accountToken,
      json: { url: 'https://127.0.0.1:1/pending' },
    });
    secret = probe.body.data.webhook.secret;
    receiver = await spawnExampleReceiver(tls, secret);
    await env.stack.db('companies').where({ id: company.row.id }).update({ webhook_url: receiver.url });
  });
  after(async () => {
    receiver?.stop();
    await env?.stop();
  });

  const deliveries = (suffix = '') => `/v1/companies/${company.ruc}/webhook/deliveries${suffix}`;

  it('a document resolved by the simulator reaches the receiver with the document GET /v1/cpe returns', async () => {
    const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(issued.status).to.equal(202);
    const id = issued.body.external_id;
    const received = await eventually(
      () => receiver.processed.find((p) => p.notice.document.external_id === id),
      60_000,
    );
    const queried = await call(env.stack, 'GET', `/v1/cpe/${id}`, { token: company.token });
    expect(queried.status).to.equal(200);
    expect(received.notice.document).to.deep.equal(queried.body.data.document);
    expect(received.notice).to.include({ event: 'cpe.resolved' });
    expect(received.notice.document).to.include({ status: 'accepted', resolved: true });

    // The account sees the delivery and its attempt.
    const list = await call(env.stack, 'GET', deliveries(`?external_id=${id}`), { token: company.accountToken });
    await expectDocumented(env.stack, 'GET /v1/companies/{ruc}/webhook/deliveries', list);
    expect(list.body.data.deliveries).to.have.length(1);
    const [delivery] = list.body.data.deliveries;
    expect(delivery).to.include({
      id: received.delivery,
      external_id: id,
      status: 'delivered',
      attempts_made: 1,
      redelivery_of: null,
    });
    const one = await call(env.stack, 'GET', deliveries(`/${delivery.id}`), { token: company.accountToken });
    await expectDocumented(env.stack, 'GET /v1/companies/{ruc}/webhook/deliveries/{id}', one);
    expect(one.body.data.delivery.attempts).to.have.length(1);
    expect(one.body.data.delivery.attempts[0]).to.include({
      number: 1,
      url: receiver.url,
      http_status: 200,
      error: null,
      delivered: true,
    });

    // Delivered at the first attempt: by the document workflow itself, whose history holds ids, not the secret; no
    // delivery workflow was needed.
    // The notice is out while the workflow task that sent it still runs: wait for it to be recorded.
    const handle = env.stack.temporal.workflow.getHandle(documentWorkflowId(id));
    await handle.result();
    const raw = await handle.fetchHistory();
    // RECORD_HISTORIES=1 keeps this history for the replay test (test/workflows/replay.test.ts).
    if (process.env.RECORD_HISTORIES)
      await recordHistory(env.stack.temporal, documentWorkflowId(id), 'webhook notice delivered at attempt 1');
    // One workflow task and one marker: plan, send, the opened delivery and attempt 1 (docs/architecture.md); the
    // same 7 events as a document of a company without webhook.
    expect(raw.events!.length).to.equal(7);
    expect(raw.events!.filter((e) => e.markerRecordedEventAttributes)).to.have.length(1);
    const history = historyText(raw);
    expect(history).to.contain(id).and.to.contain(delivery.id);
    expect(history).not.to.contain(secret);
    const child = await env.stack.temporal.workflow
      .getHandle(webhookWorkflowId(id))
      .describe()
      .catch((err: Error) => err);
    expect(child).to.have.property('name', 'WorkflowNotFoundError');

    // A redelivery is a new delivery (new X-Entrega) of the same document; the receiver processes it as new.
    const again = await call(env.stack, 'POST', deliveries(`/${delivery.id}/redeliver`), {
      token: company.accountToken,
    });
    await expectDocumented(env.stack, 'POST /v1/companies/{ruc}/webhook/deliveries/{id}/redeliver', again);
    expect(again.status).to.equal(202);
    expect(again.body.data.delivery).to.include({ redelivery_of: delivery.id, status: 'pending' });
    const redelivered = await eventually(() =>
      receiver.processed.find((p) => p.delivery === again.body.data.delivery.id),
    );
    expect(redelivered.notice.document).to.deep.equal(queried.body.data.document);
    const after = await call(env.stack, 'GET', deliveries(`/${again.body.data.delivery.id}`), {
      token: company.accountToken,
    });
    expect(after.body.data.delivery).to.include({ status: 'delivered', attempts_made: 1 });
  });

  it('a resolution no workflow notified (a receipt settled by its daily summary) is delivered by the sweeper', async () => {
    const doc = await resolvedDocument(env.stack.db, company.row, 77);
    await env.stack
      .db('document_events')
      .where({ document_id: doc.id })
      .update({ created_at: env.stack.db.raw("now() - interval '2 minutes'") });
    const { stack } = env;
    const started = await createWebhookSweeperActivities({
      config: stack.config,
      db: stack.db,
      files: stack.files,
      secrets: stack.secrets,
      temporal: stack.temporal,
    }).startUnnotifiedResolutions();
    expect(started).to.be.at.least(1);
    const received = await eventually(() => receiver.processed.find((p) => p.notice.document.external_id === doc.id));
    expect(received.notice.document).to.include({ status: 'accepted', resolved: true });
    const event = await stack.db('document_events').where({ document_id: doc.id }).first();
    expect(event.webhook_started_at).to.be.instanceOf(Date);
    const delivery = await stack.temporal.workflow.getHandle(webhookWorkflowId(doc.id)).describe();
    expect(delivery.priority).to.deep.include({ priorityKey: 3, fairnessKey: company.row.account_id });
  });

  it('the example receiver discards a bad signature and processes a repeated X-Entrega once', async () => {
    const body = JSON.stringify({
      event: 'cpe.resolved',
      sent_at: '2026-11-21T10:00:00.000-05:00',
      document: { external_id: 'replayed' },
    });
    const before = receiver.processed.length;
    // Direct calls to the self-signed receiver: trust its certificate as chasqui does through CHASQUI_WEBHOOK_CA_FILE.
    const post = (signature: string, delivery: string) =>
      got.post(receiver.url, {
        body,
        headers: { 'Content-Type': 'application/json', 'X-Entrega': delivery, 'X-Firma': signature },
        throwHttpErrors: false,
        retry: { limit: 0 },
        https: { certificateAuthority: tls.certPem },
      });
    expect((await post(webhookSignature('not the secret', body), 'forged')).statusCode).to.equal(401);
    expect((await post(webhookSignature(secret, body), 'same-delivery')).statusCode).to.equal(200);
    expect((await post(webhookSignature(secret, body), 'same-delivery')).statusCode).to.equal(200);
    expect(receiver.processed.slice(before).map((p) => p.delivery)).to.deep.equal(['same-delivery']);
  });

  it('redelivery needs an ended delivery of this company and a configured webhook', async () => {
    const list = await call(env.stack, 'GET', deliveries(), { token: company.accountToken });
    const [delivery] = list.body.data.deliveries;
    const other = await newCompany(env.stack);
    const foreign = await call(
      env.stack,
      'POST',
      `/v1/companies/${other.ruc}/webhook/deliveries/${delivery.id}/redeliver`,
      { token: other.accountToken },
    );
    expect(foreign.status).to.equal(404);
    expect((await call(env.stack, 'GET', deliveries('/not-a-uuid'), { token: company.accountToken })).status).to.equal(
      404,
    );
    expect((await call(env.stack, 'GET', deliveries('?status=lost'), { token: company.accountToken })).status).to.equal(
      422,
    );
    expect((await call(env.stack, 'GET', deliveries(), { token: company.token })).status).to.equal(403);
  });
});
