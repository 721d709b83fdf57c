import type { Db } from './knex';
import type { CompanyRow } from './companies';

/**
 * Procedures at the authority's portal (spec 1) and what the procedures workflow recorded about each of them.
 * `pse_authorization` (menu 11.9.6.1.1) is needed when the service signs with its own certificate as PSE;
 * `ose_link` (menu 11.14.1.1.1) when documents go through the provider's OSE.
 */
export const PROCEDURES = ['pse_authorization', 'ose_link'] as const;
export type ProcedureName = (typeof PROCEDURES)[number];
export type ProcedureState = 'pending' | 'running' | 'done' | 'failed' | 'not_applicable';

export interface ProcedureRow {
  company_id: string;
  procedure: ProcedureName;
  state: ProcedureState;
  attempts: number;
  last_error: string | null;
  updated_at: Date;
  done_at: Date | null;
  next_attempt_at: Date | null;
}

export function isApplicable(
  procedure: ProcedureName,
  company: Pick<CompanyRow, 'signing' | 'destination'>,
  hasOwnCertificate: boolean,
): boolean {
  if (procedure === 'pse_authorization') return company.signing === 'provider' && !hasOwnCertificate;
  return company.destination === 'provider_ose';
}

export function listProcedures(db: Db, companyIds: string[]): Promise<ProcedureRow[]> {
  return companyIds.length
    ? db<ProcedureRow>('company_procedures').whereIn('company_id', companyIds)
    : Promise.resolve([]);
}

export async function recordProcedure(
  db: Db,
  companyId: string,
  procedure: ProcedureName,
  changes: Partial<Pick<ProcedureRow, 'state' | 'attempts' | 'last_error' | 'done_at' | 'next_attempt_at'>> & {
    state: ProcedureState;
  },
): Promise<void> {
  const values = { ...changes, updated_at: db.fn.now() };
  await db('company_procedures')
    .insert({ company_id: companyId, procedure, ...values })
    .onConflict(['company_id', 'procedure'])
    .merge(values);
}
