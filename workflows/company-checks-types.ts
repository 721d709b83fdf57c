/**
 * The company checks workflow's contract with its starters: its type and run ids by name, its input. Its clients start
 * it with these and import the workflow itself as a type only, so nothing outside the worker loads workflow code.
 */

/** The workflow's type, by which its clients start it. */
export const COMPANY_CHECKS_WORKFLOW = 'companyChecksWorkflow';

/** A run for some companies now (POST /v1/companies/{ruc}/checks, `chasqui support checks --run`). */
export const companyChecksRunId = (key: string) => `company-checks-${key}`;

export interface CompanyChecksInput {
  /** Only these companies (ids); every active company when absent. */
  companyIds?: string[];
  /** Companies checked at the same time (CHASQUI_CHECKS_CONCURRENCY, passed by the starter: workflows read no config). */
  concurrency?: number;
  /** Carried over continue-as-new: the companies still to check, and how many were. */
  remaining?: string[];
  checked?: number;
}
