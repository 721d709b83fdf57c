import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { documentWorkflow, documentWorkflowId, recheckSignal, resendSignal, sendSignal } from './document';
import { DocStatusKey, DocTypeKey, RucKey } from './search-attributes';

/**
 * Client-side helpers for the document workflow (used by the API and the sweeper; never imported by workflow code).
 * Starting is idempotent: a running workflow is reused, a completed one is not started again, and one that failed or was terminated by an operator can be started anew.
 */
export async function startDocumentWorkflow(
  client: Client,
  taskQueue: string,
  doc: { id: string; ruc: string; doc_type: string; status: string },
): Promise<void> {
  try {
    await client.workflow.start(documentWorkflow, {
      taskQueue,
      workflowId: documentWorkflowId(doc.id),
      args: [{ externalId: doc.id }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      typedSearchAttributes: [
        { key: RucKey, value: doc.ruc },
        { key: DocTypeKey, value: doc.doc_type },
        { key: DocStatusKey, value: doc.status },
      ],
      staticSummary: `${doc.doc_type} document ${doc.id}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

const SIGNALS = { send: sendSignal, resend: resendSignal, recheck: recheckSignal } as const;

/**
 * Delivers `send`, `resend` or `recheck` to a document's workflow. Signals are durable: they are recorded even when no
 * worker is up. A document whose workflow has finished (resolved) gets `false` back.
 */
export async function signalDocumentWorkflow(client: Client, externalId: string, signal: keyof typeof SIGNALS): Promise<boolean> {
  try {
    await client.workflow.getHandle(documentWorkflowId(externalId)).signal(SIGNALS[signal]);
    return true;
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') return false;
    throw err;
  }
}
