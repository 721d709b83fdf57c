import type { OpenedDelivery } from './webhook-types';
import type { DocStatus, StepKind } from '../lifecycle/transitions';
/**
 * The contract between the document workflow and its activities: small values only (ids, statuses, codes),
 * never XML, keys or passwords.
 */

/** The statuses and what changes them are the lifecycle room's (lifecycle/transitions.ts); the contract carries them. */
export { isResolvedStatus, type DocStatus } from '../lifecycle/transitions';

/** The document workflow's id: one workflow per document. */
export const documentWorkflowId = (externalId: string) => `cpe-${externalId}`;

/**
 * The document workflow's type and signals by name: its clients start and signal it with these, importing the workflow
 * itself as a type only, so nothing outside the worker loads workflow code (test/workflows/names.test.ts).
 */
export const DOCUMENT_WORKFLOW = 'documentWorkflow';
export const DOCUMENT_SIGNALS = { send: 'send', resend: 'resend', recheck: 'recheck' } as const;

export interface DocumentPlan {
  ruc: string;
  docType: string;
  status: DocStatus;
  /** The real state can be asked for (SUNAT's billConsultService for 01/07/08; not an OSE, not the beta). */
  queryable: boolean;
  ticket: string | null;
  /**
   * Always true from today's activity: the workflow sends first as a local activity and starts no delivery workflow
   * for a company without webhook (one workflow task for an accepted invoice). Absent in plans recorded by older
   * workers: their histories replay the older command sequence.
   */
  oneTask?: true;
  /**
   * The outcome of the first send, when the plan was asked to send a queued document at once (`sendQueued`): plan and
   * first send are then one local activity. Absent in plans recorded by older workers (they sent in a second local
   * activity) and when the document was not queued.
   */
  firstSend?: StepOutcome;
  /**
   * The first send got no answer within its wait inside the workflow task (config firstSendWaitMs) and recorded
   * nothing: the workflow sends again with the regular activity, which asks the authority first. Absent otherwise.
   */
  handedOff?: true;
}

/** What one step (send, ticket check, state query) established (StepKind), already recorded in the database by the activity. */
export interface StepOutcome {
  kind: StepKind;
  status: DocStatus;
  code: string | null;
  ticket: string | null;
  /**
   * On the step that resolved the document: false when its `cpe.resolved` notice has nothing to deliver (the company
   * has no webhook; the resolution is already marked handled). Absent when unknown, so a delivery workflow is started.
   */
  webhook?: boolean;
  /**
   * On the first send that resolved a document whose company has a webhook: the notice's delivery as the same local
   * activity opened it, attempt 1 made (null: the webhook was removed meanwhile). Absent on every other step and in
   * outcomes recorded by older workers: the workflow then opens the delivery itself.
   */
  notice?: OpenedDelivery | null;
  /**
   * On the step that accepted a document whose payload named the buyer's e-mail: the workflow starts its e-mail
   * (workflows/buyer-email.ts). Absent otherwise, so a document without e-mail costs no event more.
   */
  email?: true;
}

/**
 * The failure type an activity throws when the document's row does not exist (chasqui's database restored to a backup
 * older than the document): final, never retried; the workflow ends with `DOCUMENT_MISSING` as its result.
 */
export const DOCUMENT_MISSING = 'DocumentMissing';

export interface DocumentWorkflowInput {
  externalId: string;
  /** Carried over continue-as-new so connection backoff keeps growing. */
  connectionFailures?: number;
}

/** What support staff and the API can ask a running document workflow. */
export interface DocumentWorkflowState {
  status: DocStatus;
  connectionFailures: number;
  ticket: string | null;
  waitingFor: 'send' | 'retry' | 'ticket' | 'reconciliation' | 'action' | 'nothing';
}

/** Implemented by activities/documents.ts; each records its outcome in the database before returning it. */
export interface DocumentActivities {
  /** With `sendQueued`, a queued document is also sent, and the plan carries that step's outcome (`firstSend`). */
  loadDocumentPlan(externalId: string, options?: { sendQueued?: boolean }): Promise<DocumentPlan>;
  /**
   * `expected`: the status the workflow last saw. When the row has moved on from it, an earlier run of this same step
   * already sent and recorded (a local activity run again after a lost workflow task): that outcome is returned and
   * nothing is sent.
   */
  sendDocument(externalId: string, expected?: DocStatus): Promise<StepOutcome>;
  checkTicket(externalId: string): Promise<StepOutcome>;
  queryDocumentState(externalId: string): Promise<StepOutcome>;
}

/** What a workflow start needs from a committed document row (small fields only: starts may queue by thousands). */
export interface StartableDocument {
  id: string;
  ruc: string;
  doc_type: string;
  status: string;
  series: string;
  number: string | number;
  filename: string;
  issue_date: string;
  /** The issuing account: the start's fairness key (workflows/priority-types.ts). */
  account_id: string;
  /** The issuing company's business name, shown in the Temporal UI; absent where the caller does not have it. */
  company_name?: string | null;
}
