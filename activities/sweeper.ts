import type { ActivityDeps } from './deps';
import { findUnstartedDocuments, markWorkflowStarted } from '../db/documents';
import { startDocumentWorkflow } from '../workflows/document-client';
import { logger } from '../core/logger';

/** A document younger than this is left to the API that is still starting its workflow. */
const GRACE_SECONDS = 30;

export interface SweeperActivities {
  startUnstartedDocuments(): Promise<number>;
}

export function createSweeperActivities(deps: ActivityDeps): SweeperActivities {
  return {
    async startUnstartedDocuments() {
      const pending = await findUnstartedDocuments(deps.db, GRACE_SECONDS);
      for (const doc of pending) {
        await startDocumentWorkflow(deps.temporal, deps.config.temporal.taskQueue, doc);
        await markWorkflowStarted(deps.db, [doc.id]);
      }
      if (pending.length) logger.warn({ count: pending.length }, 'sweeper started workflows of documents left unstarted');
      return pending.length;
    },
  };
}
