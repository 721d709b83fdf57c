import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from '../support/time-skipping';
import { companySummaryWorkflow, companySummaryWorkflowId, dailySummaryWorkflow } from '../../workflows/daily-summary';
import type { DocumentActivities, StepOutcome } from '../../workflows/document-types';
import type { SummaryActivities } from '../../activities/summaries';
import type { SettledSummary } from '../../db/summaries';

/**
 * The run's decisions on Temporal's time-skipping server, with scripted activities: rounds until nothing is left, a
 * ticket at 98 for minutes of (virtual) time, a rejection that is not retried within the run, one child per company.
 * The same run against PostgreSQL and the simulator is in daily-summary.test.ts.
 */
describe('daily summary workflows (time-skipping)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundleWithSourceMap;

  before(async () => {
    env = await createTimeSkippingEnv();
    bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });
  });
  after(() => env?.teardown());

  const step = (kind: StepOutcome['kind'], status: StepOutcome['status'], code: string | null = null): StepOutcome => ({
    kind,
    status,
    code,
    ticket: 'T-1',
  });

  /**
   * Summary activities answering from `rounds` (what each compose returns, in order) and document activities whose
   * tickets answer 98 `stuckPolls` times before `verdict`; every call is logged with its virtual time.
   */
  function scripted(options: {
    companies?: string[];
    rounds: string[][];
    stuckPolls?: number;
    verdict?: (summaryId: string) => 'accepted' | 'rejected';
  }) {
    const calls: { name: string; id: string; at: number }[] = [];
    const log = async (name: string, id: string) => calls.push({ name, id, at: await env.currentTimeMs() });
    const rounds = [...options.rounds];
    const polls = new Map<string, number>();
    const verdict = options.verdict ?? (() => 'accepted');
    const summary: SummaryActivities = {
      listSummaryCompanies: async (only) => ({
        today: '2024-03-15',
        companyIds: (options.companies ?? []).filter((id) => !only || only.includes(id)),
      }),
      composeCompanySummaries: async (companyId) => {
        await log('compose', companyId);
        return rounds.shift() ?? [];
      },
      settleSummary: async (summaryId): Promise<SettledSummary> => {
        await log('settle', summaryId);
        return { status: verdict(summaryId), added: 1, voided: 0 };
      },
    };
    const document: DocumentActivities = {
      loadDocumentPlan: async () => ({
        ruc: '20100066603',
        docType: 'rc',
        status: 'queued',
        queryable: false,
        ticket: null,
      }),
      sendDocument: async (id) => {
        await log('send', id);
        return step('ticket', 'registered');
      },
      checkTicket: async (id) => {
        await log('ticket', id);
        const n = (polls.get(id) ?? 0) + 1;
        polls.set(id, n);
        return n <= (options.stuckPolls ?? 0)
          ? step('ticket', 'registered', '98')
          : step('resolved', verdict(id), verdict(id) === 'accepted' ? '0' : '2282');
      },
      queryDocumentState: async () => {
        throw new Error('an rc has no state query');
      },
    };
    return { activities: { ...summary, ...document }, calls };
  }

  async function run<T>(activities: object, start: (taskQueue: string) => Promise<T>): Promise<T> {
    const taskQueue = `summary-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    return worker.runUntil(start(taskQueue));
  }

  const company = (activities: object, companyId = 'company-1') =>
    run(activities, (taskQueue) =>
      env.client.workflow.execute(companySummaryWorkflow, {
        taskQueue,
        workflowId: `run-${randomUUID()}/${companyId}`,
        args: [{ companyId }],
      }),
    );

  it('sends each summary, waits out a ticket stuck at 98 for minutes, and settles it only once it resolved', async () => {
    const { activities, calls } = scripted({ rounds: [['rc-1']], stuckPolls: 5 });
    expect(await company(activities)).to.deep.equal({ companyId: 'company-1', summaries: 1, accepted: 1, rejected: 0 });
    expect(calls.map((c) => c.name)).to.deep.equal([
      'compose',
      'send',
      ...Array(6).fill('ticket'),
      'settle',
      'compose',
    ]);
    const tickets = calls.filter((c) => c.name === 'ticket').map((c) => c.at);
    const waits = tickets.map((at, i) => Math.round((at - (i ? tickets[i - 1] : calls[1].at)) / 1000));
    expect(waits).to.deep.equal([10, 20, 40, 80, 160, 300]);
    expect(calls.find((c) => c.name === 'settle')!.at).to.be.at.least(tickets[5]);
  });

  it('runs rounds until nothing is left (a void after the add it depends on), summaries of a round in parallel', async () => {
    const { activities, calls } = scripted({ rounds: [['rc-1', 'rc-2'], ['rc-3']] });
    expect(await company(activities)).to.include({ summaries: 3, accepted: 3 });
    const names = calls.map((c) => `${c.name}:${c.id}`);
    expect(names.filter((n) => n.startsWith('compose'))).to.have.length(3);
    // rc-3 (second round) is only sent after both summaries of the first round were settled.
    expect(names.indexOf('send:rc-3')).to.be.greaterThan(
      Math.max(names.indexOf('settle:rc-1'), names.indexOf('settle:rc-2')),
    );
  });

  it('counts a rejected summary and leaves it to the next run (the run stops when compose has nothing new)', async () => {
    const { activities, calls } = scripted({ rounds: [['rc-1']], verdict: () => 'rejected' });
    expect(await company(activities)).to.include({ summaries: 1, accepted: 0, rejected: 1 });
    expect(calls.filter((c) => c.name === 'send')).to.have.length(1);
  });

  it('the daily run starts one independent run per company (or only for the companies support staff name)', async () => {
    const { activities, calls } = scripted({ companies: ['a', 'b', 'c'], rounds: [] });
    const daily = (args: [{ companyIds?: string[] }] | []) =>
      run(activities, async (taskQueue) => {
        const workflowId = `daily-${randomUUID()}`;
        const started = await env.client.workflow.execute(dailySummaryWorkflow, { taskQueue, workflowId, args });
        const companies = args[0]?.companyIds ?? ['a', 'b', 'c'];
        const results = await Promise.all(
          companies.map((id) => env.client.workflow.getHandle(companySummaryWorkflowId(workflowId, id)).result()),
        );
        return { started, companies: results.map((r) => r.companyId) };
      });
    expect(await daily([])).to.deep.equal({ started: 3, companies: ['a', 'b', 'c'] });
    expect(await daily([{ companyIds: ['b'] }])).to.deep.equal({ started: 1, companies: ['b'] });
    expect(
      calls
        .filter((c) => c.name === 'compose')
        .map((c) => c.id)
        .sort(),
    ).to.deep.equal(['a', 'b', 'b', 'c']);
  });
});
