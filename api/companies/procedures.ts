import type { AppDeps } from '../deps';
import type { CompanyRow } from '../../db/companies';
import {
  companyProceduresWorkflow,
  companyProceduresWorkflowId,
  rerunProceduresSignal,
} from '../../workflows/company-procedures';

/**
 * Starts the company's procedures workflow, or tells the running one to re-plan (signal-with-start), when the SOL
 * credentials are loaded. The workflow gets the company id; the secrets stay in PostgreSQL.
 */
export async function triggerProcedures(deps: AppDeps, company: CompanyRow): Promise<boolean> {
  if (!company.sol_user || !company.sol_password_sealed) return false;
  await deps.temporal.workflow.signalWithStart(companyProceduresWorkflow, {
    workflowId: companyProceduresWorkflowId(company.ruc, company.id),
    taskQueue: deps.config.temporal.taskQueue,
    args: [
      {
        companyId: company.id,
        ruc: company.ruc,
        retry: {
          initialSeconds: deps.config.procedures.retryInitialSeconds,
          maxSeconds: deps.config.procedures.retryMaxSeconds,
        },
      },
    ],
    signal: rerunProceduresSignal,
    signalArgs: [],
  });
  return true;
}
