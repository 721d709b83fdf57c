import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from '../support/time-skipping';
import {
  documentWorkflow,
  recheckSignal,
  resendSignal,
  sendSignal,
  stateQuery,
  RECONCILIATION_MS,
} from '../../workflows/document';
import type { DocumentActivities, DocumentPlan, StepOutcome } from '../../workflows/document-types';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

/**
 * The document workflow's decisions on Temporal's time-skipping server: the activities are scripted (the authority's
 * answers come from a list), the waits are the real ones (30 s backoff, 10-minute reconciliation), skipped by the
 * server's virtual clock. End-to-end runs against the simulator live in the issuing suite.
 */
describe('document workflow (time-skipping)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;

  before(async () => {
    bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: quietBundlerLogger,
    });
  });
  // A server per test: resolution starts an abandoned webhook child, after which the test server stops skipping time
  // (temporalio/sdk-typescript#1101), so no test may inherit another's clock.
  beforeEach(async () => {
    env = await createTimeSkippingEnv();
  });
  afterEach(() => env?.teardown());

  const outcome = (
    kind: StepOutcome['kind'],
    status: StepOutcome['status'],
    extra: Partial<StepOutcome> = {},
  ): StepOutcome => ({
    kind,
    status,
    code: null,
    ticket: null,
    ...extra,
  });

  /** Activities that answer from scripts and log each call with the virtual time it happened at. */
  function scripted(
    plan: Partial<DocumentPlan>,
    scripts: { send?: StepOutcome[]; ticket?: StepOutcome[]; query?: StepOutcome[] },
  ) {
    const calls: { name: string; at: number }[] = [];
    const take = (name: string, list: StepOutcome[] | undefined) => async () => {
      calls.push({ name, at: env.currentTimeMs ? await env.currentTimeMs() : Date.now() });
      const next = list?.shift();
      if (!next) throw new Error(`unexpected call to ${name}`);
      return next;
    };
    const activities: DocumentActivities = {
      // As the real activity: asked to, it sends a queued document itself and returns that outcome with the plan.
      loadDocumentPlan: async (_id, options) => {
        const planned: DocumentPlan = {
          ruc: '20100066603',
          docType: '01',
          status: 'queued',
          queryable: true,
          ticket: null,
          oneTask: true,
          ...plan,
        };
        return options?.sendQueued && planned.status === 'queued'
          ? { ...planned, firstSend: await take('send', scripts.send)() }
          : planned;
      },
      sendDocument: take('send', scripts.send),
      checkTicket: take('ticket', scripts.ticket),
      queryDocumentState: take('query', scripts.query),
    };
    return { activities, calls };
  }

  async function run<T>(activities: DocumentActivities, body: (workflowId: string) => Promise<T>): Promise<T> {
    const taskQueue = `doc-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      // Resolution starts the webhook delivery child unless the step said there is none; it finds no webhook here.
      activities: { ...activities, openWebhookDelivery: async () => null },
    });
    return worker.runUntil(async () => {
      const workflowId = `cpe-${randomUUID()}`;
      await env.client.workflow.start(documentWorkflow, {
        taskQueue,
        workflowId,
        args: [{ externalId: workflowId.slice(4) }],
      });
      return body(workflowId);
    });
  }

  it('ends accepted after one send when the authority accepts', async () => {
    const { activities, calls } = scripted({}, { send: [outcome('resolved', 'accepted', { code: '0' })] });
    const status = await run(activities, (id) => env.client.workflow.getHandle(id).result());
    expect(status).to.equal('accepted');
    expect(calls.map((c) => c.name)).to.deep.equal(['send']);
  });

  it('ends rejected without retrying a rejection', async () => {
    const { activities, calls } = scripted({}, { send: [outcome('resolved', 'rejected', { code: '2017' })] });
    expect(await run(activities, (id) => env.client.workflow.getHandle(id).result())).to.equal('rejected');
    expect(calls).to.have.length(1);
  });

  it('retries connection failures with growing waits (30 s, then 60 s) and stays queued meanwhile', async () => {
    const { activities, calls } = scripted(
      {},
      {
        send: [outcome('retry', 'queued'), outcome('retry', 'queued'), outcome('resolved', 'accepted', { code: '0' })],
      },
    );
    expect(await run(activities, (id) => env.client.workflow.getHandle(id).result())).to.equal('accepted');
    expect(calls.map((c) => c.name)).to.deep.equal(['send', 'send', 'send']);
    expect(calls[1].at - calls[0].at).to.be.within(30_000, 35_000);
    expect(calls[2].at - calls[1].at).to.be.within(60_000, 65_000);
  });

  it('never resends after a timeout; queries the real state every 10 minutes until the authority pronounces', async () => {
    const { activities, calls } = scripted(
      { queryable: true },
      {
        send: [outcome('unknown', 'sent')],
        query: [
          outcome('unknown', 'sent'),
          outcome('unknown', 'sent'),
          outcome('resolved', 'observed', { code: '4252' }),
        ],
      },
    );
    expect(await run(activities, (id) => env.client.workflow.getHandle(id).result())).to.equal('observed');
    expect(calls.map((c) => c.name)).to.deep.equal(['send', 'query', 'query', 'query']);
    for (let i = 1; i < calls.length; i++)
      expect(calls[i].at - calls[i - 1].at).to.be.within(RECONCILIATION_MS, RECONCILIATION_MS + 5_000);
  });

  it('for an OSE (no state query) a timeout waits for an explicit action, then resends on request', async () => {
    const { activities, calls } = scripted(
      { queryable: false },
      {
        send: [outcome('unknown', 'sent'), outcome('resolved', 'accepted', { code: '0' })],
      },
    );
    const status = await run(activities, async (id) => {
      const handle = env.client.workflow.getHandle(id);
      await env.sleep('6 hours');
      const state = await handle.query(stateQuery);
      expect(state).to.include({ status: 'sent', waitingFor: 'action' });
      expect(calls).to.have.length(1);
      await handle.signal(resendSignal);
      return handle.result();
    });
    expect(status).to.equal('accepted');
    expect(calls.map((c) => c.name)).to.deep.equal(['send', 'send']);
  });

  it('polls a ticket while it is at 98 and resolves with its verdict', async () => {
    const { activities, calls } = scripted(
      { docType: 'rc' },
      {
        send: [outcome('ticket', 'registered', { ticket: '1703154974517' })],
        ticket: [
          outcome('ticket', 'registered', { ticket: '1703154974517', code: '98' }),
          outcome('resolved', 'accepted', { code: '0' }),
        ],
      },
    );
    expect(await run(activities, (id) => env.client.workflow.getHandle(id).result())).to.equal('accepted');
    expect(calls.map((c) => c.name)).to.deep.equal(['send', 'ticket', 'ticket']);
  });

  it('in manual mode waits for the send signal before sending', async () => {
    const { activities, calls } = scripted(
      { status: 'to_send' },
      { send: [outcome('resolved', 'accepted', { code: '0' })] },
    );
    const status = await run(activities, async (id) => {
      const handle = env.client.workflow.getHandle(id);
      await env.sleep('3 days');
      expect((await handle.query(stateQuery)).waitingFor).to.equal('send');
      expect(calls).to.have.length(0);
      await handle.signal(sendSignal);
      return handle.result();
    });
    expect(status).to.equal('accepted');
    expect(calls).to.have.length(1);
  });

  it('lets support staff cut a reconciliation wait short with recheck', async () => {
    const { activities, calls } = scripted(
      { queryable: true },
      {
        send: [outcome('unknown', 'sent')],
        query: [outcome('resolved', 'accepted', { code: '0' })],
      },
    );
    const status = await run(activities, async (id) => {
      const handle = env.client.workflow.getHandle(id);
      await env.sleep('1 minute');
      await handle.signal(recheckSignal);
      return handle.result();
    });
    expect(status).to.equal('accepted');
    expect(calls[1].at - calls[0].at).to.be.lessThan(RECONCILIATION_MS);
  });

  // What one accepted document costs: workflow tasks, markers, and whether a delivery workflow exists.
  /**
   * Runs one queued document whose send resolves it with `outcome`; the receiver answers attempt n with
   * `receiver[n - 1]` ('delivered' or 'pending'). Returns the history's event types and what the activities saw.
   */
  /** `olderOpening`: the opening activity ignores `attemptFirst`, as one recorded by an older worker did. */
  async function accepted(
    outcome: Partial<StepOutcome>,
    webhook: boolean,
    receiver: ('delivered' | 'pending')[] = ['delivered'],
    olderOpening = false,
  ) {
    const taskQueue = `doc-${randomUUID()}`;
    const opened: string[] = [];
    const attempts: { number: number; at: number }[] = [];
    const sends: (string | undefined)[] = [];
    const recorded = new Map<number, 'delivered' | 'pending'>();
    // As the real activity: an attempt already recorded is returned as it was, never made again.
    const attempt = async (_deliveryId: string, number: number) => {
      if (!recorded.has(number)) {
        attempts.push({ number, at: await env.currentTimeMs() });
        recorded.set(number, receiver[number - 1]);
      }
      return { status: recorded.get(number)!, attempts: number, httpStatus: null, error: null };
    };
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities: {
        loadDocumentPlan: async (_id: string, options?: { sendQueued?: boolean }) => {
          expect(options).to.deep.equal({ sendQueued: true });
          sends.push('plan');
          const firstSend: StepOutcome = { kind: 'resolved', status: 'accepted', code: '0', ticket: null, ...outcome };
          return {
            ruc: '20100066603',
            docType: '01',
            status: 'queued',
            queryable: true,
            ticket: null,
            oneTask: true,
            firstSend,
          };
        },
        sendDocument: async (_id: string, expected?: string) => {
          sends.push(expected);
          return { kind: 'resolved', status: 'accepted', code: '0', ticket: null, ...outcome };
        },
        // As the real activity: asked to, it makes attempt 1 itself and returns its outcome with the opening.
        openWebhookDelivery: async (externalId: string, options?: { attemptFirst?: boolean }) => {
          opened.push(externalId);
          if (!webhook) return null;
          const delivery = { deliveryId: 'd-1', status: 'pending' as const, attempts: 0 };
          return options?.attemptFirst && !olderOpening ? { ...delivery, first: await attempt('d-1', 1) } : delivery;
        },
        attemptWebhookDelivery: attempt,
      },
    });
    const workflowId = `cpe-${randomUUID()}`;
    const events = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(documentWorkflow, {
        taskQueue,
        workflowId,
        args: [{ externalId: workflowId.slice(4) }],
      });
      expect(await handle.result()).to.equal('accepted');
      const history = await handle.fetchHistory();
      const types = (JSON.parse(historyToJSON(history)).events as { eventType: string }[]).map((e) =>
        e.eventType.replace('EVENT_TYPE_', ''),
      );
      // A delivery handed to the delivery workflow runs on the same worker; wait for it to end.
      if (types.includes('START_CHILD_WORKFLOW_EXECUTION_INITIATED'))
        await env.client.workflow.getHandle(`webhook-${workflowId}`).result();
      return types;
    });
    return { events, opened, attempts, sends };
  }

  it('without a webhook: one workflow task, plan and send as one local activity, no delivery at all', async () => {
    const { events, opened, sends } = await accepted({ webhook: false }, false);
    // In production the starter already set Ruc/DocType/DocStatus; this test server's start did not, hence the extra
    // upsert of the plan's attributes (the first one here).
    expect(events).to.deep.equal([
      'WORKFLOW_EXECUTION_STARTED',
      'WORKFLOW_TASK_SCHEDULED',
      'WORKFLOW_TASK_STARTED',
      'WORKFLOW_TASK_COMPLETED',
      'MARKER_RECORDED', // loadDocumentPlan, which sent the queued document too
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', // Ruc, DocType, DocStatus (set at start in production)
      'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', // DocStatus=accepted
      'WORKFLOW_EXECUTION_COMPLETED',
    ]);
    // The send happened inside the plan (which marks only a queued row), and no second send followed it.
    expect(sends).to.deep.equal(['plan']);
    expect(opened).to.deep.equal([]);
  });

  it('with a webhook answering 2xx: the first attempt in the same workflow task, no delivery workflow', async () => {
    const { events, attempts } = await accepted({}, true);
    expect(events.filter((e) => e === 'WORKFLOW_TASK_COMPLETED')).to.have.length(1);
    expect(events.filter((e) => e === 'MARKER_RECORDED')).to.have.length(2); // plan with send, opening with attempt 1
    expect(events).to.not.include('START_CHILD_WORKFLOW_EXECUTION_INITIATED');
    expect(attempts.map((a) => a.number)).to.deep.equal([1]);
  });

  it('with a webhook failing its first attempt: the delivery workflow carries on with attempt 2 after 30 s, once each', async () => {
    const { events, attempts } = await accepted({}, true, ['pending', 'delivered']);
    expect(events.filter((e) => e === 'START_CHILD_WORKFLOW_EXECUTION_INITIATED')).to.have.length(1);
    expect(attempts.map((a) => a.number)).to.deep.equal([1, 2]);
    expect(attempts[1].at - attempts[0].at).to.be.within(30_000, 35_000);
  });

  it('an opening without attempt 1 (older worker): attempt 1 runs as its own local activity, once', async () => {
    const { events, attempts } = await accepted({}, true, ['delivered'], true);
    expect(events.filter((e) => e === 'MARKER_RECORDED')).to.have.length(3); // plan with send, opening, attempt 1
    expect(events).to.not.include('START_CHILD_WORKFLOW_EXECUTION_INITIATED');
    expect(attempts.map((a) => a.number)).to.deep.equal([1]);
  });

  it('when the resolving step could not tell (an older activity, a repeated report): the delivery is opened', async () => {
    const { opened } = await accepted({}, false);
    expect(opened).to.have.length(1);
  });
});

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string, meta?: unknown) => console.error(message, meta),
};
