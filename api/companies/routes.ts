import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { authOf } from '../auth';
import { guard } from '../guard';
import { idempotent } from '../middleware/idempotency';
import { ACCOUNT_SCOPE } from '../../db/tokens';
import { findCompany, listCompanies } from '../../db/companies';
import { requestActor } from '../audit';
import { presentCompanies } from './present';
import { readCertificateUpload, storeCertificate } from './certificate';
import { settingRoutes } from './settings';
import { companyData, loadCompany, ok, TOKEN_NOTE } from './shared';
import { deleteCompany, registerCompany, type NewCompany } from './registration';
import { tokenRoutes } from './tokens';
import { webhookRoutes } from './webhook';
import * as schemas from './schemas';

// Other rooms find the account's company here.
export { accountCompany, loadCompany } from './shared';

export function companiesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies' });
  const guarded = guard(deps, ACCOUNT_SCOPE);
  router.get('/', ...guarded, listHandler(deps));
  router.post('/', ...guarded, idempotent(deps), createHandler(deps));
  router.get('/:ruc', ...guarded, async (ctx) => {
    ok(ctx, 'Company found', await companyData(deps, await loadCompany(deps, ctx)));
  });
  router.delete('/:ruc', ...guarded, deleteHandler(deps));
  tokenRoutes(router, deps, guarded);
  settingRoutes(router, deps, guarded);
  webhookRoutes(router, deps, guarded);
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
    const input = schemas.validate<NewCompany>(schemas.createCompanySchema, ctx.request.body);
    const registered = await registerCompany(deps, authOf(ctx).accountId, input, requestActor(ctx));
    if (registered.kind === 'exists') {
      return ok(ctx, `Company ${registered.company.ruc} already exists in this account; nothing was changed`, {
        ...(await companyData(deps, registered.company)),
        exists: true,
      });
    }
    ok(
      ctx,
      `Company ${input.ruc} created${registered.proceduresStarted ? '' : '; the portal procedures could not be started now: send PATCH sol-credentials again to start them'}`,
      { ...(await companyData(deps, registered.company)), token: registered.token, token_note: TOKEN_NOTE },
      201,
    );
  };
}

/** DELETE /v1/companies/{ruc}: only a company that never issued in production; its tokens are revoked. */
function deleteHandler(deps: AppDeps): Middleware {
  return async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const { revoked } = await deleteCompany(deps, company, requestActor(ctx));
    ok(ctx, `Company ${company.ruc} deleted; ${revoked} signing tokens revoked`);
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
    const updated = await storeCertificate(deps, company, certificate, requestActor(ctx));
    ok(
      ctx,
      'Certificate stored; the company now signs with its own certificate',
      await companyData(deps, updated),
      201,
    );
  };
}
