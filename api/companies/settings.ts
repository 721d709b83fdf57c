import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ObjectSchema } from 'joi';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import {
  updateCompany,
  type CompanyChanges,
  type CompanyRow,
  type Destination,
  type Environment,
  type PlanType,
  type Signing,
} from '../../db/companies';
import { checkSigningAndDestination, checkTarget, companyData, loadCompany, ok } from './shared';
import { triggerProcedures } from './procedures';
import * as schemas from './schemas';

/** Declares one PATCH setting: its path, body schema, the changes it makes (or a 422), the answer's message. */
type Setting = <T>(
  path: string,
  schema: ObjectSchema,
  change: (company: CompanyRow, input: T) => CompanyChanges | Promise<CompanyChanges>,
  message: string,
  options?: { rerunsProcedures?: boolean },
) => void;

/** The PATCH /v1/companies/{ruc}/<setting> routes, each answering with the company as changed. */
export function settingRoutes(router: Router, deps: AppDeps, guard: Middleware[]): void {
  const setting: Setting = (path, schema, change, message, options = {}) => {
    router.patch(`/:ruc/${path}`, ...guard, async (ctx) => {
      const company = await loadCompany(deps, ctx);
      const input = schemas.validate<Parameters<typeof change>[1]>(schema, ctx.request.body);
      const updated = await updateCompany(deps.db, company.id, await change(company, input));
      if (options.rerunsProcedures) await triggerProcedures(deps, updated);
      ok(ctx, message, await companyData(deps, updated));
    });
  };
  modeSettings(setting);
  credentialSettings(setting, deps);
}

/** How the company issues: plan, environment, sending, receipts, registers, response, destination, signing. */
function modeSettings(setting: Setting): void {
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
}

/** The credentials chasqui uses on the company's behalf (sealed before they are stored). */
function credentialSettings(setting: Setting, deps: AppDeps): void {
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
      await checkTarget(deps, 'url', input.url);
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
}
