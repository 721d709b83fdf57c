import Router from '@koa/router';
import type { AppDeps } from './deps';

/** Liveness needs nothing; readiness checks the two things a request depends on: PostgreSQL and Temporal. */
export function healthRouter(deps: AppDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { success: true, message: 'alive', data: { uptime_seconds: Math.round(process.uptime()) } };
  });
  router.get('/readyz', async (ctx) => {
    const checks: Record<string, string> = {};
    await Promise.all([
      deps.db.raw('select 1').then(() => (checks.database = 'ok'), (e: Error) => (checks.database = e.message)),
      deps.temporal.workflowService
        .getSystemInfo({})
        .then(() => (checks.temporal = 'ok'), (e: Error) => (checks.temporal = e.message)),
    ]);
    const ready = Object.values(checks).every((v) => v === 'ok');
    ctx.status = ready ? 200 : 503;
    ctx.body = { success: ready, message: ready ? 'ready' : 'not ready', data: checks };
  });
  return router;
}
