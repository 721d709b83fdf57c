import { expect } from 'chai';
import { WorkflowStarts } from '../../api/cpe/workflow-starts';
import { AccountBurst } from '../../api/cpe/account-burst';
import type { CompanyRow } from '../../db/companies';
import { findDocument, type DocumentRow } from '../../db/documents';
import { findUnstartedDocuments } from '../../db/document-starts';
import { createSigner, generateTestCertificate } from '../../documents/signing';
import { documentWorkflowId } from '../../workflows/document';
import { startDocumentWorkflow } from '../../workflows/document-client';
import { batchTaskQueue, sweptWorkKinds } from '../../workflows/priority-types';
import { eagerStarter } from '../../runtime/services';
import { commitSignedDocument, companyWithRuc, fixture } from '../support/documents';
import { documentCount, issue, newCompany, payload, startIssuingStack, type IssuingStack } from './support';
import { randomRuc } from '../companies/helpers';
import { startTestStack, type TestStack } from '../support/stack';

const RUC = '20700000991';
const OTHER_RUC = randomRuc();

describe("AccountBurst (an account's share of the intake: its burst, then batch, then waiting while others issue)", () => {
  const kinds = (burst: AccountBurst, account: string, n: number) =>
    Array.from({ length: n }, () => burst.admit(account, 'interactive'));

  it('keeps the declared kind for `burst` documents, then batch; alone, a flood is never held back', () => {
    let now = 0;
    const burst = new AccountBurst(4, 10, 3_000, () => now);
    expect(kinds(burst, 'a', 6)).to.deep.equal([
      ...Array(4).fill({ kind: 'interactive' }),
      ...Array(2).fill({ kind: 'batch' }),
    ]);
    now = 5_000; // nobody else issued within the quiet time
    expect(kinds(burst, 'a', 20).every((a) => 'kind' in a && a.kind === 'batch')).to.equal(true);
    expect(burst.admit('b', 'interactive'), 'each account on its own').to.deep.equal({ kind: 'interactive' });
    expect(burst.admit('b', 'batch'), 'a declared kind is kept').to.deep.equal({ kind: 'batch' });
    // 4 drain in 10 s: its level stopped at 8 (twice the burst), so 10 s later it is down to 4, the burst.
    now += 10_000;
    expect(burst.admit('a', 'interactive')).to.deep.equal({ kind: 'batch' });
    now += 10_000;
    expect(burst.admit('a', 'interactive')).to.deep.equal({ kind: 'interactive' });
    expect(new AccountBurst(0, 10, 3_000).admit('a', 'batch'), '0 turns it off').to.deep.equal({ kind: 'batch' });
  });

  it('holds a flood to its drain rate while another account issues within its burst, and lets it go after', () => {
    let now = 0;
    const burst = new AccountBurst(4, 10, 3_000, () => now);
    kinds(burst, 'flood', 8);
    now = 4_000; // its own first documents are past the quiet time
    expect(kinds(burst, 'flood', 3), 'nobody else: taken').to.deep.equal(Array(3).fill({ kind: 'batch' }));
    // Its level is at twice the burst now.
    expect(burst.admit('puntual', 'interactive')).to.deep.equal({ kind: 'interactive' });
    // One unit drains in 10/4 = 2.5 s: the answer says 3 s, and nothing is counted for the refused document.
    expect(burst.admit('flood', 'interactive')).to.deep.equal({ retryAfterSeconds: 3 });
    expect(burst.admit('flood', 'interactive')).to.deep.equal({ retryAfterSeconds: 3 });
    now += 2_500;
    expect(burst.admit('flood', 'interactive'), 'one unit drained: one document').to.deep.equal({ kind: 'batch' });
    expect(burst.admit('flood', 'interactive')).to.have.property('retryAfterSeconds');
    // The other account issues no more: 3 s after its document the flood goes on at full speed.
    now = 4_000 + 3_000;
    expect(kinds(burst, 'flood', 5).every((a) => 'kind' in a)).to.equal(true);
  });

  it('two floods do not hold each other back; a document declared batch makes no one wait', () => {
    let now = 0;
    const burst = new AccountBurst(4, 10, 3_000, () => now);
    kinds(burst, 'a', 8);
    kinds(burst, 'c', 8);
    now = 4_000;
    expect([...kinds(burst, 'a', 3), ...kinds(burst, 'c', 3)].every((a) => 'kind' in a)).to.equal(true);
    expect(burst.admit('backfill', 'batch')).to.deep.equal({ kind: 'batch' });
    expect(burst.admit('a', 'interactive')).to.deep.equal({ kind: 'batch' });
  });
});

/**
 * The in-process dispatcher that starts document workflows after the issue answer: every document handed over gets
 * exactly one workflow and is marked started; what it cannot start stays unmarked for the sweeper. No worker runs,
 * so the workflows just wait on their task queue.
 */
describe('WorkflowStarts (workflow starts after the commit)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let company: CompanyRow;
  let number = 0;
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));
  const otherSigner = createSigner(generateTestCertificate({ ruc: OTHER_RUC }));
  const startDeps = () => ({ db: stack.db, temporal: stack.temporal, taskQueue: stack.config.temporal.taskQueue });

  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
    company = await companyWithRuc(stack.db, RUC, 'Arranques S.A.C.');
  });
  after(() => stack?.stop());

  function commit(): Promise<DocumentRow> {
    const payload = fixture('invoice-basic.json');
    payload.correlativo = String(++number);
    payload.emisor.ruc = RUC;
    return commitSignedDocument(stack.db, company, payload, signer);
  }

  /** One document of a new company of another account. */
  async function commitElsewhere(name: string): Promise<DocumentRow> {
    const other = await companyWithRuc(stack.db, randomRuc(), name);
    const payload = fixture('invoice-basic.json');
    payload.correlativo = String(++number);
    payload.emisor.ruc = other.ruc;
    return commitSignedDocument(stack.db, other, payload, createSigner(generateTestCertificate({ ruc: other.ruc })));
  }

  const started = async (id: string) => (await findDocument(stack.db, id))!.workflow_started_at;

  it('starts one workflow per document with bounded concurrency and marks each started', async () => {
    const starts = new WorkflowStarts(
      { db: stack.db, temporal: stack.temporal, taskQueue: stack.config.temporal.taskQueue, fairness: true },
      { concurrency: 3 },
    );
    const docs = await Promise.all(Array.from({ length: 12 }, commit));
    for (const doc of docs) starts.enqueue(doc);
    // Handing a document over twice still gives it one workflow (starts are idempotent).
    starts.enqueue(docs[0]);
    await starts.idle();
    for (const doc of docs) {
      expect(await started(doc.id), doc.id).to.be.an.instanceOf(Date);
      const description = await stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).describe();
      expect(description.status.name).to.equal('RUNNING');
    }
    const runs = await stack.temporal.workflow.count(`WorkflowId = '${documentWorkflowId(docs[0].id)}'`);
    expect(runs.count).to.equal(1);
  });

  it("carries the account's fairness key and its kind's priority, and takes accounts in turn", async () => {
    const other = await companyWithRuc(stack.db, OTHER_RUC, 'Otra Cuenta S.A.C.');
    const payload = fixture('invoice-basic.json');
    payload.correlativo = String(++number);
    payload.emisor.ruc = OTHER_RUC;
    const theirs = await commitSignedDocument(stack.db, other, payload, otherSigner);
    const flood = await Promise.all(Array.from({ length: 6 }, commit));
    const backfill = await commit();
    const starts = new WorkflowStarts({ ...startDeps(), fairness: true }, { concurrency: 1 });
    for (const doc of flood) starts.enqueue(doc);
    starts.enqueue(backfill, 'batch');
    starts.enqueue(theirs);
    await starts.idle();
    const described = async (doc: DocumentRow) =>
      stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).describe();
    const [first, third, last, backfilled, their] = await Promise.all(
      [flood[0], flood[2], flood[5], backfill, theirs].map(described),
    );
    expect(first.priority).to.deep.include({ priorityKey: 3, fairnessKey: company.account_id });
    expect(their.priority).to.deep.include({ priorityKey: 3, fairnessKey: other.account_id });
    expect(backfilled.priority).to.deep.include({ priorityKey: 4, fairnessKey: company.account_id });
    // Batch work goes to the batch lane's queue, whose slots yield to interactive work (runtime/lanes.ts).
    expect(backfilled.taskQueue).to.equal(batchTaskQueue(stack.config.temporal.taskQueue));
    expect(first.taskQueue).to.equal(stack.config.temporal.taskQueue);
    // One start at a time: the other account's one document went second or third, not after the six; the backfill last.
    expect(their.startTime.getTime()).to.be.at.most(third.startTime.getTime());
    expect(backfilled.startTime.getTime()).to.be.at.least(last.startTime.getTime());

    // CHASQUI_FAIRNESS=off: no keys at all.
    const plain = new WorkflowStarts({ ...startDeps(), fairness: false });
    const unkeyed = await commit();
    plain.enqueue(unkeyed, 'batch');
    await plain.idle();
    const { priority, taskQueue } = await described(unkeyed);
    expect(taskQueue, 'one queue in arrival order').to.equal(stack.config.temporal.taskQueue);
    expect(priority?.priorityKey ?? 0).to.equal(0);
    expect(priority?.fairnessKey ?? '').to.equal('');
  });

  it("starts an account's interactive documents past its burst as batch, behind another account's", async () => {
    const theirs = await commitElsewhere('Esporadica S.A.C.');
    const flood = await Promise.all(Array.from({ length: 5 }, commit));
    const starts = new WorkflowStarts({ ...startDeps(), fairness: true }, { concurrency: 1, accountBurst: 3 });
    const admitted = (doc: DocumentRow) => {
      const admission = starts.admit(doc.account_id, 'interactive');
      if (!('kind' in admission)) throw new Error(`${doc.id} was held back`);
      return admission.kind;
    };
    for (const doc of flood) starts.enqueue(doc, admitted(doc));
    starts.enqueue(theirs, admitted(theirs));
    await starts.idle();
    const priorities = await Promise.all(
      [...flood, theirs].map(async (doc) => {
        const { priority, startTime } = await stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).describe();
        return { key: priority?.priorityKey, at: startTime.getTime() };
      }),
    );
    expect(priorities.map((p) => p.key)).to.deep.equal([3, 3, 3, 4, 4, 3]);
    // The other account's one document started before the flood's two past its burst.
    expect(priorities[5].at).to.be.at.most(priorities[3].at);
  });

  it("keeps room for an interactive start while a flood's batch starts are in flight", async () => {
    const flood = await Promise.all(Array.from({ length: 6 }, commit));
    const theirs = await commitElsewhere('Puntual S.A.C.');
    const starts = new WorkflowStarts({ ...startDeps(), fairness: true }, { concurrency: 2, batchConcurrency: 1 });
    for (const doc of flood) starts.enqueue(doc, 'batch');
    starts.enqueue(theirs);
    await starts.idle();
    const startTime = async (doc: DocumentRow) =>
      (await stack.temporal.workflow.getHandle(documentWorkflowId(doc.id)).describe()).startTime.getTime();
    // One batch start in flight at most: the interactive one took the other slot at once, before the flood's second.
    expect(await startTime(theirs)).to.be.at.most(await startTime(flood[1]));
  });

  it("gives the sweeper the accounts' unstarted documents in turn, not in commit order", async () => {
    const commitFor = async (company: CompanyRow) => {
      const doc = fixture('invoice-basic.json');
      doc.correlativo = String(++number);
      doc.emisor.ruc = company.ruc;
      return commitSignedDocument(stack.db, company, doc, createSigner(generateTestCertificate({ ruc: company.ruc })));
    };
    const flooding = await companyWithRuc(stack.db, randomRuc(), 'Inundadora S.A.C.');
    const quiet = await companyWithRuc(stack.db, randomRuc(), 'Puntual S.A.C.');
    const flood = [await commitFor(flooding), await commitFor(flooding), await commitFor(flooding)];
    const theirs = await commitFor(quiet);
    const ids = [...flood, theirs].map((d) => d.id);
    await stack
      .db('documents')
      .whereIn('id', ids)
      .update({ created_at: stack.db.raw("created_at - interval '1 minute'") });
    const pending = (await findUnstartedDocuments(stack.db, 30)).map((d) => d.id).filter((id) => ids.includes(id));
    expect(pending).to.deep.equal([flood[0].id, theirs.id, flood[1].id, flood[2].id]);
    // With a burst of 2, the flooding account's third comes back as batch work; voids stay batch, the other account's
    // invoice interactive.
    const rows = (await findUnstartedDocuments(stack.db, 30)).filter((d) => ids.includes(d.id));
    expect(sweptWorkKinds(rows, 2)).to.deep.equal(['interactive', 'interactive', 'interactive', 'batch']);
    expect(sweptWorkKinds([{ doc_type: 'ra', account_id: 'x' }], 2)).to.deep.equal(['batch']);
    expect(sweptWorkKinds(rows, 0), 'no burst: each at its type').to.deep.equal(rows.map(() => 'interactive'));
  });

  it('leaves to the sweeper what it cannot take: a full queue, or anything after close()', async () => {
    const full = new WorkflowStarts(
      { db: stack.db, temporal: stack.temporal, taskQueue: stack.config.temporal.taskQueue, fairness: true },
      { maxQueued: 0 },
    );
    const refused = await commit();
    full.enqueue(refused);
    await full.idle();
    expect(await started(refused.id)).to.equal(null);

    const closing = new WorkflowStarts({
      db: stack.db,
      temporal: stack.temporal,
      taskQueue: stack.config.temporal.taskQueue,
      fairness: true,
    });
    const before = await commit();
    closing.enqueue(before);
    await closing.close();
    const after = await commit();
    closing.enqueue(after);
    await closing.idle();
    expect(await started(before.id)).to.be.an.instanceOf(Date);
    expect(await started(after.id)).to.equal(null);
  });
});

/**
 * `chasqui start` (and the test stack) start documents through the worker's own connection with eager start: Temporal
 * answers the start with the first workflow task, which the worker of the same process runs (plan and first send).
 */
describe('eager workflow start (API and worker in one process)', function () {
  this.timeout(60_000);
  let issuing: IssuingStack;
  let stack: TestStack;
  let company: CompanyRow;
  const signer = createSigner(generateTestCertificate({ ruc: RUC }));

  before(async function () {
    this.timeout(120_000);
    issuing = await startIssuingStack();
    stack = issuing.stack;
    company = await companyWithRuc(stack.db, RUC, 'Arranques S.A.C.');
  });
  after(() => issuing?.stop());

  it('hands the first workflow task to the local worker, and the document resolves in that one task', async () => {
    const payload = fixture('invoice-basic.json');
    payload.correlativo = '501';
    payload.emisor.ruc = RUC;
    const doc = await commitSignedDocument(stack.db, company, payload, signer);
    const client = eagerStarter(stack.config, stack.worker!);
    const eager = await startDocumentWorkflow(client, stack.config.temporal.taskQueue, doc, { eager: true });
    const handle = stack.temporal.workflow.getHandle(documentWorkflowId(doc.id));
    expect(eager).to.equal(true);
    expect(await handle.result()).to.equal('accepted');
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((e) => e.workflowTaskStartedEventAttributes).length).to.equal(1);
    // One local activity (plan and send together), no regular activity.
    expect(events.filter((e) => e.markerRecordedEventAttributes).length).to.equal(1);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes).length).to.equal(0);
    // Not eager without the worker's connection: the API's own client must not ask for it.
    const other = await commitSignedDocument(stack.db, company, { ...payload, correlativo: '502' }, signer);
    expect(await startDocumentWorkflow(stack.temporal, stack.config.temporal.taskQueue, other)).to.equal(false);
  });

  it('answers a flood 429 with Retry-After once past twice its burst while another account issues, signing nothing', async () => {
    const flood = await newCompany(stack);
    const other = await newCompany(stack);
    const burst = stack.config.temporal.accountBurst;
    const statuses: number[] = [];
    for (let i = 0; i < 2 * burst; i++)
      statuses.push((await issue(stack, flood.token, payload('invoice-basic.json', flood.ruc))).status);
    expect(
      statuses.every((status) => status === 202),
      'alone, the flood is taken',
    ).to.equal(true);
    expect((await issue(stack, other.token, payload('invoice-basic.json', other.ruc))).status).to.equal(202);
    // Its level drained a little while it issued: a few more fit before it is at twice its burst.
    let refused: Awaited<ReturnType<typeof issue>> | undefined;
    for (let i = 0; i < burst && !refused; i++) {
      const res = await issue(stack, flood.token, payload('invoice-basic.json', flood.ruc));
      if (res.status === 429) refused = res;
      else statuses.push(res.status);
    }
    expect(refused, 'the flood waits').to.not.equal(undefined);
    expect(refused!.headers['retry-after']).to.match(/^[1-9]\d*$/);
    expect(refused!.body.message).to.contain('past its burst while other accounts issue');
    expect(await documentCount(stack, flood.row.id), 'nothing stored for the refused one').to.equal(statuses.length);
    expect((await issue(stack, other.token, payload('invoice-basic.json', other.ruc))).status).to.equal(202);
  });

  it('Chasqui-Priority: batch starts a backfill document at the batch priority; any other word is a 422, nothing issued', async () => {
    const issuer = await newCompany(stack);
    const refused = await issue(stack, issuer.token, payload('invoice-basic.json', issuer.ruc), {
      'Chasqui-Priority': 'urgent',
    });
    expect(refused.status).to.equal(422);
    expect(JSON.stringify(refused.body)).to.contain('Chasqui-Priority');
    expect(await documentCount(stack, issuer.row.id)).to.equal(0);
    const res = await issue(stack, issuer.token, payload('invoice-basic.json', issuer.ruc), {
      'Chasqui-Priority': 'batch',
    });
    expect(res.status).to.equal(202);
    await stack.workflowStarts.idle();
    const started = await stack.temporal.workflow.getHandle(documentWorkflowId(res.body.external_id)).describe();
    expect(started.priority).to.deep.include({ priorityKey: 4, fairnessKey: issuer.accountId });
    // The worker's batch lane runs it to its verdict.
    expect(started.taskQueue).to.equal(batchTaskQueue(stack.config.temporal.taskQueue));
    expect(await stack.temporal.workflow.getHandle(documentWorkflowId(res.body.external_id)).result()).to.equal(
      'accepted',
    );
  });
});
