import { isValidRuc } from '../../documents/input/parties';
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { ObjectSchema } from 'joi';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { authenticate, authOf, requireScope } from '../auth';
import { rateLimit } from '../middleware/rate-limit';
import { idempotent } from '../middleware/idempotency';
import { ACCOUNT_SCOPE, COMPANY_SCOPE, issueToken, revokeCompanyTokens } from '../../db/tokens';
import {
  deleteCompanyWithoutProduction,
  findCompany,
  insertCompany,
  listCompanies,
  rucHeldElsewhere,
  updateCompany,
  type CompanyChanges,
  type CompanyRow,
  type Destination,
  type Environment,
  type PlanType,
  type Signing,
} from '../../db/companies';
import { assignCertificate, certificateValues, releaseCertificate } from '../../db/certificates';
import { checkPublicHttpsUrl } from '../../core/net-guard';
import { logger } from '../../core/logger';
import { presentCompanies, WEBHOOK_EVENT } from './present';
import { readCertificateUpload } from './certificate';
import { triggerProcedures } from './procedures';
import * as schemas from './schemas';

const TOKEN_NOTE =
  'Store this signing token now: it is shown only once. POST /v1/companies/{ruc}/token generates another.';
const WEBHOOK_NOTE =
  'Store this secret now: it is shown only once. It signs every notice (X-Firma, HMAC-SHA256 of the raw body).';

function ok(ctx: Context, message: string, data?: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = data === undefined ? { success: true, message } : { success: true, message, data };
}

async function companyData(deps: AppDeps, company: CompanyRow) {
  const [record] = await presentCompanies(deps.db, [company]);
  return { company: record };
}

/** The account's company named in the path: 404 when no account has it, 403 when another account does (spec 5). */
export async function loadCompany(deps: AppDeps, ctx: Context): Promise<CompanyRow> {
  return accountCompany(deps, authOf(ctx).accountId, String(ctx.params.ruc), 'Invalid RUC in the path');
}

/** The account's company with this RUC (path or query): 422 not a RUC, 404 no account has it, 403 another account does. */
export async function accountCompany(
  deps: AppDeps,
  accountId: string,
  ruc: string,
  invalid = 'Invalid RUC',
): Promise<CompanyRow> {
  if (!isValidRuc(ruc)) throw badRequest(invalid, { ruc: ['must be 11 digits with a valid SUNAT check digit'] });
  const company = await findCompany(deps.db, accountId, ruc);
  if (company) return company;
  if (await rucHeldElsewhere(deps.db, accountId, ruc)) throw forbidden(`Company ${ruc} belongs to another account`);
  throw notFound(`Company ${ruc} does not exist`);
}

/** `signing: external` needs `destination: provider_ose` (spec 1); `own_ose` needs the company's OSE credentials. */
function checkSigningAndDestination(signing: Signing, destination: Destination, hasOseCredentials: boolean): void {
  if (signing === 'external' && destination !== 'provider_ose') {
    throw badRequest('Externally signed documents can only go through the provider OSE', {
      signing: ['external requires destination provider_ose'],
    });
  }
  if (destination === 'own_ose' && !hasOseCredentials) {
    throw badRequest(
      'Sending through an own OSE needs its credentials first: PATCH /v1/companies/{ruc}/ose-credentials',
      {
        destination: ['own_ose requires the company OSE credentials'],
      },
    );
  }
}

export function companiesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies' });
  const guard = [authenticate(deps), rateLimit(deps), requireScope(ACCOUNT_SCOPE)];

  router.get('/', ...guard, async (ctx) => {
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
  });

  router.post('/', ...guard, idempotent(deps), async (ctx) => {
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
  });

  router.get('/:ruc', ...guard, async (ctx) => {
    ok(ctx, 'Company found', await companyData(deps, await loadCompany(deps, ctx)));
  });

  router.delete('/:ruc', ...guard, async (ctx) => {
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
  });

  router.post('/:ruc/token', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const token = await issueToken(deps.db, {
      scope: COMPANY_SCOPE,
      accountId: company.account_id,
      companyId: company.id,
    });
    ok(ctx, 'Signing token generated', { token, token_note: TOKEN_NOTE }, 201);
  });

  /** A PATCH that validates its body, computes the changes (or throws a 422) and answers with the company. */
  function setting<T>(
    path: string,
    schema: ObjectSchema,
    change: (company: CompanyRow, input: T) => CompanyChanges | Promise<CompanyChanges>,
    message: string,
    options: { rerunsProcedures?: boolean } = {},
  ): void {
    router.patch(`/:ruc/${path}`, ...guard, async (ctx) => {
      const company = await loadCompany(deps, ctx);
      const input = schemas.validate<T>(schema, ctx.request.body);
      const updated = await updateCompany(deps.db, company.id, await change(company, input));
      if (options.rerunsProcedures) await triggerProcedures(deps, updated);
      ok(ctx, message, await companyData(deps, updated));
    });
  }

  setting<{ plan_type: PlanType }>(
    'plan',
    schemas.planSchema,
    (_c, input) => ({ plan_type: input.plan_type }),
    'Plan updated',
  );
  setting<{ environment: Environment }>(
    'environment',
    schemas.environmentSchema,
    (company, input) => {
      if (company.environment === '02' && input.environment === '01') {
        throw badRequest('A company in production cannot return to demo', {
          environment: ['cannot change from 02 (production) to 01 (demo)'],
        });
      }
      return { environment: input.environment };
    },
    'Environment updated',
  );
  setting<{ mode: CompanyRow['sending_mode'] }>(
    'sending',
    schemas.sendingSchema,
    (_c, input) => ({ sending_mode: input.mode }),
    'Sending mode updated',
  );
  setting<{ mode: CompanyRow['receipts_mode'] }>(
    'receipts',
    schemas.receiptsSchema,
    (_c, input) => ({ receipts_mode: input.mode }),
    'Receipts mode updated',
  );
  setting<{ igv_special_rate?: boolean; product_code_required?: boolean }>(
    'registers',
    schemas.registersSchema,
    (_c, input) => ({
      ...(input.igv_special_rate === undefined ? {} : { register_igv_special_rate: input.igv_special_rate }),
      ...(input.product_code_required === undefined ? {} : { register_product_code: input.product_code_required }),
    }),
    'SUNAT registers updated',
  );
  setting<{ mode: CompanyRow['response_mode'] }>(
    'response',
    schemas.responseSchema,
    (_c, input) => ({ response_mode: input.mode }),
    'Response mode updated',
  );
  setting<{ destination: Destination }>(
    'destination',
    schemas.destinationSchema,
    (company, input) => {
      checkSigningAndDestination(company.signing, input.destination, company.ose_user !== null);
      return { destination: input.destination };
    },
    'Destination updated',
    { rerunsProcedures: true },
  );
  setting<{ signing: Signing }>(
    'signing',
    schemas.signingSchema,
    (company, input) => {
      checkSigningAndDestination(input.signing, company.destination, company.ose_user !== null);
      return { signing: input.signing };
    },
    'Signing updated',
    { rerunsProcedures: true },
  );
  setting<{ sol_user: string; sol_password: string; secondary_user?: string; secondary_password?: string }>(
    'sol-credentials',
    schemas.solCredentialsSchema,
    (_c, input) => ({
      sol_user: input.sol_user,
      sol_password_sealed: deps.secrets.seal(input.sol_password),
      sol_updated_at: new Date(),
      // The secondary user is replaced only when sent: loading the principal one again keeps it.
      ...(input.secondary_user
        ? {
            sol_secondary_user: input.secondary_user,
            sol_secondary_password_sealed: deps.secrets.seal(input.secondary_password!),
          }
        : {}),
    }),
    'SOL credentials stored; the applicable portal procedures were started',
    { rerunsProcedures: true },
  );
  setting<{ url: string; user: string; password: string }>(
    'ose-credentials',
    schemas.oseCredentialsSchema,
    async (_c, input) => {
      await checkTarget('url', input.url);
      return {
        ose_url: input.url,
        ose_user: input.user,
        ose_password_sealed: deps.secrets.seal(input.password),
        ose_updated_at: new Date(),
      };
    },
    'OSE credentials stored',
  );
  setting<{ client_id: string; client_secret: string }>(
    'gre-credentials',
    schemas.greCredentialsSchema,
    (_c, input) => ({
      gre_client_id: input.client_id,
      gre_client_secret_sealed: deps.secrets.seal(input.client_secret),
      gre_updated_at: new Date(),
    }),
    'GRE credentials stored',
  );

  async function checkTarget(field: string, url: string): Promise<void> {
    const check = await checkPublicHttpsUrl(url, { allowPrivate: deps.config.webhookAllowPrivate });
    if (!check.ok) throw badRequest(`The URL ${check.message}`, { [field]: [check.message] });
  }

  router.patch('/:ruc/webhook', ...guard, async (ctx) => {
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
    await checkTarget('url', input.url);
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
  });

  router.post('/:ruc/certificate', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const certificate = await readCertificateUpload(ctx, {
      maxBytes: deps.config.certificateMaxBytes,
      ruc: company.ruc,
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
  });

  return router;
}
