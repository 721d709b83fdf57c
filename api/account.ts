import Router from '@koa/router';
import Joi from 'joi';
import type { AppDeps } from './deps';
import { authenticate, authOf, requireScope } from './auth';
import { rateLimit } from './middleware/rate-limit';
import { ACCOUNT_SCOPE } from '../db/tokens';
import { accountBalance } from '../db/accounts';
import { listAudit, type AuditRow } from '../db/audit';
import { validate } from './companies/schemas';
import { accountCompany } from './companies/routes';

const auditQuery = Joi.object({
  ruc: Joi.string()
    .pattern(/^\d{11}$/)
    .message('must be the 11 digits of a RUC'),
  limit: Joi.number().integer().min(1).max(200).default(50),
  before: Joi.string()
    .pattern(/^\d{1,18}$/)
    .message('must be the next_before of a previous page'),
});

/** One row of the audit log as the API shows it: who (kind, name, address, request), when, what, secrets masked. */
const auditEntry = (r: AuditRow) => ({
  id: String(r.id),
  at: r.at.toISOString(),
  company_ruc: r.company_ruc,
  actor: { kind: r.actor_kind, name: r.actor, address: r.address, request_id: r.request_id },
  action: r.action,
  changes: r.changes,
});

/**
 * `GET /v1/account` (account token): what is left to issue with. Plan 01 signatures left and used (decimal strings:
 * an own-certificate signature costs a fraction), the provider OSE package, and the companies per environment.
 * Only production consumes anything (spec 4 rule 4), so the balances are production's. `GET /v1/account/audit`: the
 * account's audit log (docs/security.md, "Audit log").
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
  // The account's audit log (issue 43), newest first, a page at a time; `ruc` narrows it to one of its companies.
  router.get('/v1/account/audit', authenticate(deps), rateLimit(deps), requireScope(ACCOUNT_SCOPE), async (ctx) => {
    const query = validate<{ ruc?: string; limit: number; before?: string }>(auditQuery, ctx.query);
    const { accountId } = authOf(ctx);
    const companyId = query.ruc ? (await accountCompany(deps, accountId, query.ruc)).id : undefined;
    const rows = await listAudit(deps.db, { accountId, companyId, before: query.before, limit: query.limit });
    ctx.body = {
      success: true,
      message: `${rows.length} audit entries`,
      data: {
        entries: rows.map(auditEntry),
        count: rows.length,
        next_before: rows.length === query.limit ? String(rows[rows.length - 1].id) : null,
      },
    };
  });
  return router;
}
