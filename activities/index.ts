import type { ActivityDeps } from './deps';
import { createCompanyProcedureActivities } from './company-procedures';
import { createCompanyCheckActivities } from './company-checks';
import { createDocumentActivities } from './documents';
import { createSweeperActivities } from './sweeper';
import { createWebhookActivities, createWebhookSweeperActivities } from './webhooks';
import { createWebhookHistoryActivities } from './webhook-history';
import { createSummaryActivities } from './summaries';
import { createBuyerEmailActivities } from './buyer-email';
import { createCompanyKeys } from '../keys/signing-keys';

/** All activities of the worker, one factory per capability so each keeps its own dependencies explicit. */
export function createActivities(deps: ActivityDeps) {
  const webhooks = createWebhookActivities(deps);
  return {
    ...createCompanyProcedureActivities(deps),
    // A first send that resolves a document notifies it in the same activity (issue 13).
    ...createDocumentActivities(deps, webhooks),
    ...createSweeperActivities(deps),
    ...webhooks,
    ...createWebhookSweeperActivities(deps),
    ...createWebhookHistoryActivities(deps),
    ...createSummaryActivities(deps, createCompanyKeys(deps)),
    ...createCompanyCheckActivities(deps),
    ...createBuyerEmailActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
