import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import type { documentWorkflow } from './document';
import { DOCUMENT_SIGNALS, DOCUMENT_WORKFLOW, documentWorkflowId, type StartableDocument } from './document-types';

/** The document workflow's id, for links and for starters that are not the workflow itself. */
export { documentWorkflowId };
import { laneTaskQueue } from './priority-types';
import { DocNumberKey, DocStatusKey, DocTypeKey, IssueDateKey, RucKey } from './search-attributes';

/** Only the fields a start uses (a queued start must not hold a row's XML). */
export function startable(doc: StartableDocument): StartableDocument {
  const { id, ruc, doc_type, status, series, number, filename, issue_date, account_id, company_name } = doc;
  return { id, ruc, doc_type, status, series, number, filename, issue_date, account_id, company_name };
}

/**
 * Client-side helpers for the document workflow (used by the API and the sweeper; never imported by workflow code).
 * Starting is idempotent: a running workflow is reused, a completed one is not started again, and one that failed or was terminated by an operator can be started anew.
 * The search attributes operators filter on and the UI's summary (`20123456786-01-F001-10`) and details (company,
 * external id) are set here, at start: no workflow task is spent upserting them.
 * `eager`: the client shares a NativeConnection with a worker of this process (see runtime/services.ts). Returns whether
 * Temporal handed the first workflow task to that worker in its answer. `priority`: workflows/priority-types.ts (batch
 * work goes to the batch lane's queue).
 */
export async function startDocumentWorkflow(
  client: Client,
  taskQueue: string,
  doc: StartableDocument,
  options: { eager?: boolean; priority?: Priority } = {},
): Promise<boolean> {
  try {
    const handle = await client.workflow.start<typeof documentWorkflow>(DOCUMENT_WORKFLOW, {
      taskQueue: laneTaskQueue(taskQueue, options.priority),
      // A worker in this very process (`chasqui start`) takes the first workflow task from the start's answer: no trip
      // through Temporal's matching service and no poll. The client must share the worker's NativeConnection.
      requestEagerStart: options.eager,
      priority: options.priority,
      workflowId: documentWorkflowId(doc.id),
      args: [{ externalId: doc.id }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      typedSearchAttributes: [
        { key: RucKey, value: doc.ruc },
        { key: DocTypeKey, value: doc.doc_type },
        { key: DocStatusKey, value: doc.status },
        { key: DocNumberKey, value: docNumber(doc) },
        { key: IssueDateKey, value: limaMidnight(doc.issue_date) },
      ],
      staticSummary: doc.filename,
      staticDetails: [
        doc.company_name ? `**${doc.company_name}** (RUC ${doc.ruc})` : `RUC ${doc.ruc}`,
        `document ${doc.filename}, issued ${doc.issue_date}`,
        `external_id \`${doc.id}\` — \`chasqui support find ${doc.id}\``,
      ].join('\n\n'),
    });
    return handle.eagerlyStarted;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return false;
  }
}

/**
 * Why a start failed, as the label of `chasqui_workflow_start_failures_total`: the namespace is missing, it lacks a
 * search attribute (or has one with another type), Temporal did not answer, or something else.
 */
export type StartFailureReason = 'namespace' | 'search_attributes' | 'unavailable' | 'other';

/** What an operator does about each reason (the readiness check, /readyz, names the exact command). */
export const START_FAILURE_FIXES: Record<StartFailureReason, string> = {
  namespace: 'create the Temporal namespace (docker compose run --rm temporal-namespace); /readyz names it',
  search_attributes:
    "register chasqui's search attributes, deploy/temporal/search-attributes (docker compose run --rm temporal-namespace); /readyz names the missing ones",
  unavailable: 'Temporal did not answer; check the Temporal server',
  other: 'see the cause',
};

/** The reason and a one-line cause (the first line of the error and of its causes). */
export function startFailure(err: unknown): { reason: StartFailureReason; cause: string } {
  const parts: string[] = [];
  const names: string[] = [];
  for (
    let e = err as { name?: string; message?: string; cause?: unknown } | undefined;
    e && parts.length < 4;
    e = e.cause as typeof e
  ) {
    const line = (e.message ?? String(e)).split('\n')[0];
    if (line && !parts.includes(line)) parts.push(line);
    if (e.name) names.push(e.name);
  }
  const text = [...names, ...parts].join(' | ');
  const reason: StartFailureReason = /namespace\b.*\bnot found|NamespaceNotFound/i.test(text)
    ? 'namespace'
    : /search attribute/i.test(text)
      ? 'search_attributes'
      : /deadline|unavailable|connect|ECONNREFUSED|timed? ?out/i.test(text)
        ? 'unavailable'
        : 'other';
  return { reason, cause: parts.join(': ') };
}

/** `F001-10`, as customers quote it (summaries: `RC-20261124-1`). */
export function docNumber(doc: { series: string; number: string | number }): string {
  return `${doc.series}-${Number(doc.number)}`;
}

/** An issue date (a Lima calendar day) as the instant it starts: Peru is UTC−5 all year. */
function limaMidnight(date: string): Date {
  return new Date(`${date}T00:00:00-05:00`);
}

export type { StartableDocument };

/**
 * Delivers `send`, `resend` or `recheck` to a document's workflow. Signals are durable: they are recorded even when no
 * worker is up. A document whose workflow has finished (resolved) gets `false` back.
 */
export async function signalDocumentWorkflow(
  client: Client,
  externalId: string,
  signal: keyof typeof DOCUMENT_SIGNALS,
): Promise<boolean> {
  try {
    await client.workflow.getHandle(documentWorkflowId(externalId)).signal(DOCUMENT_SIGNALS[signal]);
    return true;
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') return false;
    throw err;
  }
}

/**
 * `resend` or `recheck` for a document whatever its workflow's state: signalled when it runs, started when it does not
 * (never started, or ended by an operator); a new run reads the document and queries or sends as its status says.
 */
export async function signalOrStart(
  client: Client,
  taskQueue: string,
  doc: StartableDocument,
  signal: 'resend' | 'recheck',
  priority?: Priority,
): Promise<void> {
  if (!(await signalDocumentWorkflow(client, doc.id, signal)))
    await startDocumentWorkflow(client, taskQueue, doc, { priority });
}
