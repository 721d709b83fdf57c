import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest, conflict } from '../errors';
import { authOf } from '../auth';
import { guard } from '../guard';
import { idempotent } from '../middleware/idempotency';
import { ACCOUNT_SCOPE, COMPANY_SCOPE, issueToken, revokeCompanyTokens } from '../../db/tokens';
import {
  deleteCompanyWithoutProduction,
  findCompany,
  insertCompany,
  listCompanies,
  rucHeldElsewhere,
  updateCompany,
  type CompanyRow,
  type Destination,
  type Environment,
  type PlanType,
  type Signing,
} from '../../db/companies';
import { assignCertificate, certificateValues, releaseCertificate } from '../../db/certificates';
import { logger } from '../../core/logger';
import { presentCompanies, WEBHOOK_EVENT } from './present';
import { readCertificateUpload } from './certificate';
import { triggerProcedures } from './procedures';
import { settingRoutes } from './settings';
import { checkSigningAndDestination, checkTarget, companyData, loadCompany, ok, TOKEN_NOTE } from './shared';
import * as schemas from './schemas';

// Other rooms find the account's company here.
export { accountCompany, loadCompany } from './shared';

const WEBHOOK_NOTE =
  'Store this secret now: it is shown only once. It signs every notice (X-Firma, HMAC-SHA256 of the raw body).';

export function companiesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies' });
  const guarded = guard(deps, ACCOUNT_SCOPE);
  router.get('/', ...guarded, listHandler(deps));
  router.post('/', ...guarded, idempotent(deps), createHandler(deps));
  router.get('/:ruc', ...guarded, async (ctx) => {
    ok(ctx, 'Company found', await companyData(deps, await loadCompany(deps, ctx)));
  });
  router.delete('/:ruc', ...guarded, deleteHandler(deps));
  router.post('/:ruc/token', ...guarded, tokenHandler(deps));
  settingRoutes(router, deps, guarded);
  router.patch('/:ruc/webhook', ...guarded, webhookHandler(deps));
  router.post('/:ruc/certificate', ...guarded, certificateHandler(deps));
  return router;
}

/** GET /v1/companies: the account's companies, a page at a time. */
function listHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const { accountId } = authOf(ctx);
    const page = schemas.validate<{ limit: number; before?: string }>(schemas.companyPageSchema, ctx.query);
    if (page.before && !(await findCompany(deps.db, accountId, page.before))) {
      throw badRequest('Unknown company in before', {
        before: ['must be the next_before of a previous page of this list'],
      });
    }
    const rows = await listCompanies(deps.db, accountId, page);
    const companies = await presentCompanies(deps.db, rows);
    ok(ctx, `${companies.length} companies`, {
      companies,
      count: companies.length,
      next_before: rows.length === page.limit ? rows[rows.length - 1].ruc : null,
    });
  };
}

/** POST /v1/companies: registers a company (or answers the existing one) with its first signing token. */
function createHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const input = schemas.validate<{
      ruc: string;
      business_name: string;
      plan_type: PlanType;
      environment: Environment;
      destination?: Destination;
      signing?: Signing;
      confirm?: boolean;
      sol_user?: string;
      sol_password?: string;
    }>(schemas.createCompanySchema, ctx.request.body);
    const { accountId } = authOf(ctx);
    checkSigningAndDestination(input.signing ?? 'provider', input.destination ?? 'tax_authority', false);
    const existing = await findCompany(deps.db, accountId, input.ruc);
    const answerExisting = async (company: CompanyRow) =>
      ok(ctx, `Company ${company.ruc} already exists in this account; nothing was changed`, {
        ...(await companyData(deps, company)),
        exists: true,
      });
    if (existing) return answerExisting(existing);
    if (!input.confirm && (await rucHeldElsewhere(deps.db, accountId, input.ruc))) {
      throw conflict(
        `RUC ${input.ruc} is registered in another account; send confirm: true to register it in this account as well`,
      );
    }
    const created = await deps.db.transaction(async (trx) => {
      const { company, created } = await insertCompany(trx, {
        account_id: accountId,
        ruc: input.ruc,
        business_name: input.business_name,
        plan_type: input.plan_type,
        environment: input.environment,
        destination: input.destination,
        signing: input.signing,
        ...(input.sol_user
          ? {
              sol_user: input.sol_user,
              sol_password_sealed: deps.secrets.seal(input.sol_password!),
              sol_updated_at: new Date(),
            }
          : {}),
      });
      return {
        company,
        token: created ? await issueToken(trx, { scope: COMPANY_SCOPE, accountId, companyId: company.id }) : null,
      };
    });
    // A concurrent creation of the same RUC in this account won the insert.
    if (!created.token) return answerExisting(created.company);
    let message = `Company ${input.ruc} created`;
    try {
      await triggerProcedures(deps, created.company);
    } catch (err) {
      // The company and its one-time token exist already: answer them rather than lose the token to a 500.
      logger.error(
        { err, requestId: ctx.state.requestId, companyId: created.company.id },
        'could not start the portal procedures',
      );
      message += '; the portal procedures could not be started now: send PATCH sol-credentials again to start them';
    }
    ok(
      ctx,
      message,
      { ...(await companyData(deps, created.company)), token: created.token, token_note: TOKEN_NOTE },
      201,
    );
  };
}

/** DELETE /v1/companies/{ruc}: only a company that never issued in production; its tokens are revoked. */
function deleteHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const inProduction = () =>
      badRequest(`Company ${company.ruc} has documents issued or sent in production and cannot be deleted`);
    if (company.production_documents > 0) throw inProduction();
    const revoked = await deps.db.transaction(async (trx) => {
      const count = await revokeCompanyTokens(trx, company.id);
      // Re-checked in the delete itself: a production document may have been issued since the read above.
      if (!(await deleteCompanyWithoutProduction(trx, company.id))) throw inProduction();
      if (company.certificate_id) await releaseCertificate(trx, company.certificate_id);
      return count;
    });
    ok(ctx, `Company ${company.ruc} deleted; ${revoked} signing tokens revoked`);
  };
}

/** POST /v1/companies/{ruc}/token: another signing token. */
function tokenHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const token = await issueToken(deps.db, {
      scope: COMPANY_SCOPE,
      accountId: company.account_id,
      companyId: company.id,
    });
    ok(ctx, 'Signing token generated', { token, token_note: TOKEN_NOTE }, 201);
  };
}

/** PATCH /v1/companies/{ruc}/webhook: registers, keeps or disables the webhook; a new URL gets a new secret. */
function webhookHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const input = schemas.validate<{ url: string | null }>(schemas.webhookSchema, ctx.request.body);
    if (input.url === null) {
      await updateCompany(deps.db, company.id, {
        webhook_url: null,
        webhook_secret_sealed: null,
        webhook_updated_at: new Date(),
      });
      return ok(ctx, 'Webhook disabled');
    }
    await checkTarget(deps, 'url', input.url);
    if (input.url === company.webhook_url) {
      // The secret was shown when this URL was registered; re-sending the URL does not rotate it.
      return ok(ctx, 'Webhook unchanged; the secret issued with this URL remains valid', {
        webhook: {
          url: input.url,
          event: WEBHOOK_EVENT,
          note: 'To rotate the secret, disable the webhook (url: null) and register it again.',
        },
      });
    }
    const secret = randomBytes(24).toString('hex');
    await updateCompany(deps.db, company.id, {
      webhook_url: input.url,
      webhook_secret_sealed: deps.secrets.seal(secret),
      webhook_updated_at: new Date(),
    });
    ok(ctx, 'Webhook configured', { webhook: { url: input.url, event: WEBHOOK_EVENT, secret, note: WEBHOOK_NOTE } });
  };
}

/** POST /v1/companies/{ruc}/certificate: the company's own certificate (PFX). */
function certificateHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const certificate = await readCertificateUpload(ctx, deps, {
      maxBytes: deps.config.certificateMaxBytes,
      ruc: company.ruc,
      account: company.account_id,
    });
    const { company: updated } = await assignCertificate(
      deps.db,
      company,
      certificateValues(company.account_id, 'own', certificate, deps.secrets.seal(certificate.privateKeyPem)),
    );
    // Signing with an own certificate makes the PSE authorisation unnecessary: let the workflow re-plan.
    await triggerProcedures(deps, updated);
    ok(
      ctx,
      'Certificate stored; the company now signs with its own certificate',
      await companyData(deps, updated),
      201,
    );
  };
}
