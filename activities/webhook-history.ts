import type { ActivityDeps } from './deps';
import { pruneSettledDeliveries } from '../db/webhooks';
import { SETTLED_DELIVERY_STATUSES } from '../lifecycle/webhooks';
import { logger } from '../core/logger';
import { webhookHistoryPruned } from '../core/metrics';

/**
 * Deliveries deleted by one sweep at most: the minute sweeper prunes up to 1.44 million a day, far more than any
 * instance settles, while each statement stays short.
 */
export const PRUNE_BATCH = 1000;

export interface WebhookHistoryActivities {
  /** One bounded batch of settled delivery history older than CHASQUI_WEBHOOK_HISTORY_DAYS; how many were deleted. */
  pruneWebhookHistory(): Promise<number>;
}

/** Retention of settled webhook deliveries (docs/webhooks.md, "History"): the minute sweeper runs it. */
export function createWebhookHistoryActivities(
  deps: Pick<ActivityDeps, 'config' | 'db'>,
  batch = PRUNE_BATCH,
): WebhookHistoryActivities {
  return {
    async pruneWebhookHistory() {
      const days = deps.config.webhookHistoryDays;
      if (days === null) return 0;
      const count = await pruneSettledDeliveries(deps.db, SETTLED_DELIVERY_STATUSES, days, batch);
      webhookHistoryPruned.inc(count);
      // Every minute: a line only when something went, so a quiet instance does not log 1,440 zeros a day.
      if (count)
        logger.info({ count, days }, `webhook history: ${count} settled deliveries older than ${days} days deleted`);
      return count;
    },
  };
}
