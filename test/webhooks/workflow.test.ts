import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { tsToMs } from '@temporalio/common/lib/time';
import { createTimeSkippingEnv } from '../support/time-skipping';
import { getTestDb, testConfig } from '../support/services';
import { createWebhookActivities } from '../../activities/webhooks';
import { secretBoxFrom } from '../../core/config';
import { findDelivery, listAttempts } from '../../db/webhooks';
import type { Db } from '../../db/knex';
import { webhookDeliveryWorkflow, webhookWorkflowId } from '../../workflows/webhook-delivery';
import { WEBHOOK_RETRY_WAITS_MS } from '../../workflows/webhook-types';
import {
  companyWithWebhook,
  historyText,
  localTlsCertificate,
  resolvedDocument,
  startReceiver,
  type Receiver,
  type Script,
  type TlsFiles,
} from './support';

/**
 * The delivery workflow on Temporal's time-skipping server with the real activities, real PostgreSQL and a real https
 * receiver: the 30 s … 30 min waits pass on the server's virtual clock, the POSTs are real.
 */
describe('webhook delivery workflow (time-skipping, real activities and receiver)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;
  let db: Db;
  let tls: TlsFiles;
  const receivers: Receiver[] = [];
  const config = testConfig();
  const secrets = secretBoxFrom(config);

  before(async () => {
    env = await createTimeSkippingEnv();
    bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
    });
    db = await getTestDb();
    tls = localTlsCertificate();
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await env?.teardown();
  });

  /** Runs the delivery of a fresh resolved document to a receiver following `script`; returns what happened. */
  async function deliver(script: Script) {
    const receiver = await startReceiver(tls, script);
    receivers.push(receiver);
    const { company, secret } = await companyWithWebhook(db, secrets, receiver.url);
    const doc = await resolvedDocument(db, company);
    const taskQueue = `webhooks-${randomUUID()}`;
    const activities = createWebhookActivities({
      config: { ...config, webhookAllowPrivate: true, webhookCaFile: tls.certFile },
      db,
      secrets,
    });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    const workflowId = webhookWorkflowId(doc.id);
    const status = await worker.runUntil(
      env.client.workflow.execute(webhookDeliveryWorkflow, { taskQueue, workflowId, args: [{ externalId: doc.id }] }),
    );
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    const timers = history
      .events!.filter((e) => e.timerStartedEventAttributes)
      .map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
    const delivery = (await findDelivery(
      db,
      (await db('webhook_deliveries').where({ document_id: doc.id }).first()).id,
    ))!;
    return { status, receiver, secret, doc, history, timers, delivery, attempts: await listAttempts(db, delivery.id) };
  }

  it('a receiver failing 4 times then answering 200 gets 5 attempts, 30 s, 2, 8 and 30 min apart, one X-Entrega', async () => {
    const { status, receiver, timers, delivery, attempts } = await deliver((n) => ({ status: n <= 4 ? 500 : 200 }));
    expect(status).to.equal('delivered');
    expect(receiver.requests).to.have.length(5);
    expect(timers).to.deep.equal([30_000, 120_000, 480_000, 1_800_000]);
    expect(timers).to.deep.equal([...WEBHOOK_RETRY_WAITS_MS]);
    expect(new Set(receiver.requests.map((r) => r.headers['x-entrega']))).to.deep.equal(new Set([delivery.id]));
    expect(attempts.map((a) => [a.number, a.http_status, a.delivered])).to.deep.equal([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
      [5, 200, true],
    ]);
    expect(delivery).to.include({ status: 'delivered', attempts: 5 });
  });

  it('a receiver that always fails gets exactly 5 attempts and the delivery ends failed', async () => {
    const { status, receiver, timers, delivery } = await deliver(() => ({ status: 404 }));
    expect(status).to.equal('failed');
    expect(receiver.requests).to.have.length(5);
    expect(timers).to.have.length(4);
    expect(delivery).to.include({ status: 'failed', attempts: 5, next_attempt_at: null, last_error: 'HTTP 404' });
  });

  it('keeps the secret, the signature and the body out of the workflow history', async () => {
    const { history, secret, receiver, doc } = await deliver(() => ({ status: 200 }));
    const text = historyText(history);
    expect(text).to.contain(doc.id);
    expect(text).not.to.contain(secret);
    expect(text).not.to.contain(String(receiver.requests[0].headers['x-firma']));
    expect(text).not.to.contain(doc.hash);
    expect(text).not.to.contain('sent_at');
  });
});
