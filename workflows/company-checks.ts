import { continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { CompanyCheckSummary, CompanyChecksActivities } from '../activities/company-checks';

const { listCheckedCompanies } = proxyActivities<CompanyChecksActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute' },
});
const { runCompanyChecks } = proxyActivities<CompanyChecksActivities>({
  // One SUNAT call with its own timeouts (CHASQUI_AUTHORITY_*), a certificate, a few queries and the rule judge.
  startToCloseTimeout: '5 minutes',
  // Waiting for the calls-a-minute budget is a retry after the wait the activity names (nextRetryDelay); a database
  // that is down is retried too. A run never fails a company: it waits.
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** The one Temporal Schedule of the checks (every CHASQUI_CHECKS_EVERY, for every company). */
export const COMPANY_CHECKS_SCHEDULE_ID = 'chasqui-company-checks';

/** A run for some companies now (POST /v1/companies/{ruc}/checks, `chasqui support checks --run`). */
export const companyChecksRunId = (key: string) => `company-checks-${key}`;

export interface CompanyChecksInput {
  /** Only these companies (ids); every active company when absent. */
  companyIds?: string[];
  /** Companies checked at the same time (CHASQUI_CHECKS_CONCURRENCY, passed by the starter: workflows read no config). */
  concurrency?: number;
  /** Carried over continue-as-new: the companies still to check, and how many were. */
  remaining?: string[];
  checked?: number;
}

/**
 * Runs the company checks (docs/operations.md, "Company checks") for every company or the given ones, `concurrency` at
 * a time. Each company's activity makes at most one call to SUNAT and takes it from the shared calls-a-minute budget,
 * so the rate holds across runs and workers. Carries ids only; results live in PostgreSQL. Returns how many companies
 * were checked.
 */
export async function companyChecksWorkflow(input: CompanyChecksInput = {}): Promise<number> {
  const pending = [...(input.remaining ?? (await listCheckedCompanies(input.companyIds ?? null)))];
  const concurrency = Math.max(1, input.concurrency ?? 4);
  let checked = input.checked ?? 0;
  const lane = async () => {
    // A long run rolls its history over: lanes stop taking companies, and the rest continue in a new run.
    while (pending.length && !workflowInfo().continueAsNewSuggested) {
      const summary: CompanyCheckSummary | null = await runCompanyChecks(pending.shift()!);
      if (summary) checked++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, lane));
  if (pending.length) await continueAsNew<typeof companyChecksWorkflow>({ remaining: pending, concurrency, checked });
  return checked;
}
