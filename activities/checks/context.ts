import type { ActivityDeps } from '../deps';
import { GreConnector, PgGreTokenStore } from '../../authority';
import { createCompanyKeys } from '../../keys/signing-keys';
import type { CompanyRow } from '../../db/companies';
import type { CertificateRow } from '../../db/certificates';
import type { CheckId, CheckResult, CheckRow, CheckStatus } from '../../db/company-checks';
import { english, isMessage, type Message } from '../../lifecycle/messages';

export const DAY_MS = 86_400_000;

/** What every check may use: the worker's dependencies and the connectors built once for every run. */
export interface CheckContext extends ActivityDeps {
  keys: ReturnType<typeof createCompanyKeys>;
  gre: GreConnector;
  callOptions: { timeouts: ActivityDeps['config']['authorityTimeouts'] };
}

export function createCheckContext(deps: ActivityDeps): CheckContext {
  return {
    ...deps,
    keys: createCompanyKeys(deps),
    gre: new GreConnector(new PgGreTokenStore(deps.db, deps.secrets)),
    callOptions: { timeouts: deps.config.authorityTimeouts },
  };
}

/** One company as a run checks it. */
export interface CheckedCompany {
  company: CompanyRow;
  /** The company's assigned certificate, if any. */
  held: CertificateRow | undefined;
  /** Spec 1: a company signing with its own certificate sends with its secondary SOL user. */
  own: boolean;
  /** The answers of the last run, by check. */
  previous: Map<CheckId, CheckRow>;
  now: Date;
  /** `now` as a Lima date. */
  today: string;
}

/** One check (or a pair that applies together): its results, none where it does not apply. */
export type Check = (ctx: CheckContext, subject: CheckedCompany) => Promise<CheckResult[]>;

export const result = (
  id: CheckId,
  status: CheckStatus,
  said: Message,
  fields: Record<string, unknown> = {},
  at = new Date(),
): CheckResult => ({
  id,
  status,
  detail: english(said),
  message: said,
  fields,
  checked_at: at,
});

/** The previous answer of a check that was not asked again in this run, unchanged (its checked_at says when). */
export const carried = (row: CheckRow): CheckResult => ({
  id: row.check,
  status: row.status,
  detail: row.detail,
  message: isMessage(row.message) ? row.message : null,
  fields: row.fields,
  checked_at: row.checked_at,
});
