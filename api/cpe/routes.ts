import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { answerOf, lifecycleDeps, REFUSAL_STATUS } from '../actions';
import { authOf } from '../auth';
import { guard } from '../guard';
import Joi from 'joi';
import { validate } from '../companies/schemas';
import { mailCeiling } from '../../buyers/mail-ceiling';
import { idempotent } from '../middleware/idempotency';
import { COMPANY_SCOPE } from '../../db/tokens';
import { findDocument, type DocumentRow } from '../../db/documents';
import { toApiDocument } from '../../db/document-presentation';
import { emailAgain, resend, send, SendNotHandedOver } from '../../support/actions';
import { isBeingSent } from '../../lifecycle/transitions';
import { issueDocument } from './issue';
import { createKeyResolver } from '../../keys/signing-keys';
import { issueBody, legacyBody, verdictBody } from './present';
import { waitForVerdict } from './wait';
import { ownDocument } from './own-document';

/** `{to?}`: one address or a list; the addresses themselves are judged by the action. */
const emailAgainSchema = Joi.object({
  to: Joi.alternatives().try(Joi.string().max(300), Joi.array().items(Joi.string().max(300)).min(1)),
});

function documentAnswer(ctx: Context, status: number, message: string, row: DocumentRow): void {
  ctx.status = status;
  ctx.body = { success: true, message, data: { document: toApiDocument(row) } };
}

/** `/v1/cpe` (spec 2.3–2.5, 4) and the legacy `POST /api/cpe/enviar` (spec 9), all with a company signing token. */
export function cpeRouter(deps: AppDeps): Router {
  const router = new Router();
  const keys = createKeyResolver(deps);
  const guarded = guard(deps, COMPANY_SCOPE);
  const waitMs = () => deps.config.issuing.waitTimeoutSeconds * 1000;

  router.post('/v1/cpe', ...guarded, idempotent(deps), async (ctx) => {
    const startedAt = Date.now();
    const { row, company, body, replayed } = await issueDocument(deps, keys, ctx, startedAt, (r) =>
      issueBody(r, startedAt),
    );
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    // Spec 7.1: 202 always on /v1 issue; in response mode wait the body adds the verdict when it came in time.
    ctx.status = 202;
    ctx.body = body;
    if (!replayed && company.response_mode === 'wait' && isBeingSent(row.status)) {
      const waited = await waitForVerdict(deps.db, row.id, waitMs());
      if (waited.answered) ctx.body = verdictBody(await deps.files.withFiles(waited.row), startedAt);
    }
  });

  router.post('/api/cpe/enviar', ...guarded, idempotent(deps), async (ctx) => {
    const startedAt = Date.now();
    const { row, replayed } = await issueDocument(deps, keys, ctx, startedAt, (r) => legacyBody(r, startedAt, false));
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    const waited = isBeingSent(row.status) ? await waitForVerdict(deps.db, row.id, waitMs()) : { row, answered: false };
    ctx.status = waited.answered ? 200 : 202;
    ctx.body = legacyBody(
      waited.row === row ? row : await deps.files.withFiles(waited.row),
      startedAt,
      waited.answered,
    );
  });

  router.get('/v1/cpe/:external_id', ...guarded, async (ctx) => {
    const row = await ownDocument(deps, ctx);
    documentAnswer(ctx, 200, `Document ${row.filename} is ${row.status}`, row);
  });

  router.post('/v1/cpe/:external_id/send', ...guarded, async (ctx) => {
    const row = await ownDocument(deps, ctx);
    const result = await send(lifecycleDeps(deps), row).catch((err) => {
      throw err instanceof SendNotHandedOver ? new ApiError(503, err.message) : err;
    });
    documentAnswer(ctx, 202, answerOf(result).detail, (await findDocument(deps.db, row.id))!);
  });

  router.post('/v1/cpe/:external_id/resend', ...guarded, async (ctx) => {
    const row = await ownDocument(deps, ctx);
    // Same signed XML, no signature, no quota: the workflow sends the stored bytes again.
    const result = await resend(lifecycleDeps(deps), row, { mayHaveArrived: true });
    documentAnswer(ctx, 202, answerOf(result).detail, row);
  });

  router.post('/v1/cpe/:external_id/email', ...guarded, async (ctx) => {
    const row = await ownDocument(deps, ctx);
    const input = validate<{ to?: string | string[] }>(emailAgainSchema, ctx.request.body);
    const ceiling = await mailCeiling(deps.db, deps.config, {
      accountId: authOf(ctx).accountId,
      demo: row.environment === '01',
      take: false,
    });
    if (ceiling.reached)
      throw new ApiError(429, `E-mail not sent again: ${ceiling.message}`, {
        headers: { 'Retry-After': String(ceiling.resetSeconds) },
      });
    const result = await emailAgain(lifecycleDeps(deps), row.id, {
      to: input.to === undefined ? undefined : [input.to].flat(),
      operator: `api token ${authOf(ctx).tokenId}`,
    });
    if (result.outcome === 'refused') {
      throw new ApiError(
        REFUSAL_STATUS[result.code],
        result.reason,
        result.code === 'invalid' && input.to !== undefined ? { errors: { to: [result.reason] } } : {},
      );
    }
    documentAnswer(ctx, 202, result.detail, (await findDocument(deps.db, row.id))!);
  });

  return router;
}
