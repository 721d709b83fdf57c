import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { DocStatusKey, DocTypeKey, RucKey } from './search-attributes';
import { deliverResolution, followNotice, startWebhookDelivery } from './webhook-delivery';
import { startBuyerEmail } from './buyer-email';
import {
  DOCUMENT_MISSING,
  DOCUMENT_SIGNALS,
  documentWorkflowId,
  isResolvedStatus,
  type DocStatus,
  type DocumentActivities,
  type DocumentPlan,
  type DocumentWorkflowInput,
  type DocumentWorkflowState,
  type StepOutcome,
} from './document-types';
import { awaitsRelease, firstStep, isQueued, stepAfterWait, type Step } from '../lifecycle/transitions';

/** `POST /v1/cpe/{id}/send`: a document waiting in manual mode may go. */
export const sendSignal = defineSignal(DOCUMENT_SIGNALS.send);
/** `POST /v1/cpe/{id}/resend` or support staff: send the same signed XML again (no new signature). */
export const resendSignal = defineSignal(DOCUMENT_SIGNALS.resend);
/** Support staff: query the real state now instead of waiting for the next reconciliation. */
export const recheckSignal = defineSignal(DOCUMENT_SIGNALS.recheck);
export const stateQuery = defineQuery<DocumentWorkflowState>('state');

export { documentWorkflowId };

/** Connection failures are retried with waits of 30 s, 1, 2, 4 … minutes, never longer than 30 minutes. */
export function connectionBackoffMs(failures: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, failures - 1), 30 * 60_000);
}

/** Tickets at 98 are polled after 10 s, 20 s, 40 s … up to every 5 minutes. */
export function ticketPollMs(polls: number): number {
  return Math.min(10_000 * 2 ** polls, 5 * 60_000);
}

/** Spec 3.1: a timed-out document's real state is queried every 10 minutes until the authority pronounces. */
export const RECONCILIATION_MS = 10 * 60_000;

// Activities return outcomes as values; what is retried here is infrastructure failure (database down, worker lost).
const INFRASTRUCTURE_RETRY = { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' };

const { sendDocument, checkTicket, queryDocumentState } = proxyActivities<DocumentActivities>({
  // A SOAP call has its own connect/response timeouts well inside this; the rest is the DB.
  startToCloseTimeout: '3 minutes',
  // Activities heartbeat while they wait on the authority, so a worker that dies mid-send is noticed in seconds.
  heartbeatTimeout: '20 seconds',
  retry: INFRASTRUCTURE_RETRY,
});

/**
 * Plan and first send run as one local activity, in the workflow task that started the workflow: an accepted invoice
 * costs one workflow task and one local activity in all. Its SOAP call is bounded by the connector's own timeouts
 * (5 s connect, 60 s response by default), and the SDK keeps the workflow task alive while it runs; a document whose
 * state can be queried waits at most `firstSendWaitMs` for its answer there, then the plan says so (`handedOff`) and the
 * regular activity takes the send over (it queries first), so a slow authority keeps no workflow task open. A worker lost
 * mid-send loses the workflow task instead of the activity: the next run finds `send_started_at` set and queries
 * before sending again, exactly as a retried activity does. Later steps (retries, tickets, queries) keep regular
 * activities with heartbeats: they wait on the authority for longer and less often.
 */
const local = proxyLocalActivities<DocumentActivities>({
  startToCloseTimeout: '3 minutes',
  retry: INFRASTRUCTURE_RETRY,
});

/**
 * One workflow per document (id `cpe-<external_id>`): sends it, retries what never arrived, polls tickets, reconciles
 * timeouts, and ends when the authority has pronounced. The database row is the source of truth; activities keep it
 * current and this workflow only decides what happens next.
 */
export async function documentWorkflow(input: DocumentWorkflowInput): Promise<DocStatus | typeof DOCUMENT_MISSING> {
  try {
    return await followDocument(input);
  } catch (err) {
    // The row is gone (a restore to an older backup): nothing to send or record, and the workflow would otherwise wait
    // on retries forever. A document posted again gets a row, an id and a workflow of its own.
    if (!isDocumentMissing(err)) throw err;
    log.warn(`document ${input.externalId} does not exist (lost with a restore?): its workflow ends`, {
      externalId: input.externalId,
    });
    return DOCUMENT_MISSING;
  }
}

/** The activity's failure, as a regular activity reports it (wrapped in an ActivityFailure) or a local one may. */
function isDocumentMissing(err: unknown): boolean {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure && failure.type === DOCUMENT_MISSING;
}

/**
 * How the first send runs. Versioning by recorded data rather than `patched()` (the SDK upserts TemporalChangeVersion
 * for every patch, one more visibility write per document): plans recorded by older workers lack the newer fields, so
 * their histories replay the older commands (test/workflows/replay.test.ts).
 * - `inPlan`: the plan sent the queued document itself and carries the outcome (today's workers: one local activity);
 * - `localActivity`: a second local activity sends the queued document, expecting it still queued (plans with `oneTask`
 *   and no `firstSend`: the worker before);
 * - `activity`: the regular send activity (the plan's send got no answer in time, `handedOff`; the document was not
 *   queued; or the plan predates one-task workflows).
 */
type FirstSend = { runs: 'inPlan'; outcome: StepOutcome } | { runs: 'localActivity' } | { runs: 'activity' };

function firstSendOf(plan: DocumentPlan, step: Step): FirstSend {
  if (plan.firstSend) return { runs: 'inPlan', outcome: plan.firstSend };
  if (plan.oneTask && !plan.handedOff && step === 'send' && isQueued(plan.status)) return { runs: 'localActivity' };
  return { runs: 'activity' };
}

async function followDocument(input: DocumentWorkflowInput): Promise<DocStatus> {
  const { externalId } = input;
  const plan = await local.loadDocumentPlan(externalId, { sendQueued: true });
  // Plans recorded before one-task workflows (no `oneTask`) deliver the notice in a child workflow.
  const noticeByChildWorkflow = plan.oneTask !== true;
  const state: DocumentWorkflowState = {
    status: plan.status,
    connectionFailures: input.connectionFailures ?? 0,
    ticket: plan.ticket,
    waitingFor: 'nothing',
  };
  let sendRequested = false;
  let resendRequested = false;
  let recheckRequested = false;
  setHandler(sendSignal, () => void (sendRequested = true));
  setHandler(resendSignal, () => void (resendRequested = true));
  setHandler(recheckSignal, () => void (recheckRequested = true));
  setHandler(stateQuery, () => state);

  const publish = (outcome: StepOutcome) => {
    state.status = outcome.status;
    state.ticket = outcome.ticket ?? state.ticket;
    upsertSearchAttributes([{ key: DocStatusKey, value: outcome.status }]);
  };
  const attributes = [
    { key: RucKey, value: plan.ruc },
    { key: DocTypeKey, value: plan.docType },
    { key: DocStatusKey, value: plan.status },
  ];
  // The starter already set them; each upsert is a visibility write, so only what changed since is written.
  const current = workflowInfo().typedSearchAttributes;
  const changed = attributes.filter(({ key, value }) => current.get(key) !== value);
  if (changed.length) upsertSearchAttributes(changed);

  // The notice of a resolution: opened by the step that resolved the document (today's first send), else by a local
  // activity of this workflow, or by a child delivery workflow (histories of older code).
  const notified = async (status: DocStatus, outcome?: StepOutcome): Promise<DocStatus> => {
    if (noticeByChildWorkflow) await startWebhookDelivery(externalId);
    else if (outcome?.notice !== undefined) await followNotice(externalId, outcome.notice);
    else if (outcome?.webhook !== false) await deliverResolution(externalId);
    if (outcome?.email) await startBuyerEmail(externalId);
    return status;
  };
  if (isResolvedStatus(plan.status)) return notified(plan.status);
  if (awaitsRelease(plan.status)) {
    state.waitingFor = 'send';
    await condition(() => sendRequested || resendRequested);
  }

  // Each pass of this loop is one decision after one step; the history is rolled over before it grows too long.
  let step = firstStep(plan.status, state.ticket);
  let ticketPolls = 0;
  let first = firstSendOf(plan, step);
  for (;;) {
    resendRequested = recheckRequested = false;
    const outcome =
      first.runs === 'inPlan'
        ? first.outcome
        : first.runs === 'localActivity'
          ? await local.sendDocument(externalId, plan.status)
          : step === 'send'
            ? await sendDocument(externalId)
            : step === 'ticket'
              ? await checkTicket(externalId)
              : await queryDocumentState(externalId);
    first = { runs: 'activity' };
    publish(outcome);
    // Spec 6: crossing to accepted, observed or rejected fires `cpe.resolved`. `webhook: false`: the company has none,
    // and the step that resolved the document already stored the event as handled.
    if (outcome.kind === 'resolved') return notified(outcome.status, outcome);

    if (outcome.kind === 'retry') {
      state.connectionFailures++;
      state.waitingFor = 'retry';
      await condition(() => resendRequested, connectionBackoffMs(state.connectionFailures));
    } else if (outcome.kind === 'ticket') {
      state.waitingFor = 'ticket';
      await condition(() => recheckRequested, ticketPollMs(ticketPolls++));
    } else if (plan.queryable) {
      state.waitingFor = 'reconciliation';
      await condition(() => recheckRequested || resendRequested, RECONCILIATION_MS);
    } else {
      // An OSE exposes no state query: a timeout does not resolve itself; the integrator or staff decide.
      state.waitingFor = 'action';
      await condition(() => recheckRequested || resendRequested);
    }
    step = stepAfterWait(outcome.kind, { resendRequested, queryable: plan.queryable, ticket: state.ticket });

    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof documentWorkflow>({ externalId, connectionFailures: state.connectionFailures });
    }
  }
}
