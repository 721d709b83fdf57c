import {
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { CompanyProcedureActivities } from '../activities/company-procedures';
import { RucKey } from './search-attributes';
import {
  companyProceduresWorkflowId,
  RERUN_PROCEDURES_SIGNAL,
  type CompanyProceduresInput,
  type CompanyProceduresOutcome,
} from './company-procedures-types';

export { companyProceduresWorkflowId, type CompanyProceduresInput, type CompanyProceduresOutcome };

/** Sent when SOL credentials, signing or destination change: re-plan now, and restart the waits. */
export const rerunProceduresSignal = defineSignal(RERUN_PROCEDURES_SIGNAL);

const { planCompanyProcedures, runCompanyProcedure } = proxyActivities<CompanyProcedureActivities>({
  startToCloseTimeout: '2 minutes',
  // Portal answers come back as values; these retries are for the activity itself failing (database away, crash).
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** The wait after the n-th failed round: initial, doubled each time, capped (never under a second). */
export function retryDelaySeconds(retry: CompanyProceduresInput['retry'], failedRounds: number): number {
  return Math.max(1, Math.min(retry.maxSeconds, retry.initialSeconds * 2 ** Math.min(failedRounds, 30)));
}

/**
 * One workflow per company: performs the portal procedures that apply (PSE authorisation, OSE link), retrying
 * failures with growing waits until all are done. Wrong SOL credentials end it as `failed` (retrying cannot help);
 * loading new ones starts it again. Holds ids only: the activities read the secrets from the database.
 */
export async function companyProceduresWorkflow(input: CompanyProceduresInput): Promise<CompanyProceduresOutcome> {
  let rerun = false;
  setHandler(rerunProceduresSignal, () => {
    rerun = true;
  });
  upsertSearchAttributes([{ key: RucKey, value: input.ruc }]);
  let failedRounds = input.failedRounds ?? 0;

  for (;;) {
    rerun = false;
    const plan = await planCompanyProcedures(input.companyId);
    if (plan.status !== 'ready') return plan.status;
    const delay = retryDelaySeconds(input.retry, failedRounds);
    let retryable = false;
    let blocked = false;
    for (const procedure of plan.procedures) {
      const result = await runCompanyProcedure({ companyId: input.companyId, procedure, retryInSeconds: delay });
      if (result.outcome === 'gone') return 'gone';
      if (result.outcome === 'failed') {
        if (result.retryable) retryable = true;
        else blocked = true;
      }
    }
    if (!retryable && !blocked) return 'done';
    if (!retryable && !rerun) return 'failed';

    failedRounds++;
    await condition(() => rerun, delay * 1000);
    if (rerun) failedRounds = 0;
    if (workflowInfo().continueAsNewSuggested)
      await continueAsNew<typeof companyProceduresWorkflow>({ ...input, failedRounds });
  }
}
