import { expect } from 'chai';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createTimeSkippingEnv } from '../support/time-skipping';
import { companyProceduresWorkflow } from '../../workflows/company-procedures';
import type { CompanyProcedureActivities, ProcedureRunResult } from '../../activities/company-procedures';

/** The workflow alone on Temporal's time-skipping server: real timers of minutes and hours pass at once. */
describe('companyProceduresWorkflow waits (time-skipping)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let workflowBundle: WorkflowBundleWithSourceMap;
  before(async function () {
    env = await createTimeSkippingEnv();
    workflowBundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: new DefaultLogger('WARN'),
    });
  });
  after(() => env?.teardown());

  /** Runs the workflow with activities that fail `failures` rounds (retryably unless `permanent`), then succeed. */
  async function run(options: { failures: number; permanent?: boolean }) {
    const waits: number[] = [];
    const clock: number[] = [];
    let rounds = 0;
    const activities: CompanyProcedureActivities = {
      planCompanyProcedures: async () => ({ status: 'ready', procedures: ['pse_authorization'] }),
      runCompanyProcedure: async ({ retryInSeconds }): Promise<ProcedureRunResult> => {
        waits.push(retryInSeconds);
        clock.push(await env.currentTimeMs());
        rounds++;
        if (rounds > options.failures) return { outcome: 'done' };
        return { outcome: 'failed', retryable: !options.permanent, message: 'portal down' };
      },
    };
    const taskQueue = `procedures-ts-${Math.random().toString(36).slice(2)}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities,
    });
    const outcome = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(companyProceduresWorkflow, {
        workflowId: `procedures-${taskQueue}`,
        taskQueue,
        args: [{ companyId: 'c-1', ruc: '20100066603', retry: { initialSeconds: 30, maxSeconds: 3600 } }],
      });
      return handle.result();
    });
    return { outcome, waits, elapsedSeconds: (clock[clock.length - 1] - clock[0]) / 1000 };
  }

  it('doubles the wait after each failed round up to the maximum, then ends done', async () => {
    const { outcome, waits, elapsedSeconds } = await run({ failures: 8 });
    expect(outcome).to.equal('done');
    expect(waits).to.deep.equal([30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    // The eight waits really happened on the server's (virtual) clock between the first and the last attempt.
    expect(elapsedSeconds).to.be.within(7410, 7410 + 60);
  });

  it('ends failed at once when a failure cannot be fixed by retrying (wrong SOL credentials)', async () => {
    const { outcome, waits } = await run({ failures: 1, permanent: true });
    expect(outcome).to.equal('failed');
    expect(waits).to.have.length(1);
  });
});
