import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { authenticate, authOf, requireScope } from '../auth';
import { rateLimit } from '../middleware/rate-limit';
import { idempotent } from '../middleware/idempotency';
import { ACCOUNT_SCOPE, COMPANY_SCOPE, issueToken } from '../../db/tokens';
import { findCompany, listCompanies, updateCompany } from '../../db/companies';
import { requestActor } from '../audit';
import { presentCompanies, WEBHOOK_EVENT } from './present';
import { readCertificateUpload, storeCertificate } from './certificate';
import { triggerProcedures } from './procedures';
import { settingRoutes } from './settings';
import { checkTarget, companyData, loadCompany, ok, TOKEN_NOTE } from './shared';
import { deleteCompany, registerCompany, type NewCompany } from './registration';
import * as schemas from './schemas';

// Other rooms find the account's company here.
export { accountCompany, loadCompany } from './shared';

const WEBHOOK_NOTE =
  'Store this secret now: it is shown only once. It signs every notice (X-Firma, HMAC-SHA256 of the raw body).';

export function companiesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies' });
  const guard = [authenticate(deps), rateLimit(deps), requireScope(ACCOUNT_SCOPE)];
  router.get('/', ...guard, listHandler(deps));
  router.post('/', ...guard, idempotent(deps), createHandler(deps));
  router.get('/:ruc', ...guard, async (ctx) => {
    ok(ctx, 'Company found', await companyData(deps, await loadCompany(deps, ctx)));
  });
  router.delete('/:ruc', ...guard, deleteHandler(deps));
  router.post('/:ruc/token', ...guard, tokenHandler(deps));
  settingRoutes(router, deps, guard);
  router.patch('/:ruc/webhook', ...guard, webhookHandler(deps));
  router.post('/:ruc/certificate', ...guard, certificateHandler(deps));
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
    const updated = await storeCertificate(deps, company, certificate, requestActor(ctx));
    ok(
      ctx,
      'Certificate stored; the company now signs with its own certificate',
      await companyData(deps, updated),
      201,
    );
  };
}
