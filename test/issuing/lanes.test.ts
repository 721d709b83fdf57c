import { expect } from 'chai';
import { batchTaskQueue } from '../../workflows/priority-types';
import { documentWorkflowId } from '../../workflows/document';
import { testConfig } from '../support/services';
import { issue, newCompany, payload, startIssuingStack, until, type IssuingStack } from './support';

const BATCH = 24;
const INTERACTIVE_EVERY = 4;

/**
 * The worker's two lanes on the real stack (runtime/lanes.ts): one account's backfill on the batch lane while another
 * account keeps the interactive lane busy, so the batch lane runs narrowed (two slots) from start to end. Every
 * document of both must reach its verdict: a narrowed lane slows a flood, it never stops it.
 */
describe('two lanes: a backfill beside interactive work', function () {
  this.timeout(240_000);
  let issuing: IssuingStack;

  before(async function () {
    this.timeout(120_000);
    const base = testConfig().temporal;
    issuing = await startIssuingStack({
      temporal: { ...base, lanes: { activityTaskSlots: 100, batchSlots: 4, busyBatchSlots: 2, quietMs: 2_000 } },
    });
  });
  after(() => issuing?.stop());

  it("delivers every document of the backfill through the narrowed batch lane, and the other account's at once", async () => {
    const { stack } = issuing;
    const backfill = await newCompany(stack);
    const other = await newCompany(stack);
    const batchIds: string[] = [];
    const interactiveIds: string[] = [];
    for (let i = 0; i < BATCH; i++) {
      const res = await issue(stack, backfill.token, payload('invoice-basic.json', backfill.ruc), {
        'Chasqui-Priority': 'batch',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      batchIds.push(res.body.external_id);
      if (i % INTERACTIVE_EVERY === 0) {
        const mine = await issue(stack, other.token, payload('invoice-basic.json', other.ruc));
        expect(mine.status, JSON.stringify(mine.body)).to.equal(202);
        interactiveIds.push(mine.body.external_id);
      }
    }
    for (const id of interactiveIds) expect((await until(stack, id, ['accepted'], 60_000)).status).to.equal('accepted');
    expect(stack.worker!.lanes!.busy(), 'the batch lane ran narrowed').to.equal(true);
    for (const id of batchIds) expect((await until(stack, id, ['accepted'], 120_000)).status).to.equal('accepted');
    const described = await stack.temporal.workflow.getHandle(documentWorkflowId(batchIds[BATCH - 1])).describe();
    expect(described.taskQueue).to.equal(batchTaskQueue(stack.config.temporal.taskQueue));
    // Never more held than the lane's width, whatever core reserves ahead of its polls.
    for (const kind of ['workflow', 'activity'] as const) expect(stack.worker!.lanes!.batchHeld(kind)).to.be.at.most(4);
  });
});
