import type { Context } from 'koa';
import { isValidRuc } from '../../documents/input/parties';
import type { AppDeps } from '../deps';
import { ApiError, badRequest, forbidden, notFound } from '../errors';
import { authOf } from '../auth';
import {
  findCompany,
  rucHeldElsewhere,
  updateCompany,
  type CompanyChanges,
  type CompanyRow,
  type Destination,
  type Signing,
} from '../../db/companies';
import { recordChange, type Actor, type FieldChange } from '../../db/audit';
import { checkPublicHttpsUrl } from '../../core/net-guard';
import { presentCompanies } from './present';

// What every company route uses: the company the path names, the answer's envelope, the rules between settings.

export const TOKEN_NOTE =
  'Store this signing token now: it is shown only once. POST /v1/companies/{ruc}/token generates another.';

export function ok(ctx: Context, message: string, data?: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = data === undefined ? { success: true, message } : { success: true, message, data };
}

export async function companyData(deps: AppDeps, company: CompanyRow) {
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
export function checkSigningAndDestination(
  signing: Signing,
  destination: Destination,
  hasOseCredentials: boolean,
): void {
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

/** A refused target: the API's 422 naming the field, with the reason the panel puts in Spanish. */
export class TargetRefused extends ApiError {
  constructor(
    readonly reason: TargetRefusal,
    message: string,
    field: string,
  ) {
    super(422, `The URL ${message}`, { errors: { [field]: [message] } });
  }
}
export type TargetRefusal = Extract<Awaited<ReturnType<typeof checkPublicHttpsUrl>>, { ok: false }>['reason'];

/** A URL chasqui will call (webhook, OSE): public https only (422 naming the field otherwise). */
export async function checkTarget(deps: Pick<AppDeps, 'config'>, field: string, url: string): Promise<void> {
  const check = await checkPublicHttpsUrl(url, { allowPrivate: deps.config.webhookAllowPrivate });
  if (!check.ok) throw new TargetRefused(check.reason, check.message, field);
}

/**
 * Changes a company and records the change in the audit log, in one transaction: `audited` says what the log keeps of
 * it (secrets only as set, `secretChange`), from the row before and after.
 */
export function changeCompany(
  deps: Pick<AppDeps, 'db'>,
  company: CompanyRow,
  changes: CompanyChanges,
  actor: Actor,
  action: string,
  audited: (after: CompanyRow) => Record<string, FieldChange>,
): Promise<CompanyRow> {
  return deps.db.transaction(async (trx) => {
    const after = await updateCompany(trx, company.id, changes);
    await recordChange(trx, {
      accountId: company.account_id,
      companyId: company.id,
      companyRuc: company.ruc,
      actor,
      action,
      changes: audited(after),
    });
    return after;
  });
}
