import type { ObjectSchema } from 'joi';
import type { AppDeps } from '../deps';
import type { CompanyChanges, CompanyRow } from '../../db/companies';
import { secretChange, type Actor, type FieldChange } from '../../db/audit';
import { changeCompany, checkTarget } from './shared';
import { triggerProcedures } from './procedures';
import * as schemas from './schemas';

/**
 * The credentials chasqui uses on the company's behalf (SOL, OSE, GRE), sealed before they are stored: one function
 * that the API's PATCHes and the panel's credentials page both call, writing the change and its audit row (secrets as
 * "set", never their value) in one transaction.
 */
export type CredentialKind = 'sol' | 'ose' | 'gre';

interface Credential {
  schema: ObjectSchema;
  /** The audit log's action. */
  action: string;
  /** The API's answer. */
  message: string;
  rerunsProcedures: boolean;
  changes(deps: AppDeps, input: Record<string, string>): Promise<CompanyChanges>;
  /** What the audit log records: plain fields as they were and are, secrets as set or not. */
  audit(before: CompanyRow, after: CompanyRow): Record<string, FieldChange>;
}

const plain = (before: unknown, after: unknown): FieldChange => ({ from: before ?? null, to: after ?? null });

export const CREDENTIALS: Readonly<Record<CredentialKind, Credential>> = {
  sol: {
    schema: schemas.solCredentialsSchema,
    action: 'company.sol_credentials',
    message: 'SOL credentials stored; the applicable portal procedures were started',
    rerunsProcedures: true,
    changes: async (deps, input) => ({
      sol_user: input.sol_user,
      sol_password_sealed: deps.secrets.seal(input.sol_password),
      sol_updated_at: new Date(),
      // The secondary user is replaced only when sent: loading the principal one again keeps it.
      ...(input.secondary_user
        ? {
            sol_secondary_user: input.secondary_user,
            sol_secondary_password_sealed: deps.secrets.seal(input.secondary_password),
          }
        : {}),
    }),
    audit: (before, after) => ({
      sol_user: plain(before.sol_user, after.sol_user),
      sol_password: secretChange(before.sol_password_sealed, after.sol_password_sealed),
      ...(before.sol_secondary_password_sealed === after.sol_secondary_password_sealed
        ? {}
        : {
            secondary_user: plain(before.sol_secondary_user, after.sol_secondary_user),
            secondary_password: secretChange(before.sol_secondary_password_sealed, after.sol_secondary_password_sealed),
          }),
    }),
  },
  ose: {
    schema: schemas.oseCredentialsSchema,
    action: 'company.ose_credentials',
    message: 'OSE credentials stored',
    rerunsProcedures: false,
    changes: async (deps, input) => {
      await checkTarget(deps, 'url', input.url);
      return {
        ose_url: input.url,
        ose_user: input.user,
        ose_password_sealed: deps.secrets.seal(input.password),
        ose_updated_at: new Date(),
      };
    },
    audit: (before, after) => ({
      url: plain(before.ose_url, after.ose_url),
      user: plain(before.ose_user, after.ose_user),
      password: secretChange(before.ose_password_sealed, after.ose_password_sealed),
    }),
  },
  gre: {
    schema: schemas.greCredentialsSchema,
    action: 'company.gre_credentials',
    message: 'GRE credentials stored',
    rerunsProcedures: false,
    changes: async (deps, input) => ({
      gre_client_id: input.client_id,
      gre_client_secret_sealed: deps.secrets.seal(input.client_secret),
      gre_updated_at: new Date(),
    }),
    audit: (before, after) => ({
      client_id: plain(before.gre_client_id, after.gre_client_id),
      client_secret: secretChange(before.gre_client_secret_sealed, after.gre_client_secret_sealed),
    }),
  },
};

/**
 * Validates `body` (422 naming the fields), stores the credentials with their audit row, and, for SOL, starts or
 * re-plans the portal procedures. Answers the company as changed.
 */
export async function saveCredentials(
  deps: AppDeps,
  company: CompanyRow,
  kind: CredentialKind,
  body: unknown,
  actor: Actor,
): Promise<CompanyRow> {
  const credential = CREDENTIALS[kind];
  const input = schemas.validate<Record<string, string>>(credential.schema, body);
  const changes = await credential.changes(deps, input);
  const updated = await changeCompany(deps, company, changes, actor, credential.action, (after) =>
    credential.audit(company, after),
  );
  if (credential.rerunsProcedures) await triggerProcedures(deps, updated);
  return updated;
}
