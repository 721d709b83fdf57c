import type { ActivityDeps } from './deps';
import { findUnstartedDocuments, markWorkflowStarted } from '../db/document-starts';
import {
  START_FAILURE_FIXES,
  startDocumentWorkflow,
  startFailure,
  type StartFailureReason,
} from '../workflows/document-client';
import { logger } from '../core/logger';
import { workflowStartFailures } from '../core/metrics';
import { sweptWorkKinds, taskPriority } from '../workflows/priority-types';

/** A document younger than this is left to the API that is still starting its workflow. */
const GRACE_SECONDS = 30;

export interface SweeperActivities {
  startUnstartedDocuments(): Promise<number>;
}

export function createSweeperActivities(deps: ActivityDeps): SweeperActivities {
  return {
    async startUnstartedDocuments() {
      const pending = await findUnstartedDocuments(deps.db, GRACE_SECONDS);
      let started = 0;
      let failed = 0;
      let failure: { reason: StartFailureReason; cause: string } | undefined;
      const kinds = sweptWorkKinds(pending, deps.config.temporal.accountBurst);
      for (const [i, doc] of pending.entries()) {
        try {
          await startDocumentWorkflow(deps.temporal, deps.config.temporal.taskQueue, doc, {
            priority: taskPriority(deps.config.temporal, kinds[i], doc.account_id),
          });
        } catch (err) {
          const { reason, cause } = startFailure(err);
          // A missing namespace or search attribute, or Temporal down, refuses every start alike: the rest wait for
          // the next run instead of each being refused (and logged) on its own.
          const systemic = reason !== 'other';
          const count = systemic ? pending.length - i : 1;
          workflowStartFailures.inc({ reason }, count);
          failed += count;
          failure = { reason, cause };
          if (systemic) break;
          continue;
        }
        await markWorkflowStarted(deps.db, [doc.id]);
        started++;
      }
      if (started) logger.warn({ count: started }, 'sweeper started workflows of documents left unstarted');
      if (failure) {
        logger.error(
          { count: failed, reason: failure.reason, cause: failure.cause, namespace: deps.config.temporal.namespace },
          `sweeper: ${failed} documents wait for their workflow start (${failure.reason}: ${failure.cause}); fix: ${START_FAILURE_FIXES[failure.reason]}`,
        );
      }
      return started;
    },
  };
}
