/**
 * The company procedures workflow's contract with its starters: its type, id and signal by name, its input and
 * outcome. Its client starts it with these and imports the workflow itself as a type only.
 */

/** The workflow's type and its re-plan signal, by which its client starts and signals it. */
export const COMPANY_PROCEDURES_WORKFLOW = 'companyProceduresWorkflow';
export const RERUN_PROCEDURES_SIGNAL = 'rerunProcedures';

export function companyProceduresWorkflowId(ruc: string, companyId: string): string {
  return `company-procedures-${ruc}-${companyId}`;
}

export interface CompanyProceduresInput {
  companyId: string;
  ruc: string;
  retry: { initialSeconds: number; maxSeconds: number };
  /** Failed rounds so far (carried across continue-as-new). */
  failedRounds?: number;
}

export type CompanyProceduresOutcome = 'done' | 'failed' | 'gone' | 'no_credentials';
