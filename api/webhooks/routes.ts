import Router from '@koa/router';
import Joi from 'joi';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest, notFound } from '../errors';
import { answerOf, lifecycleDeps } from '../actions';
import { guard } from '../guard';
import { loadCompany } from '../companies/routes';
import { validate } from '../companies/schemas';
import { ACCOUNT_SCOPE } from '../../db/tokens';
import type { CompanyRow } from '../../db/companies';
import { findDelivery, listAttempts, listDeliveries, type AttemptRow, type DeliveryRow } from '../../db/webhooks';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../lifecycle/webhooks';
import { redeliver } from '../../support/actions';
import { presentDelivery } from './present';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function presentAttempt(row: AttemptRow) {
  return {
    number: row.number,
    url: row.url,
    started_at: iso(row.started_at)!,
    http_status: row.http_status,
    latency_ms: row.latency_ms,
    error: row.error,
    delivered: row.delivered,
  };
}

const uuid = Joi.string().guid();
const listQuery = Joi.object({
  status: Joi.string().valid(...DELIVERY_STATUSES),
  external_id: uuid,
  limit: Joi.number().integer().min(1).max(200).default(50),
  before: uuid,
});

/**
 * The account's view of its webhook notices (spec 6): deliveries with each attempt (time, URL, HTTP status, latency,
 * error), and redelivery on request. Account token, like the webhook configuration.
 */
export function webhooksRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies/:ruc/webhook/deliveries' });
  const guarded = guard(deps, ACCOUNT_SCOPE);

  async function loadDelivery(ctx: Context): Promise<{ company: CompanyRow; delivery: DeliveryRow }> {
    const company = await loadCompany(deps, ctx);
    const delivery = await findDelivery(deps.db, String(ctx.params.id));
    if (!delivery || delivery.company_id !== company.id)
      throw notFound(`Webhook delivery ${ctx.params.id} does not exist for company ${company.ruc}`);
    return { company, delivery };
  }

  router.get('/', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const query = validate<{ status?: DeliveryStatus; external_id?: string; limit: number; before?: string }>(
      listQuery,
      ctx.query,
    );
    const before = query.before ? await findDelivery(deps.db, query.before) : undefined;
    if (query.before && before?.company_id !== company.id)
      throw badRequest('Unknown delivery in before', { before: ['must be the id of one of this company deliveries'] });
    const rows = await listDeliveries(deps.db, company.id, {
      status: query.status,
      documentId: query.external_id,
      limit: query.limit,
      before,
    });
    const deliveries = rows.map(presentDelivery);
    ctx.body = {
      success: true,
      message: `${deliveries.length} webhook deliveries`,
      data: {
        deliveries,
        count: deliveries.length,
        next_before: rows.length === query.limit ? rows[rows.length - 1].id : null,
      },
    };
  });

  router.get('/:id', ...guarded, async (ctx) => {
    const { delivery } = await loadDelivery(ctx);
    const attempts = (await listAttempts(deps.db, delivery.id)).map(presentAttempt);
    ctx.body = {
      success: true,
      message: 'Webhook delivery found',
      data: { delivery: { ...presentDelivery(delivery), attempts } },
    };
  });

  router.post('/:id/redeliver', ...guarded, async (ctx) => {
    const { company, delivery } = await loadDelivery(ctx);
    const redelivery = answerOf(await redeliver(lifecycleDeps(deps), company, delivery)).data!.delivery;
    ctx.status = 202;
    ctx.body = {
      success: true,
      message: 'Redelivery queued with a new X-Entrega',
      data: { delivery: presentDelivery(redelivery) },
    };
  });

  return router;
}
