import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { AppDeps } from './deps';
import { countUnresolvedByAge } from '../db/document-metrics';
import { UNRESOLVED_STATUSES } from '../lifecycle/transitions';
import { listAllCheckRows, STATUS_GAUGE } from '../db/company-checks';
import {
  httpRequestSeconds,
  METRICS_CONTENT_TYPE,
  metricsText,
  refusals,
  registerCheckGauges,
  registerUnresolvedGauge,
} from '../core/metrics';

/**
 * `GET /metrics`: Prometheus text (chasqui_* series, Node's process metrics and, where a worker runs in this process,
 * the Temporal SDK's runtime metrics). Not behind a token, like /healthz: expose it on an internal network only.
 */
export function metricsRouter(deps: AppDeps): Router {
  registerUnresolvedGauge(UNRESOLVED_STATUSES, () => countUnresolvedByAge(deps.db));
  registerCheckGauges(async () =>
    (await listAllCheckRows(deps.db)).map((row) => ({
      ruc: row.ruc,
      check: row.check,
      value: STATUS_GAUGE[row.status],
      days_left: typeof row.fields.days_left === 'number' ? row.fields.days_left : null,
    })),
  );
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    ctx.type = METRICS_CONTENT_TYPE;
    ctx.body = await metricsText();
  });
  return router;
}

/** Times every request by its route pattern and counts the 429 and 402 refusals (after the envelope rendered them). */
export async function requestMetrics(ctx: Context, next: Next): Promise<void> {
  const started = process.hrtime.bigint();
  try {
    await next();
  } finally {
    const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
    if (route !== '/metrics') {
      httpRequestSeconds.observe(
        { method: ctx.method, route: String(route), status: String(ctx.status) },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    }
    if (ctx.status === 429) refusals.inc({ reason: 'rate_limit' });
    if (ctx.status === 402) refusals.inc({ reason: 'plan' });
  }
}
