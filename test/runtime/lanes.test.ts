import { expect } from 'chai';
import type { CustomSlotSupplier, SlotReserveContext, WorkflowSlotInfo } from '@temporalio/worker';
import { Lanes } from '../../runtime/lanes';

const ctx = { slotType: 'activity', taskQueue: 'q', workerIdentity: 'w', workerBuildId: '', isSticky: false };
const task: WorkflowSlotInfo = { type: 'workflow', workflowType: 'documentWorkflow', isSticky: false };
type Supplier = CustomSlotSupplier<WorkflowSlotInfo>;

/** A reservation's outcome so far: a permit, an abort, or still waiting. */
function reserve(supplier: Supplier, signal = new AbortController().signal, isSticky = false) {
  const state: { permit?: object; error?: Error } = {};
  supplier.reserveSlot({ ...ctx, isSticky } as SlotReserveContext, signal).then(
    (permit) => (state.permit = permit),
    (error: Error) => (state.error = error),
  );
  return state;
}
const settled = () => new Promise((resolve) => setImmediate(resolve));
const run = (supplier: Supplier, permit: object) => supplier.markSlotUsed({ slotInfo: task, permit });
const release = (supplier: Supplier, permit: object, used = true) =>
  supplier.releaseSlot({ slotInfo: used ? task : undefined, permit });

/** An interactive workflow task running (the batch lane narrows); the function ends it. */
async function interactiveTask(lanes: Lanes): Promise<() => void> {
  const interactive = lanes.interactiveSupplier<WorkflowSlotInfo>('workflow');
  const mine = reserve(interactive);
  await settled();
  run(interactive, mine.permit!);
  return () => release(interactive, mine.permit!);
}

/**
 * The worker's two lanes (runtime/lanes.ts) driven as Temporal's core drives a slot supplier: reserve before a poll,
 * mark used when a task arrives, release when it ends (or when the poll found nothing). The clock is injected.
 */
describe('Lanes: batch slots narrow while interactive work runs', () => {
  let now = 0;
  let lanes: Lanes;
  beforeEach(() => {
    now = 0;
    lanes = new Lanes(
      { interactiveSlots: { workflow: 2, activity: 2 }, batchSlots: 4, busyBatchSlots: 2, quietMs: 1_000 },
      () => now,
    );
  });
  afterEach(() => lanes.close());

  it('gives the batch lane all its slots while no interactive work ran, then narrows it while some runs', async () => {
    const batch = lanes.batchSupplier<WorkflowSlotInfo>('activity');
    const interactive = lanes.interactiveSupplier<WorkflowSlotInfo>('activity');
    const held = [1, 2, 3, 4].map(() => reserve(batch));
    await settled();
    expect(held.every((r) => r.permit)).to.equal(true);
    expect(lanes.batchHeld('activity')).to.equal(4);
    // An interactive task arrives: the four batch tasks already running go on, but two must end before one more starts.
    const mine = reserve(interactive);
    await settled();
    run(interactive, mine.permit!);
    expect(lanes.busy()).to.equal(true);
    release(batch, held[0].permit!);
    const fifth = reserve(batch);
    await settled();
    expect(fifth.permit, 'three held, two allowed').to.equal(undefined);
    release(batch, held[1].permit!);
    await settled();
    expect(fifth.permit, 'still two held after it would make three').to.equal(undefined);
    release(batch, held[2].permit!);
    await settled();
    expect(fifth.permit).to.be.an('object');
    expect(batch.tryReserveSlot(ctx as SlotReserveContext), 'no eager batch task while narrowed').to.equal(null);
  });

  it('stays narrow for the quiet time after the last interactive task, then widens by itself', async () => {
    lanes = new Lanes({
      interactiveSlots: { workflow: 2, activity: 2 },
      batchSlots: 4,
      busyBatchSlots: 2,
      quietMs: 30,
    });
    const batch = lanes.batchSupplier<WorkflowSlotInfo>('workflow');
    const ended = await interactiveTask(lanes);
    const waiting = [1, 2, 3].map(() => reserve(batch));
    await settled();
    expect(waiting.filter((r) => r.permit).length).to.equal(2);
    ended();
    await settled();
    expect(lanes.busy(), 'within the quiet time').to.equal(true);
    expect(waiting[2].permit).to.equal(undefined);
    // The lane's own timer wakes the waiter once the quiet time has passed (30 ms here, 3 s by default).
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lanes.busy()).to.equal(false);
    expect(waiting[2].permit).to.be.an('object');
  });

  it('never gives the interactive lane more than its slots, and a slot released unused is not a task', async () => {
    const interactive = lanes.interactiveSupplier<WorkflowSlotInfo>('workflow');
    const [a, b, c] = [1, 2, 3].map(() => reserve(interactive));
    await settled();
    expect([a.permit, b.permit, c.permit].filter(Boolean).length).to.equal(2);
    // A poll that found nothing gives its slot back without a task: the batch lane does not count it as interactive.
    release(interactive, a.permit!, false);
    await settled();
    expect(c.permit).to.be.an('object');
    expect(lanes.busy(), 'no interactive task has run').to.equal(false);
  });

  it("answers an aborted reservation with the signal's AbortError and forgets it", async () => {
    const batch = lanes.batchSupplier<WorkflowSlotInfo>('activity');
    [1, 2, 3, 4].map(() => reserve(batch));
    const abort = new AbortController();
    const fifth = reserve(batch, abort.signal);
    await settled();
    abort.abort();
    await settled();
    expect(fifth.error, "the signal's own reason, which the SDK expects").to.equal(abort.signal.reason);
    expect(fifth.error?.name).to.equal('AbortError');
    expect(lanes.batchHeld('activity')).to.equal(4);
  });

  it("keeps slots for sticky polls apart: a workflow's next task never waits behind the narrowed lane", async () => {
    const batch = lanes.batchSupplier<WorkflowSlotInfo>('workflow');
    await interactiveTask(lanes);
    const polls = [1, 2, 3].map(() => reserve(batch));
    const stickyPoll = reserve(batch, undefined, true);
    await settled();
    expect(polls.filter((r) => r.permit).length, 'new work: the narrow width').to.equal(2);
    expect(stickyPoll.permit, 'a sticky poll has its own slots').to.deep.equal({ sticky: true });
    // Its release frees its own pool, not the narrowed one.
    release(batch, stickyPoll.permit!, false);
    await settled();
    expect(polls[2].permit).to.equal(undefined);
    expect(lanes.batchHeld('workflow')).to.equal(2);
  });

  it('counts back a permit whose reservation core dropped after it was granted (no slot held forever)', async () => {
    const batch = lanes.batchSupplier<WorkflowSlotInfo>('workflow');
    const abort = new AbortController();
    const dropped = reserve(batch, abort.signal);
    await settled();
    expect(dropped.permit).to.be.an('object');
    expect(lanes.batchHeld('workflow')).to.equal(1);
    // Core aborts only while it still awaits the answer: the permit never reached it, and nothing will release it.
    abort.abort();
    expect(lanes.batchHeld('workflow')).to.equal(0);
    const all = [1, 2, 3, 4].map(() => reserve(batch));
    await settled();
    expect(
      all.every((r) => r.permit),
      'all four slots free again',
    ).to.equal(true);
  });
});
