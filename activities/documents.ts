/**
 * The document workflow's activities (registered by activities/index.ts): each reads what it needs from the database
 * (the workflow passes only the external id), talks to SUNAT or the OSE, records the outcome and returns a small
 * summary. The steps are document-steps.ts; where a document goes, document-routing.ts; whose CDR it is,
 * document-cdr.ts; the API's words, document-result.ts.
 */
import type { ActivityDeps } from './deps';
import { firstTaskOf } from '../core/temporal-log';
import type { DocumentActivities } from '../workflows/document-types';
import type { WebhookActivities } from '../workflows/webhook-types';
import { isQueued } from '../lifecycle/transitions';
import {
  begin,
  checkTicket,
  currentActivity,
  load,
  planOf,
  queryState,
  sendMarked,
  stepContext,
} from './document-steps';

export { sendingSolUser } from './document-routing';
export { toDocumentResult } from './document-result';

/** All are safe to run twice: a resolved document is never sent or changed again. */
export function createDocumentActivities(
  deps: ActivityDeps,
  notices: Pick<WebhookActivities, 'openWebhookDelivery'>,
): DocumentActivities {
  const ctx = stepContext(deps, notices);
  return {
    async loadDocumentPlan(externalId, options) {
      if (!options?.sendQueued) {
        const { doc, company } = await load(ctx, externalId);
        return planOf(ctx, doc, company);
      }
      // The row is read as the send marks it (a document that is not queued is left unmarked): one round trip.
      const { doc: before, company } = await begin(ctx, externalId, 'queued');
      const plan = planOf(ctx, before, company);
      if (before.resolved || !isQueued(before.status)) return plan;
      // Temporal's warnings about this long workflow task then name the document (core/temporal-log.ts).
      const runId = currentActivity()?.info.workflowExecution?.runId;
      const ended = runId
        ? firstTaskOf(runId, {
            externalId: before.id,
            ruc: before.ruc,
            docType: before.doc_type,
            filename: before.filename,
          })
        : undefined;
      try {
        // Only a document whose state can be asked for is handed over: the next send queries before sending again.
        if (!plan.queryable) return { ...plan, firstSend: await sendMarked(ctx, before, company, 'queued', true) };
        const firstSend = await sendMarked(ctx, before, company, 'queued', true, deps.config.firstSendWaitMs);
        return firstSend === 'handedOff' ? { ...plan, handedOff: true } : { ...plan, firstSend };
      } finally {
        ended?.();
      }
    },

    async sendDocument(externalId, expected) {
      const { doc: before, company } = await begin(ctx, externalId, expected);
      return sendMarked(ctx, before, company, expected);
    },

    checkTicket: (externalId) => checkTicket(ctx, externalId),
    queryDocumentState: (externalId) => queryState(ctx, externalId),
  };
}
