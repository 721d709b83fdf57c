import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ObjectSchema } from 'joi';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import {
  type CompanyChanges,
  type CompanyRow,
  type Destination,
  type Environment,
  type PlanType,
  type Signing,
} from '../../db/companies';
import { secretChange, type Actor, type FieldChange } from '../../db/audit';
import { requestActor } from '../audit';
import { changeCompany, checkSigningAndDestination, companyData, loadCompany, ok } from './shared';
import { CREDENTIALS, saveCredentials, type CredentialKind } from './credentials';
import { triggerProcedures } from './procedures';
import * as schemas from './schemas';

/** One PATCH setting: its body schema, the changes it makes (or a 422), the answer's message. */
interface Setting<T> {
  schema: ObjectSchema;
  change: (deps: AppDeps, company: CompanyRow, input: T) => CompanyChanges | Promise<CompanyChanges>;
  message: string;
  rerunsProcedures?: boolean;
}

const setting = <T>(
  schema: ObjectSchema,
  change: Setting<T>['change'],
  message: string,
  options: { rerunsProcedures?: boolean } = {},
): Setting<T> => ({ schema, change, message, ...options });

/** What the audit log records of a company's changes: old → new, a sealed secret only as set or kept. */
function auditedChanges(company: CompanyRow, changes: CompanyChanges): Record<string, FieldChange> {
  const audited: Record<string, FieldChange> = {};
  for (const [column, to] of Object.entries(changes)) {
    const from = company[column as keyof CompanyRow];
    if (column.endsWith('_updated_at')) continue;
    if (column.endsWith('_sealed')) audited[column.slice(0, -'_sealed'.length)] = secretChange(from, to);
    else if (from !== to) audited[column] = { from, to };
  }
  return audited;
}

/**
 * Changes one setting of the company (`name`: the PATCH path's last segment) from a body the setting's schema checks:
 * the change and its audit row in one transaction, then the portal procedures re-planned where the setting moves them.
 * The API's PATCH routes and the panel's settings page both call it.
 */
export async function changeSetting(
  deps: AppDeps,
  company: CompanyRow,
  name: SettingName,
  body: unknown,
  actor: Actor,
): Promise<CompanyRow> {
  const rule = SETTINGS[name] as Setting<unknown>;
  const changes = await rule.change(deps, company, schemas.validate(rule.schema, body));
  const updated = await changeCompany(deps, company, changes, actor, `company.${name}`, () =>
    auditedChanges(company, changes),
  );
  if (rule.rerunsProcedures) await triggerProcedures(deps, updated);
  return updated;
}

/** The PATCH /v1/companies/{ruc}/<setting> routes, each answering with the company as changed. */
export function settingRoutes(router: Router, deps: AppDeps, guard: Middleware[]): void {
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    router.patch(`/:ruc/${name}`, ...guard, async (ctx) => {
      const updated = await changeSetting(
        deps,
        await loadCompany(deps, ctx),
        name,
        ctx.request.body,
        requestActor(ctx),
      );
      ok(ctx, SETTINGS[name].message, await companyData(deps, updated));
    });
  }
  credentialRoutes(router, deps, guard);
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

/** How the company issues: plan, environment, sending, receipts, registers, response, destination, signing. */
const MODE_SETTINGS = {
  plan: setting<{ plan_type: PlanType }>(
    schemas.planSchema,
    (_d, _c, input) => ({ plan_type: input.plan_type }),
    'Plan updated',
  ),
  environment: setting<{ environment: Environment }>(
    schemas.environmentSchema,
    (_d, company, input) => {
      if (company.environment === '02' && input.environment === '01') {
        throw badRequest('A company in production cannot return to demo', {
          environment: ['cannot change from 02 (production) to 01 (demo)'],
        });
      }
      return { environment: input.environment };
    },
    'Environment updated',
  ),
  sending: setting<{ mode: CompanyRow['sending_mode'] }>(
    schemas.sendingSchema,
    (_d, _c, input) => ({ sending_mode: input.mode }),
    'Sending mode updated',
  ),
  receipts: setting<{ mode: CompanyRow['receipts_mode'] }>(
    schemas.receiptsSchema,
    (_d, _c, input) => ({ receipts_mode: input.mode }),
    'Receipts mode updated',
  ),
  registers: setting<{ igv_special_rate?: boolean; product_code_required?: boolean }>(
    schemas.registersSchema,
    (_d, _c, input) => ({
      ...(input.igv_special_rate === undefined ? {} : { register_igv_special_rate: input.igv_special_rate }),
      ...(input.product_code_required === undefined ? {} : { register_product_code: input.product_code_required }),
    }),
    'SUNAT registers updated',
  ),
  response: setting<{ mode: CompanyRow['response_mode'] }>(
    schemas.responseSchema,
    (_d, _c, input) => ({ response_mode: input.mode }),
    'Response mode updated',
  ),
  destination: setting<{ destination: Destination }>(
    schemas.destinationSchema,
    (_d, company, input) => {
      checkSigningAndDestination(company.signing, input.destination, company.ose_user !== null);
      return { destination: input.destination };
    },
    'Destination updated',
    { rerunsProcedures: true },
  ),
  signing: setting<{ signing: Signing }>(
    schemas.signingSchema,
    (_d, company, input) => {
      checkSigningAndDestination(input.signing, company.destination, company.ose_user !== null);
      return { signing: input.signing };
    },
    'Signing updated',
    { rerunsProcedures: true },
  ),
};

const SETTINGS = MODE_SETTINGS;
export type SettingName = keyof typeof SETTINGS;
