import path from 'node:path';
import { expect } from 'chai';
import { HeavyFailedError, HeavyPool, HeavyRefusedError, type HeavyPoolOptions } from '../../heavy/pool';
import type { TASKS } from './test-tasks';
import { registry } from '../../core/metrics';

const TASKS_MODULE = path.resolve(__dirname, 'test-tasks.ts');

function pool(options: Partial<HeavyPoolOptions> = {}): HeavyPool<typeof TASKS> {
  return new HeavyPool<typeof TASKS>({
    workers: 2,
    queuePerAccount: 10,
    queueTotal: 100,
    runningPerAccount: 1,
    timeoutMs: 10_000,
    heapMb: 64,
    recycleMb: 256,
    tasksModule: TASKS_MODULE,
    ...options,
  });
}

const counter = async (name: string, labels: Record<string, string>) =>
  ((await registry.getSingleMetric(name)!.get()).values.find((v) =>
    Object.entries(labels).every(([k, l]) => v.labels[k] === l),
  )?.value ?? 0) as number;

describe('heavy-work pool (heavy/pool.ts)', function () {
  this.timeout(60_000);
  const pools: HeavyPool<typeof TASKS>[] = [];
  const make = (options: Partial<HeavyPoolOptions> = {}) => {
    const made = pool(options);
    pools.push(made);
    return made;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it('serves accounts round robin: a second account is not behind the first one’s queue', async () => {
    const heavy = make({ workers: 1 });
    const order: string[] = [];
    const run = (account: string, tag: string) =>
      heavy.run(account, 'spin', { ms: 30, tag }).then((t) => void order.push(t));
    // The thread starts first; then the flooder queues four tasks before the other account's one arrives.
    const all = [run('a', 'a0'), run('a', 'a1'), run('a', 'a2'), run('a', 'a3'), run('a', 'a4'), run('b', 'b0')];
    await Promise.all(all);
    expect(order.indexOf('b0'), order.join(' ')).to.be.at.most(2);
  });

  it('keeps a thread for others: an account at its running cap waits even with a thread idle', async () => {
    const heavy = make({ workers: 2, runningPerAccount: 1 });
    // Both threads started first (each boots in 1-3 s on a loaded machine), so the race below is a0's 200 ms against b0's 10.
    await Promise.all(['w', 'x'].map((account) => heavy.run(account, 'spin', { ms: 1, tag: account })));
    const started: string[] = [];
    const a = [0, 1, 2].map((i) => heavy.run('a', 'spin', { ms: 200, tag: `a${i}` }).then((t) => started.push(t)));
    const b = heavy.run('b', 'spin', { ms: 10, tag: 'b0' }).then((t) => started.push(t));
    await Promise.all([...a, b]);
    // Two threads, a cap of one: a1 waits for a0 although the second thread is idle, so b0 starts at once and ends first.
    expect(started.indexOf('b0'), started.join(' ')).to.equal(0);
  });

  it("answers past an account's queue bound with its own refusal (429) and past the pool's with another (503)", async () => {
    const heavy = make({ workers: 1, queuePerAccount: 2, queueTotal: 3 });
    const refusedBefore = await counter('chasqui_heavy_refused_total', { reason: 'account' });
    const settle = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (err: Error) => err,
      );
    expect(heavy.refusalFor('a'), 'an idle pool refuses nobody').to.equal(null);
    const running = settle(heavy.run('a', 'spin', { ms: 300, tag: 'a0' }));
    const waiting = [
      settle(heavy.run('a', 'spin', { ms: 1, tag: 'a1' })),
      settle(heavy.run('a', 'spin', { ms: 1, tag: 'a2' })),
    ];
    const overAccount = await settle(heavy.run('a', 'spin', { ms: 1, tag: 'a3' }));
    expect(overAccount).to.be.instanceOf(HeavyRefusedError).and.to.include({ bound: 'account' });
    expect((overAccount as HeavyRefusedError).retryAfterSeconds).to.be.within(1, 60);
    expect((overAccount as Error).message).to.match(/This account already has 2 .* waiting/);
    // Asked before any preparation, the same answer, and nothing queued by asking.
    expect(heavy.refusalFor('a')).to.include({ bound: 'account' });
    const b = settle(heavy.run('b', 'spin', { ms: 1, tag: 'b0' }));
    const overTotal = await settle(heavy.run('c', 'spin', { ms: 1, tag: 'c0' }));
    expect(overTotal).to.be.instanceOf(HeavyRefusedError).and.to.include({ bound: 'total' });
    expect((overTotal as Error).message).to.match(/The service has 3 .* waiting/);
    expect(heavy.refusalFor('d')).to.include({ bound: 'total' });
    expect(await Promise.all([running, ...waiting, b]), 'what was admitted ran').to.deep.equal([
      null,
      null,
      null,
      null,
    ]);
    expect(await counter('chasqui_heavy_refused_total', { reason: 'account' })).to.equal(refusedBefore + 1);
  });

  it('ends a task past its time with its thread, answers why, and serves the next task on a new thread', async () => {
    const heavy = make({ workers: 1 });
    const started = performance.now();
    const late = await heavy.run('a', 'spin', { ms: 5_000, tag: 'late' }, 100).catch((err: Error) => err);
    expect(late).to.be.instanceOf(HeavyFailedError).and.to.include({ reason: 'timeout', limitMs: 100 });
    expect(performance.now() - started).to.be.below(4_000);
    expect(heavy.threads).to.equal(0);
    expect(await heavy.run('a', 'spin', { ms: 1, tag: 'next' })).to.equal('next');
  });

  it('ends a task that outgrows its heap (resourceLimits) as `memory`, and the pool goes on', async () => {
    const heavy = make({ workers: 1, heapMb: 32 });
    const grown = await heavy.run('a', 'grow', undefined as never).catch((err: Error) => err);
    expect(grown).to.be.instanceOf(HeavyFailedError).and.to.include({ reason: 'memory' });
    expect(await heavy.run('a', 'spin', { ms: 1, tag: 'after' })).to.equal('after');
  });

  it('replaces a thread that keeps more than its bound outside the heap after a task', async () => {
    const heavy = make({ workers: 1, recycleMb: 40 });
    expect(await heavy.run('a', 'keep', { mb: 10 })).to.equal(1);
    expect(await heavy.run('a', 'keep', { mb: 10 }), 'the same thread keeps what it held').to.equal(2);
    expect(heavy.threads).to.equal(1);
    expect(await heavy.run('a', 'keep', { mb: 30 })).to.equal(3);
    // 50 MB held: past 40, the thread was ended after answering; the next task starts on a fresh one.
    expect(heavy.threads).to.equal(0);
    expect(await heavy.run('a', 'keep', { mb: 1 })).to.equal(1);
  });

  it("rejects with the task's own error and keeps the thread", async () => {
    const heavy = make({ workers: 1 });
    await heavy.run('a', 'spin', { ms: 1, tag: 'x' });
    const failed = await heavy.run('a', 'fail', undefined as never).catch((err: Error) => err);
    expect((failed as Error).message).to.equal('the task failed on purpose');
    expect(heavy.threads).to.equal(1);
  });
});
