import { expect } from 'chai';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig } from '../support/services';
import type { CompanyRow } from '../../db/companies';
import { findDocument, type DocumentRow } from '../../db/documents';
import { listDocumentAttempts } from '../../db/document-lists';
import { createSigner, generateTestCertificate } from '../../documents/signing';
import { commitSignedDocument, companyWithRuc, fixture } from '../support/documents';
import { startDocumentWorkflow } from '../../workflows/document-client';
import { documentWorkflowId } from '../../workflows/document';
import type { DocStatus } from '../../workflows/document-types';

const RUC = '20123456786';
/** The first send's wait inside the workflow task, injected short; the answer budget stays long. */
const WAIT_MS = 300;
const RESPONSE_MS = 20_000;

/**
 * A first send the authority does not answer promptly leaves the workflow's first task (where Temporal warned
 * TMPRL1104 every 8 s with only a run id) to the regular send activity, which asks the authority before sending
 * again: real Temporal, PostgreSQL and the simulator, whose `hang` fault is the authority that does not answer.
 */
describe('first send: an authority slower than the wait inside the workflow task', function () {
  this.timeout(90_000);
  let sim: SimulatorHandle;
  let stack: TestStack;
  let company: CompanyRow;
  let number = 5000;
  /** Where the simulator's log was when the test's document was issued: one document in flight at a time. */
  let logFrom = 0;
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));

  before(async function () {
    this.timeout(120_000);
    sim = await startTestSimulator({ port: 0 });
    const base = testConfig();
    stack = await startTestStack({
      config: {
        authority: { ...base.authority, authorityUrl: sim.url },
        authorityTimeouts: { connectMs: 1_000, responseMs: RESPONSE_MS },
        firstSendWaitMs: WAIT_MS,
      },
    });
    company = await companyWithRuc(stack.db, RUC, 'Comercial Andina S.A.C.');
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });
  beforeEach(() => sim.clearRules());

  async function issue(): Promise<DocumentRow> {
    const payload = fixture('invoice-basic.json');
    payload.correlativo = String(++number);
    const doc = await commitSignedDocument(stack.db, company, payload, signer);
    logFrom = sim.log().length;
    await startDocumentWorkflow(stack.temporal, stack.config.temporal.taskQueue, doc);
    return doc;
  }

  async function until(id: string, statuses: DocStatus[]): Promise<DocumentRow> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const doc = (await findDocument(stack.db, id))!;
      if (statuses.includes(doc.status)) return doc;
      if (Date.now() > deadline) throw new Error(`document stayed ${doc.status} (${JSON.stringify(doc.result)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The workflow's events up to the send activity, the calls SUNAT saw (the simulator's log) and the timeline. */
  async function trace(doc: DocumentRow) {
    const history = await stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).fetchHistory();
    const events = JSON.parse(historyToJSON(history)).events as {
      eventType: string;
      activityTaskScheduledEventAttributes?: { activityType: { name: string } };
    }[];
    const scheduled = events.findIndex((e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED');
    const operations = sim
      .log()
      .slice(logFrom)
      .filter((e) => e.ruc === RUC)
      .map((e) => e.operation);
    return {
      tasksBeforeActivity: events
        .slice(0, scheduled)
        .filter((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED').length,
      activity: events[scheduled]?.activityTaskScheduledEventAttributes?.activityType.name,
      operations,
      steps: (await listDocumentAttempts(stack.db, doc.id)).map((a) => `${a.step}:${a.status}`),
    };
  }

  it('received but unanswered: the first task ends after the wait, the send activity finds the CDR and sends nothing twice', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'hang', afterReceipt: true }, times: 1 });
    const started = Date.now();
    const doc = await issue();
    const done = await until(doc.id, ['accepted', 'observed', 'rejected', 'sent']);
    expect(done.status).to.equal('accepted');
    // Well inside the answer budget: nobody waited for the hung answer.
    expect(Date.now() - started).to.be.lessThan(RESPONSE_MS);
    const { tasksBeforeActivity, activity, operations, steps } = await trace(doc);
    expect(tasksBeforeActivity, 'the first workflow task, and no task kept open for the send').to.equal(1);
    expect(activity).to.equal('sendDocument');
    expect(
      operations.filter((op) => op === 'sendBill'),
      'sent once',
    ).to.have.length(1);
    expect(operations).to.include('getStatusCdr');
    expect(steps).to.deep.equal(['query:accepted']);
    expect(done.send_attempts).to.equal(2);
  });

  it('never received: the send activity learns SUNAT has no record, sends again and is answered', async () => {
    sim.addRule({ operation: 'sendBill', ruc: RUC, fault: { kind: 'hang' }, times: 1 });
    const doc = await issue();
    const done = await until(doc.id, ['accepted', 'observed', 'rejected', 'sent']);
    expect(done.status).to.equal('accepted');
    const { tasksBeforeActivity, activity, operations, steps } = await trace(doc);
    expect(tasksBeforeActivity).to.equal(1);
    expect(activity).to.equal('sendDocument');
    expect(operations.filter((op) => op === 'sendBill')).to.have.length(2);
    expect(operations.indexOf('getStatusCdr'), 'asked before sending again').to.be.greaterThan(
      operations.indexOf('sendBill'),
    );
    expect(steps).to.deep.equal(['send:accepted']);
  });

  it('an answer within the wait: plan and send stay one local activity in one workflow task', async () => {
    const doc = await issue();
    expect((await until(doc.id, ['accepted', 'observed', 'rejected', 'sent'])).status).to.equal('accepted');
    const { activity, steps } = await trace(doc);
    expect(activity, 'no activity task at all').to.equal(undefined);
    expect(steps).to.deep.equal(['send:accepted']);
  });
});
