import { randomBytes } from 'node:crypto';
import type { TestStack } from '../support/stack';
import { commitSignedDocument, fixture } from '../support/documents';
import { randomRuc } from '../companies/helpers';
import { insertCompany, type CompanyRow } from '../../db/companies';
import type { DocumentRow } from '../../db/documents';
import { createSigner, generateTestCertificate, type Signer } from '../../documents/signing';
import { signalDocumentWorkflow } from '../../workflows/document-client';
import { companySummaryWorkflow } from '../../workflows/daily-summary';
import { limaDate } from '../../core/lima';
import type { DocStatus } from '../../workflows/document-types';

/** Companies and documents as the API commits them, and a run driver, for the summary suites. */
export function summaryFixtures(stack: () => TestStack, accountId: () => string) {
  const today = limaDate(new Date());
  const signers = new Map<string, Signer>();

  async function company(receipts: 'summary' | 'individual' = 'summary'): Promise<CompanyRow> {
    const ruc = randomRuc();
    const { company: row } = await insertCompany(stack().db, {
      account_id: accountId(),
      ruc,
      business_name: `Bodega ${ruc}`,
      plan_type: '01',
      environment: '01',
    });
    signers.set(ruc, createSigner(generateTestCertificate({ ruc })));
    const [updated] = await stack()
      .db('companies')
      .where({ id: row.id })
      .update({ receipts_mode: receipts })
      .returning('*');
    return updated as CompanyRow;
  }

  /** A document signed and committed as POST /v1/cpe does; receipts of a summary-mode company wait with no workflow. */
  function issued(
    owner: CompanyRow,
    name: string,
    correlativo: number,
    status: DocStatus = 'to_summarize',
  ): Promise<DocumentRow> {
    const payload = fixture(name);
    Object.assign(payload, { correlativo: String(correlativo), fechaEmision: today });
    payload.emisor.ruc = owner.ruc;
    return commitSignedDocument(stack().db, owner, payload, signers.get(owner.ruc)!, { status });
  }

  /** Runs `work` while asking every registered rc/ra of these companies for its verdict now instead of in 10 s, 20 s … */
  async function nudging<T>(companies: CompanyRow[], work: Promise<T>): Promise<T> {
    let done = false;
    const loop = (async () => {
      while (!done) {
        const registered = await stack()
          .db('documents')
          .whereIn(
            'company_id',
            companies.map((c) => c.id),
          )
          .whereIn('doc_type', ['rc', 'ra'])
          .where({ status: 'registered' })
          .select('id');
        for (const { id } of registered) await signalDocumentWorkflow(stack().temporal, id, 'recheck');
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    try {
      return await work;
    } finally {
      done = true;
      await loop;
    }
  }

  /** Starts one company's summary run as the daily run starts it (a child per company). */
  const runCompany = (owner: CompanyRow) =>
    stack().temporal.workflow.start(companySummaryWorkflow, {
      taskQueue: stack().config.temporal.taskQueue,
      workflowId: `summary-test-${randomBytes(4).toString('hex')}/${owner.id}`,
      args: [{ companyId: owner.id }],
    });

  /** Polls until `check` holds (the database is the source of truth). */
  async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  return { today, company, issued, nudging, runCompany, until };
}
