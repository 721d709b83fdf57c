import { proxyActivities } from '@temporalio/workflow';
import type { SweeperActivities } from '../activities/sweeper';

const { startUnstartedDocuments } = proxyActivities<SweeperActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

export const SWEEPER_SCHEDULE_ID = 'chasqui-document-sweeper';

/**
 * Run every minute by a Temporal Schedule: starts the workflow of any document the API committed but could not
 * start (it died, or Temporal was unreachable, between the commit and the start). Starting is idempotent.
 */
export async function documentSweeperWorkflow(): Promise<number> {
  return startUnstartedDocuments();
}
