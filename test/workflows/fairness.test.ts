import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { getTestTemporalClient, testConfig, testTemporalAddress } from '../support/services';
import type { companyProceduresWorkflow } from '../../workflows/company-procedures';
import { COMPANY_PROCEDURES_WORKFLOW } from '../../workflows/company-procedures-types';
import { taskPriority, type WorkKind } from '../../workflows/priority-types';
import type { CompanyProcedureActivities } from '../../activities/company-procedures';

/** Account A's backlog: workflows waiting on the queue before account B's one arrives. */
const BACKLOG = 20;

/**
 * Task queue Priority and Fairness on the real dev server, as runtime/temporal-server.ts starts it: account A leaves
 * BACKLOG workflow tasks on a queue no worker polls, then account B one; then a worker with one slot drains the
 * queue, and the order its first activity runs in is the order Temporal dispatched the workflows. A workflow that
 * plans and ends (companyProceduresWorkflow, its plan saying the company is gone) keeps each dispatch short. The
 * order is exact because the dev server keeps each queue in one partition (runtime/temporal-server.ts); the first
 * case, without keys, is the arrival order this replaces.
 */
describe('Temporal dispatches accounts fairly (dev server, one worker slot)', function () {
  this.timeout(180_000);
  let client: Client;
  let connection: NativeConnection;
  let workflowBundle: WorkflowBundleWithSourceMap;
  const on = testConfig().temporal;

  before(async function () {
    this.timeout(180_000);
    client = await getTestTemporalClient(testConfig());
    connection = await NativeConnection.connect({ address: await testTemporalAddress() });
    workflowBundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: new DefaultLogger('WARN'),
    });
  });
  after(() => connection?.close());

  /** Where B's workflow came in the dispatch order (0: first), A's kind of work and B's given. */
  async function positionOfB(priorityOf: (account: string, kind: WorkKind) => Priority | undefined, aKind: WorkKind) {
    const taskQueue = `fairness-${randomBytes(4).toString('hex')}`;
    const [a, b] = [randomUUID(), randomUUID()];
    const start = (companyId: string, priority: Priority | undefined) =>
      client.workflow.start<typeof companyProceduresWorkflow>(COMPANY_PROCEDURES_WORKFLOW, {
        taskQueue,
        workflowId: `${taskQueue}-${companyId}`,
        args: [{ companyId, ruc: '20100066603', retry: { initialSeconds: 30, maxSeconds: 60 } }],
        priority,
      });
    const handles = [];
    for (let i = 0; i < BACKLOG; i++) handles.push(await start(`a-${i}`, priorityOf(a, aKind)));
    handles.push(await start('b', priorityOf(b, 'interactive')));
    await backlogReaches(taskQueue, BACKLOG + 1);

    const order: string[] = [];
    const activities: Pick<CompanyProcedureActivities, 'planCompanyProcedures'> = {
      planCompanyProcedures: async (companyId) => {
        order.push(companyId);
        return { status: 'gone' };
      },
    };
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowBundle,
      activities,
      maxConcurrentWorkflowTaskExecutions: 1,
      // One slot polls with one poller, which Temporal's core allows only without a workflow cache.
      maxCachedWorkflows: 0,
      maxConcurrentActivityTaskExecutions: 1,
    });
    await worker.runUntil(Promise.all(handles.map((h) => h.result())));
    expect(order).to.have.length(BACKLOG + 1);
    // The dispatch order is when each workflow's first task started (an activity's order can differ by one: one
    // activity may run eagerly at once while another waits on its own queue).
    const firstTaskAt = await Promise.all(
      handles.map(async (h) => {
        const { events } = await h.fetchHistory();
        const started = events!.find((e) => e.workflowTaskStartedEventAttributes)!;
        return Number(started.eventTime!.seconds) * 1e9 + started.eventTime!.nanos!;
      }),
    );
    const bAt = firstTaskAt[BACKLOG];
    return firstTaskAt.filter((at) => at < bAt).length;
  }

  /** Every start is recorded and its first workflow task handed to matching before any worker polls (bounded). */
  async function backlogReaches(taskQueue: string, count: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await client.workflowService.describeTaskQueue({
        namespace: client.options.namespace,
        // TASK_QUEUE_KIND_NORMAL and TASK_QUEUE_TYPE_WORKFLOW (the proto package is no dependency of chasqui's)
        taskQueue: { name: taskQueue, kind: 1 },
        taskQueueType: 1,
        reportStats: true,
      });
      if (Number(answer.stats?.approximateBacklogCount ?? 0) >= count) return;
      if (Date.now() > deadline) throw new Error(`the backlog of ${taskQueue} never reached ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("without keys (CHASQUI_FAIRNESS=off), B's one workflow waits behind A's whole backlog", async () => {
    expect(
      await positionOfB((account, kind) => taskPriority({ ...on, fairness: false }, kind, account), 'interactive'),
    ).to.equal(BACKLOG);
  });

  it("with the accounts' fairness keys, B's workflow is dispatched among the first, A's backlog notwithstanding", async () => {
    expect(await positionOfB((account, kind) => taskPriority(on, kind, account), 'interactive')).to.be.below(3);
  });

  it('a batch backlog (a backfill, summaries, voids) waits behind an interactive document', async () => {
    expect(await positionOfB((account, kind) => taskPriority(on, kind, account), 'batch')).to.equal(0);
  });
});
