import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { guard } from '../guard';
import { ApiError } from '../errors';
import { logger } from '../../core/logger';
import { loadCompany } from './routes';
import { ACCOUNT_SCOPE } from '../../db/tokens';
import { listCheckRows, presentCheck, worstFirst } from '../../db/company-checks';
import { startCompanyChecks } from '../../workflows/company-checks-client';
import { taskPriority } from '../../workflows/priority-types';

/**
 * `GET /v1/companies/{ruc}/checks`: the latest result of each check (docs/operations.md, "Company checks");
 * `POST` runs them now (202; the GET shows them when done). Account token, like the rest of the company.
 */
export function checksRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies/:ruc/checks' });
  const guarded = guard(deps, ACCOUNT_SCOPE);

  router.get('/', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const checks = worstFirst(await listCheckRows(deps.db, [company.id])).map(presentCheck);
    ctx.body = {
      success: true,
      message: checks.length
        ? `${checks.length} checks`
        : 'No checks have run for this company yet: POST /v1/companies/{ruc}/checks runs them now',
      data: { checks, count: checks.length },
    };
  });

  router.post('/', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const priority = taskPriority(deps.config.temporal, 'urgent', company.account_id);
    const run = await startCompanyChecks(deps.temporal, deps.config.temporal.taskQueue, company, 1, priority).catch(
      (err: Error) => {
        logger.warn({ ruc: company.ruc, err: err.message }, 'company checks could not be started');
        throw new ApiError(
          503,
          'The checks could not be started (Temporal cannot be reached); nothing changed: try again shortly. GET shows the latest results.',
        );
      },
    );
    ctx.status = 202;
    ctx.body = {
      success: true,
      message:
        'The checks are running; GET /v1/companies/{ruc}/checks shows them when done (each result has its checked_at)',
      data: { run: { workflow_id: run.workflowId } },
    };
  });

  return router;
}
