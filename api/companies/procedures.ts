import type { AppDeps } from '../deps';
import type { CompanyRow } from '../../db/companies';
import { startOrRerunProcedures } from '../../workflows/company-procedures-client';
import { taskPriority } from '../../workflows/priority-types';

/**
 * Starts the company's procedures workflow, or tells the running one to re-plan (signal-with-start), when the SOL
 * credentials are loaded. The workflow gets the company id; the secrets stay in PostgreSQL.
 */
export async function triggerProcedures(deps: AppDeps, company: CompanyRow): Promise<boolean> {
  if (!company.sol_user || !company.sol_password_sealed) return false;
  await startOrRerunProcedures(
    deps.temporal,
    deps.config.temporal.taskQueue,
    {
      companyId: company.id,
      ruc: company.ruc,
      retry: {
        initialSeconds: deps.config.procedures.retryInitialSeconds,
        maxSeconds: deps.config.procedures.retryMaxSeconds,
      },
    },
    taskPriority(deps.config.temporal, 'batch', company.account_id),
  );
  return true;
}
