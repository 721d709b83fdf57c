import { proxyActivities } from '@temporalio/workflow';
import type { SweeperActivities } from '../activities/sweeper';
import type { WebhookSweeperActivities } from '../activities/webhooks';
import type { WebhookHistoryActivities } from '../activities/webhook-history';

const { startUnstartedDocuments, startUnnotifiedResolutions, pruneWebhookHistory } = proxyActivities<
  SweeperActivities & WebhookSweeperActivities & WebhookHistoryActivities
>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

export const SWEEPER_SCHEDULE_ID = 'chasqui-document-sweeper';

/**
 * Run every minute by a Temporal Schedule: starts the workflow of any document the API committed but could not
 * start (it died, or Temporal was unreachable, between the commit and the start), and the webhook delivery of any
 * resolution no workflow notified (docs/webhooks.md), then prunes one bounded batch of settled webhook history older
 * than CHASQUI_WEBHOOK_HISTORY_DAYS (off the issuing path). Starting and pruning are idempotent.
 */
export async function documentSweeperWorkflow(): Promise<number> {
  const started = await startUnstartedDocuments();
  await startUnnotifiedResolutions();
  await pruneWebhookHistory();
  return started;
}
