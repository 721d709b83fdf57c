import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { tsToMs } from '@temporalio/common/lib/time';
import { createTimeSkippingEnv } from '../support/time-skipping';
import { getTestDb, getTestFiles, testConfig } from '../support/services';
import { commitSignedDocument, fixture } from '../support/documents';
import { companyWithWebhook, historyText } from '../webhooks/support';
import { closedPort, startSmtpServer, type SmtpServerHandle } from './support';
import { createBuyerEmailActivities } from '../../activities/buyer-email';
import { secretBoxFrom } from '../../core/config';
import { findDocument, recordOutcome, type DocumentRow } from '../../db/documents';
import type { Db } from '../../db/knex';
import { createSigner, generateTestCertificate } from '../../documents/signing';
import { buyerEmailWorkflow, buyerEmailWorkflowId } from '../../workflows/buyer-email';
import { EMAIL_RETRY_WAITS_MS } from '../../lifecycle/email';

/**
 * The e-mail workflow on Temporal's time-skipping server with the real activity, real PostgreSQL and a real SMTP
 * server (or none listening): the hour of retries passes on the server's virtual clock, the SMTP conversations are real.
 */
describe("buyer's e-mail workflow (time-skipping, real activity and SMTP)", function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;
  let db: Db;
  const servers: SmtpServerHandle[] = [];
  const config = testConfig();
  const secrets = secretBoxFrom(config);
  let number = Math.floor(Date.now() / 1000) % 1_000_000;

  before(async () => {
    env = await createTimeSkippingEnv();
    bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
    });
    db = await getTestDb();
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await env?.teardown();
  });

  /** A signed invoice of a fresh company, accepted, whose buyer is e-mailed. */
  async function acceptedDocument(): Promise<DocumentRow> {
    const { company } = await companyWithWebhook(db, secrets, null);
    const payload = fixture('invoice-basic.json');
    payload.emisor.ruc = company.ruc;
    payload.correlativo = String(++number);
    const doc = await commitSignedDocument(
      db,
      company,
      payload,
      createSigner(generateTestCertificate({ ruc: company.ruc })),
    );
    await db('documents')
      .where({ id: doc.id })
      .update({ email_to: ['compras@cliente.pe'], email_status: 'pending' });
    await recordOutcome(db, doc.id, {
      status: 'accepted',
      result: {
        code: '0',
        message: 'aceptada',
        errors: [],
        origin: null,
        origin_description: null,
        reached_sunat: true,
        action: null,
      },
      sent: true,
    });
    return (await findDocument(db, doc.id))!;
  }

  async function run(smtpUrl: string) {
    const doc = await acceptedDocument();
    const taskQueue = `email-${randomUUID()}`;
    const activities = createBuyerEmailActivities({
      config: { ...config, buyers: { ...config.buyers, smtpUrl, mailFrom: 'facturas@chasqui.test' } },
      db,
      files: getTestFiles(config),
      secrets,
      temporal: env.client,
    });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    const workflowId = buyerEmailWorkflowId(doc.id);
    const status = await worker.runUntil(
      env.client.workflow.execute(buyerEmailWorkflow, { taskQueue, workflowId, args: [{ externalId: doc.id }] }),
    );
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    const timers = history
      .events!.filter((e) => e.timerStartedEventAttributes)
      .map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout));
    return { status, timers, history, row: (await findDocument(db, doc.id))! };
  }

  it('with the SMTP server down: 5 attempts 4, 8, 16 and 32 minutes apart, then failed, and the document still accepted', async () => {
    const { status, timers, row } = await run(`smtp://127.0.0.1:${await closedPort()}`);
    expect(status).to.equal('failed');
    expect(timers).to.deep.equal([240_000, 480_000, 960_000, 1_920_000]);
    expect(timers).to.deep.equal([...EMAIL_RETRY_WAITS_MS]);
    expect(timers.reduce((a, b) => a + b, 0)).to.equal(60 * 60_000);
    expect(row).to.include({ status: 'accepted', resolved: true, email_status: 'failed', email_attempts: 5 });
    expect(row.email_error).to.match(/ECONNREFUSED/);
  });

  it('a server that answers on the first attempt: sent, no wait, and nothing of the message in the history', async () => {
    const server = await startSmtpServer();
    servers.push(server);
    const { status, timers, row, history } = await run(server.url());
    expect(status).to.equal('sent');
    expect(timers).to.deep.equal([]);
    expect(row).to.include({ email_status: 'sent', email_attempts: 1, email_error: null });
    expect(server.mails).to.have.length(1);
    const text = historyText(history);
    expect(text).not.to.include('compras@cliente.pe');
  });
});
