import type { AppDeps } from '../deps';
import { badRequest, conflict } from '../errors';
import { COMPANY_SCOPE, issueToken, revokeCompanyTokens } from '../../db/tokens';
import {
  deleteCompanyWithoutProduction,
  findCompany,
  insertCompany,
  rucHeldElsewhere,
  type CompanyRow,
  type Destination,
  type Environment,
  type PlanType,
  type Signing,
} from '../../db/companies';
import { releaseCertificate } from '../../db/certificates';
import { recordChange, secretChange, type Actor } from '../../db/audit';
import { logger } from '../../core/logger';
import { triggerProcedures } from './procedures';
import { checkSigningAndDestination } from './shared';

/**
 * Registering and deleting a company: what `POST /v1/companies`, `DELETE /v1/companies/{ruc}` and the panel's pages
 * (api/console/companies.ts) all call, each change written with its audit row in one transaction.
 */

/** A creation's fields as `createCompanySchema` leaves them. */
export interface NewCompany {
  ruc: string;
  business_name: string;
  plan_type: PlanType;
  environment: Environment;
  destination?: Destination;
  signing?: Signing;
  confirm?: boolean;
  sol_user?: string;
  sol_password?: string;
}

/** `exists`: the account had the RUC already, nothing changed; `created`: with its one-time signing token. */
export type Registration =
  | { kind: 'exists'; company: CompanyRow }
  | { kind: 'created'; company: CompanyRow; token: string; proceduresStarted: boolean };

/** 409 unless `confirm`: the RUC is registered in another account (spec 5). */
const heldElsewhere = (ruc: string) =>
  conflict(`RUC ${ruc} is registered in another account; send confirm: true to register it in this account as well`);

/** Registers a company in the account with its first signing token, or answers the one the account has. */
export async function registerCompany(
  deps: AppDeps,
  accountId: string,
  input: NewCompany,
  actor: Actor,
): Promise<Registration> {
  checkSigningAndDestination(input.signing ?? 'provider', input.destination ?? 'tax_authority', false);
  const existing = await findCompany(deps.db, accountId, input.ruc);
  if (existing) return { kind: 'exists', company: existing };
  if (!input.confirm && (await rucHeldElsewhere(deps.db, accountId, input.ruc))) throw heldElsewhere(input.ruc);
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
    if (!created) return { company, token: null };
    await recordChange(trx, {
      accountId,
      companyId: company.id,
      companyRuc: company.ruc,
      actor,
      action: 'company.create',
      changes: {
        business_name: { to: company.business_name },
        plan_type: { to: company.plan_type },
        environment: { to: company.environment },
        destination: { to: company.destination },
        signing: { to: company.signing },
        ...(input.sol_user
          ? { sol_user: { to: input.sol_user }, sol_password: secretChange(null, input.sol_password) }
          : {}),
      },
    });
    return { company, token: await issueToken(trx, { scope: COMPANY_SCOPE, accountId, companyId: company.id }) };
  });
  // A concurrent creation of the same RUC in this account won the insert.
  if (!created.token) return { kind: 'exists', company: created.company };
  try {
    await triggerProcedures(deps, created.company);
    return { kind: 'created', company: created.company, token: created.token, proceduresStarted: true };
  } catch (err) {
    // The company and its one-time token exist already: answer them rather than lose the token to a 500.
    logger.error(
      { err, requestId: actor.requestId, companyId: created.company.id },
      'could not start the portal procedures',
    );
    return { kind: 'created', company: created.company, token: created.token, proceduresStarted: false };
  }
}

/** 422: a company that issued or sent in production stays (its documents are the tax record). */
const hasProductionDocuments = (ruc: string) =>
  badRequest(`Company ${ruc} has documents issued or sent in production and cannot be deleted`);

/** Deletes a company that never issued in production: its signing tokens revoked, an own certificate deleted. */
export async function deleteCompany(deps: AppDeps, company: CompanyRow, actor: Actor): Promise<{ revoked: number }> {
  if (company.production_documents > 0) throw hasProductionDocuments(company.ruc);
  return deps.db.transaction(async (trx) => {
    const revoked = await revokeCompanyTokens(trx, company.id);
    // Re-checked in the delete itself: a production document may have been issued since the read above.
    if (!(await deleteCompanyWithoutProduction(trx, company.id))) throw hasProductionDocuments(company.ruc);
    if (company.certificate_id) await releaseCertificate(trx, company.certificate_id);
    await recordChange(trx, {
      accountId: company.account_id,
      companyId: company.id,
      companyRuc: company.ruc,
      actor,
      action: 'company.delete',
      changes: {
        business_name: { from: company.business_name },
        signing_tokens: { from: revoked, to: 0 },
        ...(company.certificate_id ? { certificate: { from: company.certificate_id, to: null } } : {}),
      },
    });
    return { revoked };
  });
}
