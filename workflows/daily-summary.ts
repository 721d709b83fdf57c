import {
  ParentClosePolicy,
  continueAsNew,
  executeChild,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { SummaryActivities } from '../activities/summaries';
import { documentWorkflow, documentWorkflowId } from './document';
import { startBuyerEmail } from './buyer-email';
import { isRejected } from '../lifecycle/transitions';
import { PRIORITY_KEYS } from './priority-types';

const { listSummaryCompanies, composeCompanySummaries, settleSummary } = proxyActivities<SummaryActivities>({
  startToCloseTimeout: '5 minutes',
  // What fails here is infrastructure (database, worker lost, no signing key yet): retried until it works.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** One Temporal Schedule for the whole service (not one per company): it runs `dailySummaryWorkflow` at the configured hour. */
export const DAILY_SUMMARY_SCHEDULE_ID = 'chasqui-daily-summary';

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

/** The workflow id of a company's summary run within a daily run. */
export const companySummaryWorkflowId = (dailyRunId: string, companyId: string) => `${dailyRunId}/${companyId}`;

/**
 * The daily run (docs/summaries.md): finds every company with receipts to summarise or summarised receipts to void,
 * and starts one child workflow per company that lives on its own (abandoned when this one ends), so one company's
 * stuck ticket never holds the others back. Support staff may start it for some companies only (`companyIds`); the
 * schedule starts it for all. Returns how many company runs it started; thousands of companies roll the history
 * over (continue-as-new) with the companies still to start.
 */
export async function dailySummaryWorkflow(input: { companyIds?: string[]; started?: number } = {}): Promise<number> {
  const { companyIds } = await listSummaryCompanies(input.companyIds ?? null);
  const runId = workflowInfo().workflowId;
  let started = input.started ?? 0;
  for (const [i, companyId] of companyIds.entries()) {
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof dailySummaryWorkflow>({ companyIds: companyIds.slice(i), started });
    }
    await startChild(companySummaryWorkflow, {
      workflowId: companySummaryWorkflowId(runId, companyId),
      args: [{ companyId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      staticSummary: `daily summary of company ${companyId}`,
      // Batch work behind every document issued through the API (the schedule's start cannot carry a priority in
      // this SDK); the company's rc documents inherit it. Not a command attribute replay compares.
      priority: { priorityKey: PRIORITY_KEYS.batch },
    });
    started++;
  }
  return started;
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
        // Receipts in summary mode are accepted here: their buyers' e-mails start now.
        for (const receiptId of settled.emails ?? []) await startBuyerEmail(receiptId);
        result.summaries++;
        if (isRejected(settled.status)) result.rejected++;
        else result.accepted++;
      }),
    );
  }
  return result;
}
