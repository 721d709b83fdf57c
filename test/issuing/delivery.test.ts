import { expect } from 'chai';
import type { Knex } from 'knex';
import got from 'got';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig } from '../support/services';
import { createAccount } from '../../db/accounts';
import { insertCompany, type CompanyRow } from '../../db/companies';
import { findDocument, type DocumentRow } from '../../db/documents';
import { createSigner, generateTestCertificate } from '../../documents/signing';
import { commitSignedDocument, companyWithRuc, fixture } from '../support/documents';
import { recordHistory } from '../support/histories';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { signalDocumentWorkflow, startDocumentWorkflow } from '../../workflows/document-client';
import { documentWorkflowId } from '../../workflows/document';
import { createSweeperActivities } from '../../activities/sweeper';
import { createWebhookActivities } from '../../activities/webhooks';
import { createDocumentActivities } from '../../activities/documents';
import { DOCUMENT_MISSING, type DocStatus } from '../../workflows/document-types';
import { DocStatusKey, RucKey } from '../../workflows/search-attributes';

const RUC = '20123456786';

/**
 * The document workflow and its activities end to end: real Temporal dev server, real PostgreSQL, and the SUNAT
 * simulator with injected faults. Documents are inserted as the issue operation commits them; waits that would take
 * minutes (connection backoff, 10-minute reconciliation, ticket polls) are cut short with the workflow's own
 * `resend`/`recheck` signals — their timing is covered on the time-skipping server (test/workflows).
 */
describe('document delivery (workflow + activities + simulator)', function () {
  this.timeout(90_000);
  let sim: SimulatorHandle;
  let stack: TestStack;
  let company: CompanyRow;
  let number = 1000;
  let lastIssued: string | null = null;
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));

  before(async function () {
    this.timeout(120_000);
    sim = await startTestSimulator({ port: 0, ticketPolls: 1 });
    const base = testConfig();
    stack = await startTestStack({
      config: {
        authority: { ...base.authority, authorityUrl: sim.url },
        authorityTimeouts: { connectMs: 1_000, responseMs: 1_500 },
      },
    });
    company = await companyWithRuc(stack.db, RUC, 'Comercial Andina S.A.C.');
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });
  beforeEach(() => sim.clearRules());
  // RECORD_HISTORIES=1 saves each scenario's finished document workflow for the replay test (test/workflows/replay).
  afterEach(async function () {
    if (!process.env.RECORD_HISTORIES || !lastIssued) return;
    await recordHistory(stack.temporal, documentWorkflowId(lastIssued), this.currentTest!.title);
    lastIssued = null;
  });

  /** Commits a fixture with a fresh number the way POST /v1/cpe does, then starts its workflow. */
  async function issue(name: string, options: { status?: DocStatus; start?: boolean } = {}): Promise<DocumentRow> {
    const payload = fixture(name);
    payload.correlativo = String(++number);
    const doc = await commitSignedDocument(stack.db, company, payload, signer, options);
    lastIssued = doc.id;
    if (options.start !== false) await startDocumentWorkflow(stack.temporal, stack.config.temporal.taskQueue, doc);
    return doc;
  }

  /** Polls the database (the source of truth) until the document reaches one of `statuses`. */
  async function until(
    id: string,
    statuses: DocStatus[],
    ms = 30_000,
    also: (row: DocumentRow) => boolean = () => true,
  ): Promise<DocumentRow> {
    const deadline = Date.now() + ms;
    for (;;) {
      const doc = (await findDocument(stack.db, id))!;
      if (statuses.includes(doc.status) && also(doc)) return doc;
      if (Date.now() > deadline)
        throw new Error(
          `document stayed ${doc.status} (${JSON.stringify(doc.result)}), expected ${statuses.join('/')}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const eventTypes = (history: Parameters<typeof historyToJSON>[0]) =>
    (JSON.parse(historyToJSON(history)).events as { eventType: string }[]).map((e) =>
      e.eventType.replace('EVENT_TYPE_', ''),
    );

  async function events(id: string) {
    return (stack.db as Knex)('document_events').where({ document_id: id });
  }

  it('accepted: the CDR is kept, the result has no action, and one cpe.resolved event is recorded', async () => {
    const doc = await issue('invoice-basic.json');
    const done = await until(doc.id, ['accepted']);
    expect(done).to.include({ resolved: true, status_code: '06' });
    expect(done.result).to.include({ code: '0', reached_sunat: true }).and.not.have.property('action');
    expect(done.cdr_zip).to.be.a('string').with.length.above(100);
    expect(await events(doc.id)).to.have.length(1);
    const handle = stack.temporal.workflow.getHandle(documentWorkflowId(doc.id));
    expect(await handle.result()).to.equal('accepted');
    const state = await handle.describe();
    expect(state.status.name).to.equal('COMPLETED');
    expect(state.typedSearchAttributes.get(DocStatusKey)).to.equal('accepted');
    expect(state.typedSearchAttributes.get(RucKey)).to.equal(RUC);
    // The company has no webhook: the resolution is stored handled and no delivery workflow is started for it.
    expect((await events(doc.id))[0].webhook_started_at).to.be.an.instanceOf(Date);
    const delivery = await stack.temporal.workflow
      .getHandle(`webhook-cpe-${doc.id}`)
      .describe()
      .catch((err: Error) => err);
    expect(delivery).to.have.property('name', 'WorkflowNotFoundError');
    // One workflow task: plan and send as one local activity, DocStatus upserted, done (docs/architecture.md).
    expect(eventTypes(await handle.fetchHistory())).to.deep.equal([
      'WORKFLOW_EXECUTION_STARTED',
      'WORKFLOW_TASK_SCHEDULED',
      'WORKFLOW_TASK_STARTED',
      'WORKFLOW_TASK_COMPLETED',
      'MARKER_RECORDED',
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
      'WORKFLOW_EXECUTION_COMPLETED',
    ]);
  });

  it('a first send run again (its workflow task lost after it recorded a timeout) returns that outcome and sends nothing', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'hang' }, times: 1 });
    const doc = await issue('invoice-basic.json', { start: false });
    lastIssued = null; // no workflow to record: the activity is called directly
    const activities = createDocumentActivities(stack, createWebhookActivities(stack));
    expect(await activities.sendDocument(doc.id, 'queued')).to.include({ kind: 'unknown', status: 'sent' });
    const sends = () =>
      sim.log().filter((e) => e.ruc === RUC && e.operation === 'sendBill' && !!e.name?.startsWith(doc.filename)).length;
    expect(sends()).to.equal(1);
    expect(await activities.sendDocument(doc.id, 'queued')).to.include({ kind: 'unknown', status: 'sent' });
    expect(sends()).to.equal(1);
    expect(await findDocument(stack.db, doc.id)).to.include({ send_attempts: 1, send_started_at: null });
  });

  it('a ticket poll of a document that holds no ticket polls nothing, records nothing, and has it sent again', async () => {
    const doc = await issue('invoice-basic.json', { status: 'registered', start: false });
    lastIssued = null; // no workflow to record: the activity is called directly
    const activities = createDocumentActivities(stack, createWebhookActivities(stack));
    const calls = () => sim.log().length;
    const before = calls();
    // lifecycle/transitions.ts NO_TICKET_TO_POLL: the workflow's next step is a send (stepAfterWait of a retry).
    expect(await activities.checkTicket(doc.id)).to.deep.equal({
      kind: 'retry',
      status: 'queued',
      code: null,
      ticket: null,
    });
    expect(calls()).to.equal(before);
    expect(await findDocument(stack.db, doc.id)).to.include({ status: 'registered', ticket: null, result: null });
  });

  it('a workflow whose document is gone (chasqui restored to an older backup) ends at once, its load not retried', async () => {
    const doc = await issue('invoice-basic.json', { start: false });
    lastIssued = null; // nothing worth replaying: one failed local activity
    await (stack.db as Knex)('documents').where({ id: doc.id }).delete();
    await startDocumentWorkflow(stack.temporal, stack.config.temporal.taskQueue, doc);
    const handle = stack.temporal.workflow.getHandle(documentWorkflowId(doc.id));
    expect(await handle.result()).to.equal(DOCUMENT_MISSING);
    // One attempt: the local activity's failure is final (a retry would wait 5 s and be recorded as a second marker).
    const markers = eventTypes(await handle.fetchHistory()).filter((t) => t === 'MARKER_RECORDED');
    expect(markers).to.have.length(1);
    expect(sim.log().filter((e) => e.ruc === RUC && !!e.name?.startsWith(doc.filename))).to.deep.equal([]);
  });

  it('observed: accepted with the observation codes in the result', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'observe', code: '4252' } });
    const doc = await issue('invoice-basic.json');
    const done = await until(doc.id, ['observed', 'accepted', 'rejected']);
    expect(done.status).to.equal('observed');
    expect(done.result!.observations!.join(' ')).to.contain('4252');
  });

  it('rejected: resolved with status_code 09, the SUNAT error, action correct, never retried', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'reject', code: '2017' } });
    const doc = await issue('invoice-basic.json');
    const done = await until(doc.id, ['rejected', 'accepted']);
    expect(done).to.include({ status: 'rejected', status_code: '09', resolved: true, send_attempts: 1 });
    expect(done.result).to.include({ origin: 'tax_authority', action: 'correct', reached_sunat: true, code: '2017' });
    expect(done.result!.errors[0]).to.match(/^\[SUNAT 2017\]/);
  });

  it('connection failure: stays queued with origin connection and retries, then is accepted', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'reset' }, times: 1 });
    const doc = await issue('invoice-basic.json');
    const failed = await until(doc.id, ['queued'], 20_000, (row) => row.result !== null);
    expect(failed).to.include({ status: 'queued', resolved: false });
    expect(failed.result).to.include({ origin: 'connection', reached_sunat: false, action: 'retry' });
    // The service retries by itself after its backoff; the resend signal only cuts the 30 s wait short here.
    await signalDocumentWorkflow(stack.temporal, doc.id, 'resend');
    const done = await until(doc.id, ['accepted']);
    expect(done.send_attempts).to.equal(2);
  });

  it('timeout: Pending (sent, reached_sunat null, action review), never resent blindly; the state query resolves it', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'hang' }, times: 1 });
    const doc = await issue('invoice-basic.json');
    const pending = await until(doc.id, ['sent']);
    expect(pending.result).to.include({
      origin: 'timeout',
      reached_sunat: null,
      action: 'review',
      success: false,
      external_id: doc.id,
    });
    // The simulator never processed the hung request: the 10-minute query (run now) learns SUNAT has no record of it,
    // which makes a new send safe; the send goes through and the document is accepted.
    await signalDocumentWorkflow(stack.temporal, doc.id, 'recheck');
    await until(doc.id, ['queued', 'accepted']);
    await signalDocumentWorkflow(stack.temporal, doc.id, 'resend');
    const done = await until(doc.id, ['accepted']);
    expect(done.resolved).to.equal(true);
    const operations = sim
      .log()
      .filter((e) => e.ruc === RUC)
      .map((e) => e.operation);
    expect(operations.filter((op) => op === 'getStatusCdr')).to.have.length.at.least(1);
  });

  it('system failure: an empty 200 leaves it sent and unresolved with origin system, action review', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'empty200' } });
    const doc = await issue('invoice-basic.json');
    const failed = await until(doc.id, ['sent']);
    expect(failed.resolved).to.equal(false);
    expect(failed.result).to.include({ origin: 'system', action: 'review' });
  });

  // "Already reported" (1033) and whose number it is: test/issuing/one-number.test.ts.

  it('summary (rc): gets a ticket, stays registered while it is at 98, then resolves', async () => {
    const doc = await issue('rc-add.json');
    const registered = await until(doc.id, ['registered']);
    expect(registered.ticket).to.be.a('string');
    // Polls run after 10 s, 20 s …; recheck asks at once: first 98 (still registered), then the verdict.
    await signalDocumentWorkflow(stack.temporal, doc.id, 'recheck');
    const processing = await until(doc.id, ['registered'], 30_000, (row) => row.result?.code === '98');
    expect(processing.resolved).to.equal(false);
    await signalDocumentWorkflow(stack.temporal, doc.id, 'recheck');
    const done = await until(doc.id, ['accepted', 'observed']);
    expect(done.ticket).to.equal(registered.ticket);
  });

  it('manual mode: to_send waits for the send signal', async () => {
    const doc = await issue('invoice-basic.json', { status: 'to_send' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await findDocument(stack.db, doc.id))!.send_attempts).to.equal(0);
    await stack.db('documents').where({ id: doc.id }).update({ status: 'queued' });
    await signalDocumentWorkflow(stack.temporal, doc.id, 'send');
    await until(doc.id, ['accepted']);
  });

  it('own certificate in production: sends with the secondary SOL user, and waits (queued) until one is loaded', async () => {
    const { account } = await createAccount(stack.db, { name: 'own certificate', quotaUnits: 0 });
    const ownRuc = '20600000005';
    await stack.db('companies').where({ ruc: ownRuc }).delete();
    const own = (
      await insertCompany(stack.db, {
        account_id: account.id,
        ruc: ownRuc,
        business_name: 'Distribuidora del Sur S.A.',
        plan_type: '01',
        environment: '02',
      })
    ).company;
    const payload = fixture('invoice-basic.json');
    Object.assign(payload, {
      correlativo: String(++number),
      emisor: { ...payload.emisor, ruc: ownRuc },
      cliente: { tipoDoc: '6', numDoc: RUC, nombre: 'Comercial Andina S.A.C.' },
    });
    const doc = await commitSignedDocument(stack.db, own, payload, signer);
    await stack.db('documents').where({ id: doc.id }).update({ signed_by: 'own_certificate' });
    await startDocumentWorkflow(stack.temporal, stack.config.temporal.taskQueue, doc);
    const waiting = await until(doc.id, ['queued'], 20_000, (row) => row.result !== null);
    expect(waiting.result).to.include({
      code: 'NO_CREDENTIALS',
      origin: 'connection',
      reached_sunat: false,
      action: 'retry',
    });
    expect(waiting.result!.message).to.contain('secondary SOL user');

    // SUNAT (the simulator) knows only the secondary user of this RUC, so the send succeeds with it and nothing else.
    await got.post(`${sim.url}/__admin/credentials`, {
      json: { ruc: ownRuc, user: 'ENVIOS01', password: 'second-secret' },
    });
    await stack
      .db('companies')
      .where({ id: own.id })
      .update({
        sol_user: 'PRINCIPAL',
        sol_password_sealed: stack.secrets.seal('principal-secret'),
        sol_secondary_user: 'ENVIOS01',
        sol_secondary_password_sealed: stack.secrets.seal('second-secret'),
      });
    await signalDocumentWorkflow(stack.temporal, doc.id, 'resend');
    const done = await until(doc.id, ['accepted', 'rejected']);
    expect(done.status).to.equal('accepted');
  });

  it('the sweeper starts the workflow of a committed document whose start was lost, once', async () => {
    const doc = await issue('invoice-basic.json', { start: false });
    await stack
      .db('documents')
      .where({ id: doc.id })
      .update({ created_at: stack.db.raw("now() - interval '2 minutes'") });
    const sweeper = createSweeperActivities({
      config: stack.config,
      db: stack.db,
      files: stack.files,
      secrets: stack.secrets,
      temporal: stack.temporal,
    });
    expect(await sweeper.startUnstartedDocuments()).to.be.at.least(1);
    expect(await sweeper.startUnstartedDocuments()).to.equal(0);
    const done = await until(doc.id, ['accepted']);
    expect(done.workflow_started_at).to.be.an.instanceOf(Date);
    // An invoice started again is interactive work, in its account's turn.
    const started = await stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).describe();
    expect(started.priority).to.deep.include({ priorityKey: 3, fairnessKey: done.account_id });
  });
});
