import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import type { companyChecksWorkflow } from './company-checks';
import { COMPANY_CHECKS_WORKFLOW, companyChecksRunId } from './company-checks-types';

/**
 * A run of the company checks now, for one company (the API) or every company (`chasqui support checks --run`). A run
 * for the same companies already going is joined, not doubled (never imported by workflow code).
 */
export async function startCompanyChecks(
  client: Client,
  taskQueue: string,
  company: { id: string; ruc: string } | null,
  concurrency: number,
  priority?: Priority,
): Promise<WorkflowHandle<typeof companyChecksWorkflow>> {
  return client.workflow.start<typeof companyChecksWorkflow>(COMPANY_CHECKS_WORKFLOW, {
    taskQueue,
    priority,
    workflowId: companyChecksRunId(company ? `${company.ruc}-${company.id}` : 'all'),
    args: [company ? { companyIds: [company.id], concurrency: 1 } : { concurrency }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: company ? `company checks of ${company.ruc}` : 'company checks of every company',
  });
}
