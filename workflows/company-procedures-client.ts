import type { Client } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import type { companyProceduresWorkflow } from './company-procedures';
import {
  COMPANY_PROCEDURES_WORKFLOW,
  companyProceduresWorkflowId,
  RERUN_PROCEDURES_SIGNAL,
  type CompanyProceduresInput,
} from './company-procedures-types';

/**
 * Starts a company's procedures workflow, or tells the running one to re-plan (signal-with-start). Never imported by
 * workflow code.
 */
export async function startOrRerunProcedures(
  client: Client,
  taskQueue: string,
  input: CompanyProceduresInput,
  priority?: Priority,
): Promise<void> {
  await client.workflow.signalWithStart<typeof companyProceduresWorkflow, []>(COMPANY_PROCEDURES_WORKFLOW, {
    workflowId: companyProceduresWorkflowId(input.ruc, input.companyId),
    taskQueue,
    priority,
    args: [input],
    signal: RERUN_PROCEDURES_SIGNAL,
    signalArgs: [],
  });
}
