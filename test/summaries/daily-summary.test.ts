import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig, testTemporalAddress } from '../support/services';
import { summaryFixtures } from './support';
import { createAccount } from '../../db/accounts';
import type { CompanyRow } from '../../db/companies';
import { findDocument, type DocumentRow } from '../../db/documents';
import { insertVoid } from '../../db/voids';
import { signalDocumentWorkflow } from '../../workflows/document-client';
import { companySummaryWorkflowId, dailySummaryWorkflow } from '../../workflows/daily-summary';
import { startWorker } from '../../runtime/services';

/** Small enough that a handful of receipts needs two summaries. */
const MAX_LINES = 3;

/**
 * The daily summary run end to end: real Temporal dev server, real PostgreSQL, the SUNAT simulator. Receipts are
 * committed as `POST /v1/cpe` commits them for a company in summary mode (status `to_summarize`, no workflow); the run
 * is started the way its schedule starts it. Ticket polls (10 s, 20 s …) are cut short with the rc workflows' own
 * `recheck` signal; their timing is the document workflow's, covered on the time-skipping server.
 */
describe('daily summary run (workflows + activities + simulator)', function () {
  this.timeout(120_000);
  let sim: SimulatorHandle;
  let stack: TestStack;
  let accountId: string;
  const {
    company,
    issued: receipt,
    nudging,
    runCompany,
    until,
  } = summaryFixtures(
    () => stack,
    () => accountId,
  );

  before(async function () {
    this.timeout(120_000);
    sim = await startTestSimulator({ port: 0, ticketPolls: 1 });
    const base = testConfig();
    stack = await startTestStack({
      config: {
        authority: { ...base.authority, authorityUrl: sim.url },
        authorityTimeouts: { connectMs: 1_000, responseMs: 1_500 },
        summary: { hour: 23, maxLines: MAX_LINES },
      },
    });
    accountId = (await createAccount(stack.db, { name: 'summaries', quotaUnits: 0 })).account.id;
  });
  after(async () => {
    await stack?.stop();
    await sim?.close();
  });
  beforeEach(() => sim.clearRules());

  const requestVoid = (doc: DocumentRow, reason: string) =>
    insertVoid(stack.db, { documentId: doc.id, companyId: doc.company_id, reason, via: 'rc' });

  const summariesOf = (owner: CompanyRow): Promise<DocumentRow[]> =>
    stack.db('documents').where({ company_id: owner.id, doc_type: 'rc' }).orderBy('number');
  const linesOf = (doc: DocumentRow) =>
    stack
      .db('summary_lines as l')
      .join('documents as s', 's.id', 'l.summary_id')
      .where('l.document_id', doc.id)
      .orderBy('l.id')
      .select('l.*', 's.filename', 's.xml');
  const events = (doc: DocumentRow) => stack.db('document_events').where({ document_id: doc.id });

  it('three companies, adds and voids mixed: every receipt resolved once, voids as condition 3, split above the line limit', async () => {
    const [a, b, c] = [await company(), await company(), await company()];
    // a: four receipts and a B note (5 lines, limit 3 → two rc), and a receipt accepted earlier whose void is pending.
    const aReceipts = [
      await receipt(a, 'receipt-basic.json', 1),
      await receipt(a, 'receipt-anonymous.json', 2),
      await receipt(a, 'receipt-icbper.json', 3),
      await receipt(a, 'receipt-free-transfer.json', 4),
      await receipt(a, 'credit-note-boleta.json', 1),
    ];
    const aEarlier = await receipt(a, 'receipt-basic.json', 90, 'accepted');
    await requestVoid(aEarlier, 'Error en el precio');
    // b: two receipts, one voided before the summary reported it: added in the first round, voided in the second.
    const bReceipts = [await receipt(b, 'receipt-basic.json', 1), await receipt(b, 'receipt-basic.json', 2)];
    await requestVoid(bReceipts[1], 'Venta anulada');
    // c: a sol receipt and a dollar receipt: one summary per currency.
    const cReceipts = [await receipt(c, 'receipt-basic.json', 1), await receipt(c, 'receipt-usd.json', 2)];
    // An invoice-series note of the same company is never summarised.
    const invoiceNote = await receipt(c, 'credit-note-01.json', 5);

    const handle = await stack.temporal.workflow.start(dailySummaryWorkflow, {
      taskQueue: stack.config.temporal.taskQueue,
      workflowId: `daily-summary-test-${randomBytes(4).toString('hex')}`,
      // Other suites' companies in the shared database are not this run's business.
      args: [{ companyIds: [a.id, b.id, c.id] }],
    });
    expect(await handle.result()).to.equal(3);
    // Each company's run lives on its own; the daily run only started them.
    const results = await nudging(
      [a, b, c],
      Promise.all(
        [a, b, c].map((x) =>
          stack.temporal.workflow.getHandle(companySummaryWorkflowId(handle.workflowId, x.id)).result(),
        ),
      ),
    );
    expect(results.map((r) => [r.summaries, r.rejected])).to.deep.equal([
      [2, 0],
      [2, 0],
      [2, 0],
    ]);
    // Batch work: each company's run, and its rc documents with it, behind every interactive document.
    const run = await stack.temporal.workflow.getHandle(companySummaryWorkflowId(handle.workflowId, a.id)).describe();
    expect(run.priority).to.deep.include({ priorityKey: 4 });

    for (const doc of [...aReceipts, ...bReceipts, ...cReceipts]) {
      const row = (await findDocument(stack.db, doc.id))!;
      expect(row, doc.filename).to.include({ status: 'accepted', resolved: true });
      expect(row.result!.message).to.match(
        /^Daily summary \d{11}-RC-\d{8}-\d+ \(external_id [0-9a-f-]{36}\) was accepted/,
      );
      expect(row.ticket).to.be.a('string');
      expect(await events(doc)).to.have.length(1);
      expect((await linesOf(doc)).filter((l) => l.condition_code === '1')).to.have.length(1);
    }
    expect((await findDocument(stack.db, invoiceNote.id))!.status).to.equal('to_summarize');

    const aSummaries = await summariesOf(a);
    expect(aSummaries.map((s) => s.status)).to.deep.equal(['accepted', 'accepted']);
    expect(aSummaries.map((s) => (s.xml!.match(/<sac:SummaryDocumentsLine>/g) ?? []).length)).to.deep.equal([3, 3]);
    const [aVoid] = await linesOf(aEarlier);
    expect(aVoid).to.include({ condition_code: '3', state: 'accepted' });
    expect(aVoid.xml).to.contain(`<cbc:ID>${aEarlier.series}-${aEarlier.number}</cbc:ID>`);
    expect((await findDocument(stack.db, aEarlier.id))!.status).to.equal('accepted');

    const bLines = await linesOf(bReceipts[1]);
    expect(bLines.map((l) => [l.condition_code, l.state])).to.deep.equal([
      ['1', 'accepted'],
      ['3', 'accepted'],
    ]);
    expect(bLines[0].summary_id).to.not.equal(bLines[1].summary_id);
    expect((await summariesOf(c)).map((s) => s.currency).sort()).to.deep.equal(['PEN', 'USD']);
    expect(
      (await stack.db('document_voids').whereIn('document_id', [aEarlier.id, bReceipts[1].id])).map(
        (v) => v.result.message,
      ),
    ).to.satisfy((m: string[]) => m.every((x) => /voided it/.test(x)));
  });

  it('a ticket stuck at 98 keeps the receipts pending until SUNAT answers', async () => {
    const owner = await company();
    const docs = [await receipt(owner, 'receipt-basic.json', 1), await receipt(owner, 'receipt-basic.json', 2)];
    sim.addRule({ operation: 'getStatus', ruc: owner.ruc, fault: { kind: 'ticketStuck' } });
    const handle = await runCompany(owner);
    const result = nudging([owner], handle.result());
    // Several polls answered 98: the rc is registered, its receipts still wait.
    await until(
      'the stuck ticket was polled three times',
      async () => sim.log().filter((e) => e.operation === 'getStatus' && e.ruc === owner.ruc).length >= 3,
    );
    const [rc] = await summariesOf(owner);
    expect((await findDocument(stack.db, rc.id))!).to.include({ status: 'registered', resolved: false });
    for (const doc of docs) expect((await findDocument(stack.db, doc.id))!.status).to.equal('to_summarize');
    sim.clearRules();
    expect(await result).to.include({ summaries: 1, accepted: 1, rejected: 0 });
    for (const doc of docs) expect((await findDocument(stack.db, doc.id))!.status).to.equal('accepted');
  });

  it('a summary rejected as a whole leaves its receipts pending with the reason, and the next run includes them', async () => {
    const owner = await company();
    const docs = [await receipt(owner, 'receipt-basic.json', 1), await receipt(owner, 'receipt-anonymous.json', 2)];
    sim.addRule({ operation: 'sendSummary', ruc: owner.ruc, fault: { kind: 'reject', code: '2282' }, times: 1 });
    const first = await nudging([owner], (await runCompany(owner)).result());
    expect(first).to.include({ summaries: 1, accepted: 0, rejected: 1 });
    const [rejected] = await summariesOf(owner);
    for (const doc of docs) {
      const row = (await findDocument(stack.db, doc.id))!;
      expect(row).to.include({ status: 'to_summarize', resolved: false });
      expect(row.result!.message).to.contain(rejected.filename).and.contain('was rejected');
      expect(row.result!.code).to.equal('2282');
      expect(await events(doc)).to.have.length(0);
    }

    const second = await nudging([owner], (await runCompany(owner)).result());
    expect(second).to.include({ summaries: 1, accepted: 1, rejected: 0 });
    for (const doc of docs) {
      expect((await findDocument(stack.db, doc.id))!.status).to.equal('accepted');
      expect((await linesOf(doc)).map((l) => l.state)).to.deep.equal(['rejected', 'accepted']);
    }
    const [, retried] = await summariesOf(owner);
    expect(Number(retried.number)).to.equal(Number(rejected.number) + 1);
  });

  it('a worker lost between activities: a new worker finishes the run, no receipt lost or listed twice', async () => {
    const owner = await company();
    const docs = [1, 2, 3, 4].map((n) => receipt(owner, 'receipt-basic.json', n));
    const ids = (await Promise.all(docs)).map((d) => d.id);
    // The rc is composed and committed, then the worker goes away before it is sent (SUNAT unreachable meanwhile).
    sim.addRule({ operation: 'sendSummary', ruc: owner.ruc, fault: { kind: 'reset' } });
    const handle = await runCompany(owner);
    await until(
      'the run reached the send',
      async () =>
        !!(await stack.db('documents').where({ company_id: owner.id, doc_type: 'rc' }).whereNotNull('result').first()),
    );
    await stack.worker!.stop();
    sim.clearRules();
    const replacement = await startWorker(
      stack.config,
      await testTemporalAddress(),
      stack.db,
      stack.files,
      stack.secrets,
    );
    try {
      // The document workflow retries its connection failure after its backoff; resend cuts that wait short.
      for (const rc of await summariesOf(owner)) await signalDocumentWorkflow(stack.temporal, rc.id, 'resend');
      const result = await nudging([owner], handle.result());
      expect(result).to.include({ accepted: 2, rejected: 0 });
    } finally {
      stack.worker = replacement;
    }
    const lines = await stack.db('summary_lines').whereIn('document_id', ids);
    expect(lines).to.have.length(4);
    expect(new Set(lines.map((l) => l.document_id)).size).to.equal(4);
    for (const id of ids) expect((await findDocument(stack.db, id))!.status).to.equal('accepted');
  });
});
