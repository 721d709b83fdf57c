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
import { checkSigningAndDestination, companyData, loadCompany, ok } from './shared';
import { CREDENTIALS, saveCredentials, type CredentialKind } from './credentials';
import { requestActor } from '../audit';
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
  credentialRoutes(router, deps, guard);
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

/** PATCH sol-credentials, ose-credentials, gre-credentials: through saveCredentials, audited as the token's. */
function credentialRoutes(router: Router, deps: AppDeps, guard: Middleware[]): void {
  for (const kind of Object.keys(CREDENTIALS) as CredentialKind[]) {
    router.patch(`/:ruc/${kind}-credentials`, ...guard, async (ctx) => {
      const company = await loadCompany(deps, ctx);
      const updated = await saveCredentials(deps, company, kind, ctx.request.body, requestActor(ctx));
      ok(ctx, CREDENTIALS[kind].message, await companyData(deps, updated));
    });
  }
}
