import { ActivityFailure, continueAsNew, log, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { CompanyChecksActivities } from '../activities/company-checks';
import type { CompanyChecksInput } from './company-checks-types';

const { listCheckedCompanies } = proxyActivities<CompanyChecksActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute' },
});
const { runCompanyChecks } = proxyActivities<CompanyChecksActivities>({
  // One SUNAT call with its own timeouts (CHASQUI_AUTHORITY_*), a certificate, a few queries and the rule judge.
  startToCloseTimeout: '5 minutes',
  // A database that is down is retried; a company whose checks keep failing is left for the next run, so one
  // company never holds every later run back (the schedule skips a run while one is going).
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumAttempts: 4 },
});

/** The one Temporal Schedule of the checks (every CHASQUI_CHECKS_EVERY, for every company). */
export const COMPANY_CHECKS_SCHEDULE_ID = 'chasqui-company-checks';

export type { CompanyChecksInput };

/**
 * Runs the company checks (docs/operations.md, "Company checks") for every company or the given ones, `concurrency` at
 * a time. Each company's activity makes at most one call to SUNAT and takes it from the shared calls-a-minute budget,
 * so the rate holds across runs and workers; past it, the company waits. Carries ids only; results live in PostgreSQL. Returns how many companies
 * were checked.
 */
export async function companyChecksWorkflow(input: CompanyChecksInput = {}): Promise<number> {
  const pending = [...(input.remaining ?? (await listCheckedCompanies(input.companyIds ?? null)))];
  const concurrency = Math.max(1, input.concurrency ?? 4);
  let checked = input.checked ?? 0;
  const check = async (companyId: string) => {
    for (;;) {
      try {
        const outcome = await runCompanyChecks(companyId);
        // Past CHASQUI_CHECKS_RATE: wait (a durable timer) until the shared log frees a call, then run it whole.
        if (outcome && 'waitSeconds' in outcome) {
          await sleep(outcome.waitSeconds * 1000);
          continue;
        }
        if (outcome) checked++;
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        log.warn('company checks failed; left for the next run', {
          companyId,
          error: err.cause?.message ?? err.message,
        });
      }
      return;
    }
  };
  const lane = async () => {
    // A long run rolls its history over: lanes stop taking companies, and the rest continue in a new run.
    while (pending.length && !workflowInfo().continueAsNewSuggested) await check(pending.shift()!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, lane));
  if (pending.length) await continueAsNew<typeof companyChecksWorkflow>({ remaining: pending, concurrency, checked });
  return checked;
}
