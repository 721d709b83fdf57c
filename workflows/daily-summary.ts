import { ParentClosePolicy, executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { SummaryActivities } from '../activities/summaries';
import { documentWorkflow, documentWorkflowId } from './document';

const { listSummaryCompanies, composeCompanySummaries, settleSummary } = proxyActivities<SummaryActivities>({
  startToCloseTimeout: '5 minutes',
  // What fails here is infrastructure (database, worker lost, no signing key yet): retried until it works.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** One Temporal Schedule for the whole service (not one per company): it runs `dailySummaryWorkflow` at the configured hour. */
export const DAILY_SUMMARY_SCHEDULE_ID = 'chasqui-daily-summary';

/** Company runs started at once; the rest wait for a free slot (keeps the parent's history and the database load bounded). */
export const COMPANY_BATCH = 20;

/**
 * A company's summaries are composed, sent and settled in rounds: a void of a receipt that the first round just
 * got accepted goes out in the second. A summary rejected in this run is not retried by it (next run).
 */
export const MAX_ROUNDS = 3;

export interface CompanySummaryResult {
  companyId: string;
  summaries: number;
  accepted: number;
  rejected: number;
}

/**
 * The daily run (docs/summaries.md): finds every company with receipts to summarise or summarised receipts to void,
 * and runs one child workflow per company, so one company's stuck ticket never holds the others back. Support staff
 * may start it for some companies only (`companyIds`); the schedule starts it for all.
 */
export async function dailySummaryWorkflow(input: { companyIds?: string[] } = {}): Promise<CompanySummaryResult[]> {
  const { companyIds } = await listSummaryCompanies(input.companyIds ?? null);
  const results: CompanySummaryResult[] = [];
  const runId = workflowInfo().workflowId;
  for (let i = 0; i < companyIds.length; i += COMPANY_BATCH) {
    const batch = companyIds.slice(i, i + COMPANY_BATCH);
    results.push(
      ...(await Promise.all(
        batch.map((companyId) =>
          executeChild(companySummaryWorkflow, {
            workflowId: `${runId}/${companyId}`,
            args: [{ companyId }],
            staticSummary: `daily summary of company ${companyId}`,
          }),
        ),
      )),
    );
  }
  return results;
}

/**
 * One company's summaries of this run. Each rc is an ordinary document: it goes through the document workflow
 * (send → ticket → poll at 98 → verdict), and its verdict is then applied to every receipt it listed. The rc
 * rows and their lines are committed before anything is sent, and the run's id marks them as its own: a worker
 * lost at any point resumes here with nothing lost and nothing listed twice.
 */
export async function companySummaryWorkflow(input: { companyId: string }): Promise<CompanySummaryResult> {
  const runId = workflowInfo().workflowId;
  const result: CompanySummaryResult = { companyId: input.companyId, summaries: 0, accepted: 0, rejected: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const summaries = await composeCompanySummaries(input.companyId, runId);
    if (!summaries.length) break;
    await Promise.all(
      summaries.map(async (summaryId) => {
        await executeChild(documentWorkflow, {
          workflowId: documentWorkflowId(summaryId),
          args: [{ externalId: summaryId }],
          // The rc's delivery is its own: support staff may terminate or reset a run without cutting a send short.
          parentClosePolicy: ParentClosePolicy.ABANDON,
          staticSummary: `rc document ${summaryId}`,
        });
        const settled = await settleSummary(summaryId);
        result.summaries++;
        if (settled.status === 'rejected') result.rejected++;
        else result.accepted++;
      }),
    );
  }
  return result;
}
