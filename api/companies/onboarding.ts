import type { AppDeps } from '../deps';
import type { CompanyRow } from '../../db/companies';
import { listCheckRows, type CheckId, type CheckRow } from '../../db/company-checks';
import { findCompanyEmailSettings, type CompanyEmailSettings } from '../../db/company-email';
import { companiesThatIssued, signedSince } from '../../db/company-usage';
import { DESPATCH_TYPES } from '../../documents/printed';
import { limaDate } from '../../core/lima';
import { accountBalance } from '../../db/accounts';
import { findCertificate } from '../../db/certificates';
import { presentCompanies, type CompanyRecord, type TaxProcedure } from './present';

/**
 * A company's onboarding checklist (issue 42, docs/panel.md): what is still missing before its first accepted document
 * and before production, from the facts the company checks and `GET /v1/companies/{ruc}` read.
 */

/** `first`: its first accepted document waits for it; `production`: needed before production; `recommended`: neither. */
export type ChecklistLevel = 'first' | 'production' | 'recommended';
/** `waiting`: started, the authority's portal has not finished; `failing`: done, but its check or procedure failed. */
export type ChecklistState = 'done' | 'missing' | 'waiting' | 'failing';
export type ChecklistItemId =
  | 'certificate'
  | 'sol_credentials'
  | 'sol_secondary'
  | 'pse_authorization'
  | 'ose'
  | 'gre_credentials'
  | 'quota'
  | 'webhook'
  | 'email';

export interface ChecklistItem {
  id: ChecklistItemId;
  level: ChecklistLevel;
  state: ChecklistState;
}

/** What the checklist is computed from. */
export interface OnboardingFacts {
  record: CompanyRecord;
  checks: Pick<CheckRow, 'check' | 'status'>[];
  email: Pick<CompanyEmailSettings, 'from_address' | 'smtp_url_sealed'> | null;
  /** The company issued a guide (GRE credentials then apply). */
  issuesGuides: boolean;
  /** The account's plan 01 signatures left (a decimal, as stored). */
  quotaLeft: string;
}

/** A procedure's state as an item's: `failed` fails, anything short of `done` waits (or is missing without SOL). */
function procedureState(procedure: TaxProcedure, hasSol: boolean): ChecklistState {
  if (procedure.state === 'done') return 'done';
  if (procedure.state === 'failed') return 'failing';
  return hasSol ? 'waiting' : 'missing';
}

/** The checklist, in the order a newcomer does it; items that do not apply to the company are left out. */
export function onboardingChecklist(facts: OnboardingFacts): ChecklistItem[] {
  const { record } = facts;
  const failing = (check: CheckId) => facts.checks.some((k) => k.check === check && k.status === 'fail');
  const state = (done: boolean, check?: CheckId): ChecklistState =>
    !done ? 'missing' : check && failing(check) ? 'failing' : 'done';
  const items: ChecklistItem[] = [];
  const add = (id: ChecklistItemId, level: ChecklistLevel, itemState: ChecklistState) =>
    items.push({ id, level, state: itemState });
  const hasSol = record.sol_credentials !== null;
  const procedures = record.tax_procedures;
  const own = record.certificate?.origin === 'own';

  // Plan 02 cannot issue without its certificate (402); plan 01 signs with the provider's unless it has its own.
  if (record.signing !== 'external')
    add(
      'certificate',
      record.plan_type === '02' ? 'first' : 'recommended',
      state(record.certificate !== null || record.plan_type === '01', 'certificate'),
    );
  // SOL sends to SUNAT in production and runs every portal procedure.
  const solNeeded =
    record.destination === 'tax_authority' || Object.values(procedures).some((p) => p.state !== 'not_applicable');
  if (solNeeded) add('sol_credentials', 'production', state(hasSol, 'sol_credentials'));
  // With its own certificate the company sends with a secondary SOL user (spec 1).
  if (own && record.destination === 'tax_authority')
    add('sol_secondary', 'production', state(Boolean(record.sol_credentials?.secondary_user)));
  if (procedures.pse_authorization.state !== 'not_applicable')
    add('pse_authorization', 'production', procedureState(procedures.pse_authorization, hasSol));
  if (record.destination === 'own_ose') add('ose', 'first', state(record.ose_credentials !== null));
  if (record.destination === 'provider_ose') add('ose', 'production', procedureState(procedures.ose_link, hasSol));
  if (facts.issuesGuides || record.gre_credentials)
    add('gre_credentials', 'production', state(record.gre_credentials !== null, 'gre_credentials'));
  if (record.plan_type === '01' && record.signing !== 'external')
    add('quota', 'production', Number(facts.quotaLeft) > 0 ? 'done' : 'missing');
  add('webhook', 'recommended', state(record.webhook !== null));
  add('email', 'recommended', state(Boolean(facts.email?.from_address || facts.email?.smtp_url_sealed)));
  return items;
}

/** Whether nothing of these levels is left: `first` for the first accepted document, both for production. */
export const readyFor = (items: ChecklistItem[], levels: ChecklistLevel[]) =>
  items.every((i) => !levels.includes(i.level) || i.state === 'done');

/** The first instant of the current month in Lima (UTC−5 all year). */
export function limaMonthStart(now = new Date()): Date {
  return new Date(`${limaDate(now).slice(0, 7)}-01T00:00:00-05:00`);
}

/** The company's checklist facts and this month's usage, read once for the overview. */
export async function companyOverview(deps: AppDeps, company: CompanyRow) {
  const [[record], checks, email, guides, account, month, certificate] = await Promise.all([
    presentCompanies(deps.db, [company]),
    listCheckRows(deps.db, [company.id]),
    findCompanyEmailSettings(deps.db, company.id),
    companiesThatIssued(deps.db, [company.id], [...DESPATCH_TYPES]),
    accountBalance(deps.db, company.account_id),
    signedSince(deps.db, company.id, limaMonthStart()),
    company.certificate_id ? findCertificate(deps.db, company.certificate_id) : undefined,
  ]);
  const quotaLeft = account.quota.left;
  return {
    record,
    checks,
    checklist: onboardingChecklist({ record, checks, email, issuesGuides: guides.has(company.id), quotaLeft }),
    usage: { month, quotaLeft, certificateFirstUsedAt: certificate?.first_used_at ?? null },
  };
}

/**
 * Each company's items needed before its first document or production (the list's glance; e-mail is only advised),
 * from the check rows the list already read.
 */
export async function companiesPending(deps: AppDeps, accountId: string, companies: CompanyRow[], checks: CheckRow[]) {
  const ids = companies.map((c) => c.id);
  const [records, guides, account] = await Promise.all([
    presentCompanies(deps.db, companies),
    companiesThatIssued(deps.db, ids, [...DESPATCH_TYPES]),
    accountBalance(deps.db, accountId),
  ]);
  return new Map(
    companies.map((company, i) => [
      company.id,
      onboardingChecklist({
        record: records[i],
        checks: checks.filter((k) => k.company_id === company.id),
        email: null,
        issuesGuides: guides.has(company.id),
        quotaLeft: account.quota.left,
      }).filter((item) => item.level !== 'recommended' && item.state !== 'done'),
    ]),
  );
}
