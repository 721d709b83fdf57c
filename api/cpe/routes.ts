import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError, conflict, forbidden, notFound } from '../errors';
import { authenticate, authOf, requireScope } from '../auth';
import { rateLimit } from '../middleware/rate-limit';
import { idempotent } from '../middleware/idempotency';
import { COMPANY_SCOPE } from '../../db/tokens';
import { findDocument, releaseForSending, toApiDocument, type DocumentRow } from '../../db/documents';
import { holdForSending } from '../../db/issuing';
import { logger } from '../../core/logger';
import { signalDocumentWorkflow, startDocumentWorkflow } from '../../workflows/document-client';
import { issueDocument } from './issue';
import { createKeyResolver } from '../../core/signing-keys';
import { issueBody, legacyBody, verdictBody } from './present';
import { waitForVerdict } from './wait';

function documentAnswer(ctx: Context, status: number, message: string, row: DocumentRow): void {
  ctx.status = status;
  ctx.body = { success: true, message, data: { document: toApiDocument(row) } };
}

/** Why `resend` does not apply to a document, or null when it does (docs/issuing.md). */
function resendRefusal(row: DocumentRow): string | null {
  if (row.resolved) return `Document ${row.filename} is already ${row.status}; a resolved document is not sent again`;
  if (row.status === 'to_send') return `Document ${row.filename} has not been sent yet: use POST /v1/cpe/${row.id}/send`;
  if (row.status === 'to_summarize') return `Document ${row.filename} is reported by the daily summary, not sent on its own`;
  if (row.status === 'registered') return `Document ${row.filename} was received with ticket ${row.ticket}; its verdict is being polled`;
  if (row.status === 'queued' && !row.result) return `Document ${row.filename} is being sent now; there is nothing to resend yet`;
  return null;
}

/** `/v1/cpe` (spec 2.3–2.5, 4) and the legacy `POST /api/cpe/enviar` (spec 9), all with a company signing token. */
export function cpeRouter(deps: AppDeps): Router {
  const router = new Router();
  const keys = createKeyResolver(deps);
  const guard = [authenticate(deps), rateLimit(deps), requireScope(COMPANY_SCOPE)];
  const waitMs = () => deps.config.issuing.waitTimeoutSeconds * 1000;

  /** The caller's document named in the path: 404 unknown (or not an id at all), 403 another company's. */
  async function ownDocument(ctx: Context): Promise<DocumentRow> {
    const row = await findDocument(deps.db, String(ctx.params.external_id));
    if (!row) throw notFound(`No document ${ctx.params.external_id}`);
    if (row.company_id !== authOf(ctx).companyId) throw forbidden('The document belongs to another company');
    return row;
  }

  router.post('/v1/cpe', ...guard, idempotent(deps), async (ctx) => {
    const startedAt = Date.now();
    const { row, company, body, replayed } = await issueDocument(deps, keys, ctx, startedAt, (r) => issueBody(r, startedAt));
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    // Spec 7.1: 202 always on /v1 issue; in response mode wait the body adds the verdict when it came in time.
    ctx.status = 202;
    ctx.body = body;
    if (!replayed && company.response_mode === 'wait' && row.status === 'queued') {
      const waited = await waitForVerdict(deps.db, row.id, waitMs());
      if (waited.answered) ctx.body = verdictBody(waited.row, startedAt);
    }
  });

  router.post('/api/cpe/enviar', ...guard, idempotent(deps), async (ctx) => {
    const startedAt = Date.now();
    const { row, replayed } = await issueDocument(deps, keys, ctx, startedAt, (r) => legacyBody(r, startedAt, false));
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    const waited = row.status === 'queued' ? await waitForVerdict(deps.db, row.id, waitMs()) : { row, answered: false };
    ctx.status = waited.answered ? 200 : 202;
    ctx.body = legacyBody(waited.row, startedAt, waited.answered);
  });

  router.get('/v1/cpe/:external_id', ...guard, async (ctx) => {
    const row = await ownDocument(ctx);
    documentAnswer(ctx, 200, `Document ${row.filename} is ${row.status}`, row);
  });

  router.post('/v1/cpe/:external_id/send', ...guard, async (ctx) => {
    const row = await ownDocument(ctx);
    const refuse = (current: DocumentRow) =>
      conflict(`Document ${current.filename} is ${current.status}; only a document waiting in manual mode (to_send) can be sent`);
    if (row.status !== 'to_send') throw refuse(row);
    if (!(await releaseForSending(deps.db, row.id))) throw refuse((await findDocument(deps.db, row.id))!);
    try {
      // A workflow not started yet (API crash at issue) is started by the sweeper and finds the document queued.
      await signalDocumentWorkflow(deps.temporal, row.id, 'send');
    } catch (err) {
      await holdForSending(deps.db, row.id);
      logger.error({ err, externalId: row.id }, 'send signal not delivered');
      throw new ApiError(503, 'The send could not be handed to the delivery service; the document still waits: retry POST /send');
    }
    documentAnswer(ctx, 202, `Document ${row.filename} queued for sending`, (await findDocument(deps.db, row.id))!);
  });

  router.post('/v1/cpe/:external_id/resend', ...guard, async (ctx) => {
    const row = await ownDocument(ctx);
    const refusal = resendRefusal(row);
    if (refusal) throw conflict(refusal);
    // Same signed XML, no signature, no quota: the workflow sends the stored bytes again.
    if (!(await signalDocumentWorkflow(deps.temporal, row.id, 'resend'))) {
      await startDocumentWorkflow(deps.temporal, deps.config.temporal.taskQueue, row);
    }
    documentAnswer(ctx, 202, `Document ${row.filename} will be sent again (same signed XML, no new signature, no quota)`, row);
  });

  return router;
}
