import Router from '@koa/router';
import type { AppDeps } from './deps';
import { authenticate, authOf, requireScope } from './auth';
import { rateLimit } from './middleware/rate-limit';
import { ACCOUNT_SCOPE } from '../db/tokens';
import { accountBalance } from '../db/accounts';

/**
 * `GET /v1/account` (account token): what is left to issue with. Plan 01 signatures left and used (decimal strings:
 * an own-certificate signature costs a fraction), the provider OSE package, and the companies per environment.
 * Only production consumes anything (spec 4 rule 4), so the balances are production's.
 */
export function accountRouter(deps: AppDeps): Router {
  const router = new Router();
  router.get('/v1/account', authenticate(deps), rateLimit(deps), requireScope(ACCOUNT_SCOPE), async (ctx) => {
    const b = await accountBalance(deps.db, authOf(ctx).accountId);
    ctx.body = {
      success: true,
      message: `Account ${b.name}: ${b.quota.left} plan 01 signatures left`,
      data: {
        account: {
          id: b.id,
          name: b.name,
          plan_01: { signatures_left: b.quota.left, signatures_used: b.quota.used },
          ose_package: { sends_left: b.osePackage.left },
          companies: b.companies.total,
          environments: {
            demo: { companies: b.companies.demo, consumes_quota: false },
            production: {
              companies: b.companies.production,
              documents_signed: b.productionDocuments,
              consumes_quota: true,
            },
          },
        },
      },
    };
  });
  return router;
}
