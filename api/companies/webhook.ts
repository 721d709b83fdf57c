import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError, conflict } from '../errors';
import { requestActor } from '../audit';
import { secretChange, type Actor } from '../../db/audit';
import type { CompanyRow } from '../../db/companies';
import { admitKeyed } from '../../db/rate-limits';
import { deleteDelivery, type DeliveryRow } from '../../db/webhooks';
import { startRedeliveryWorkflow } from '../../workflows/webhook-client';
import { taskPriority } from '../../workflows/priority-types';
import { TEST_WEBHOOK_EVENT, WEBHOOK_EVENT } from '../../workflows/webhook-types';
import { presentDelivery } from '../webhooks/present';
import { changeCompany, checkTarget, loadCompany, ok } from './shared';
import * as schemas from './schemas';

/**
 * A company's webhook (spec 6, issue 42): its URL, its secret (shown once, rotated on request) and a test notice. The
 * API routes and the panel (api/console/panel/webhook.ts) both call these functions; each change and its audit row
 * (the secret masked) commit together.
 */

const WEBHOOK_NOTE =
  'Store this secret now: it is shown only once. It signs every notice (X-Firma, HMAC-SHA256 of the raw body).';

/** How many test notices a company may send: a receiver is the account's, but not a target to flood. */
export const TEST_NOTICE_LIMIT = { limit: 10, windowSeconds: 3600 };

export type WebhookChange =
  { kind: 'disabled' } | { kind: 'unchanged' } | { kind: 'configured'; url: string; secret: string };

const newSecret = () => randomBytes(24).toString('hex');

async function saveWebhook(
  deps: Pick<AppDeps, 'db' | 'secrets'>,
  company: CompanyRow,
  url: string | null,
  secret: string | null,
  actor: Actor,
  action: string,
): Promise<void> {
  await changeCompany(
    deps,
    company,
    { webhook_url: url, webhook_secret_sealed: secret && deps.secrets.seal(secret), webhook_updated_at: new Date() },
    actor,
    action,
    () => ({
      ...(url === company.webhook_url ? {} : { url: { from: company.webhook_url, to: url } }),
      secret: secretChange(company.webhook_secret_sealed, secret),
    }),
  );
}

/** Registers (a new URL gets a new secret), keeps (the same URL: nothing changes) or disables (null) the webhook. */
export async function setWebhook(
  deps: Pick<AppDeps, 'db' | 'secrets' | 'config'>,
  company: CompanyRow,
  url: string | null,
  actor: Actor,
): Promise<WebhookChange> {
  if (url === null) {
    await saveWebhook(deps, company, null, null, actor, 'webhook.disable');
    return { kind: 'disabled' };
  }
  await checkTarget(deps, 'url', url);
  // The secret was shown when this URL was registered; re-sending the URL does not rotate it.
  if (url === company.webhook_url) return { kind: 'unchanged' };
  const secret = newSecret();
  await saveWebhook(deps, company, url, secret, actor, 'webhook.set');
  return { kind: 'configured', url, secret };
}

const noWebhook = () => conflict('The company has no webhook: register its URL first (PATCH …/webhook)');

/** A new secret for the same URL; notices not yet attempted are signed with it. */
export async function rotateWebhookSecret(
  deps: Pick<AppDeps, 'db' | 'secrets'>,
  company: CompanyRow,
  actor: Actor,
): Promise<{ url: string; secret: string }> {
  if (!company.webhook_url) throw noWebhook();
  const secret = newSecret();
  await saveWebhook(deps, company, company.webhook_url, secret, actor, 'webhook.rotate_secret');
  return { url: company.webhook_url, secret };
}

/**
 * A `webhook.test` notice to the URL configured now, signed with its secret and delivered by the delivery workflow as
 * any notice (its row is the log's, its attempts retried as a resolution's). The URL is checked as when it was set.
 */
export async function sendTestNotice(deps: AppDeps, company: CompanyRow): Promise<DeliveryRow> {
  if (!company.webhook_url) throw noWebhook();
  await checkTarget(deps, 'url', company.webhook_url);
  const { limit, windowSeconds } = TEST_NOTICE_LIMIT;
  const admitted = await admitKeyed(deps.db, `webhook-test:${company.id}`, limit, windowSeconds);
  if (!admitted.admitted)
    throw new ApiError(429, `At most ${limit} test notices an hour per company; try again later`, {
      headers: { 'Retry-After': String(admitted.resetSeconds) },
    });
  const [delivery] = await deps
    .db('webhook_deliveries')
    .insert({ company_id: company.id, event: TEST_WEBHOOK_EVENT })
    .returning('*');
  try {
    const priority = taskPriority(deps.config.temporal, 'urgent', company.account_id);
    await startRedeliveryWorkflow(deps.temporal, deps.config.temporal.taskQueue, null, delivery.id, priority);
  } catch (err) {
    // Without its workflow the row would stay pending forever.
    await deleteDelivery(deps.db, delivery.id);
    throw err;
  }
  return delivery as DeliveryRow;
}

/** PATCH …/webhook, POST …/webhook/secret and POST …/webhook/test (account token). */
export function webhookRoutes(router: Router, deps: AppDeps, guard: Middleware[]): void {
  router.patch('/:ruc/webhook', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const input = schemas.validate<{ url: string | null }>(schemas.webhookSchema, ctx.request.body);
    const change = await setWebhook(deps, company, input.url, requestActor(ctx));
    if (change.kind === 'disabled') return ok(ctx, 'Webhook disabled');
    if (change.kind === 'unchanged')
      return ok(ctx, 'Webhook unchanged; the secret issued with this URL remains valid', {
        webhook: {
          url: input.url,
          event: WEBHOOK_EVENT,
          note: 'To rotate the secret, send POST /v1/companies/{ruc}/webhook/secret.',
        },
      });
    ok(ctx, 'Webhook configured', {
      webhook: { url: change.url, event: WEBHOOK_EVENT, secret: change.secret, note: WEBHOOK_NOTE },
    });
  });
  router.post('/:ruc/webhook/secret', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const rotated = await rotateWebhookSecret(deps, company, requestActor(ctx));
    ok(ctx, 'Webhook secret rotated; the previous one no longer signs notices', {
      webhook: { url: rotated.url, event: WEBHOOK_EVENT, secret: rotated.secret, note: WEBHOOK_NOTE },
    });
  });
  router.post('/:ruc/webhook/test', ...guard, async (ctx) => {
    const delivery = await sendTestNotice(deps, await loadCompany(deps, ctx));
    ok(ctx, 'Test notice queued', { delivery: presentDelivery(delivery) }, 202);
  });
}
