/**
 * The heavy-work pool (docs/security.md, "Availability"): a fixed number of worker threads that render PDFs, open
 * PKCS#12 uploads and read externally signed XML, so the API's event loop never runs them. Each task is tagged with
 * its account; accounts wait in queues of their own, bounded each (past it a 429) and together (a 503), and free
 * threads go round robin over the accounts with work. An account runs at most `runningPerAccount` tasks at once (by
 * default one thread fewer than the pool), so another account's task finds a thread without waiting for its turn. A task over its time is ended with its thread; a thread whose isolate ran out of heap, or holds more than
 * `recycleMb` after a task, is replaced. Threads start when work first needs them.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { HeavyTasks } from './tasks';
import { heavyQueued, heavyRefused, heavyRunning, heavyTaskSeconds } from '../core/metrics';
import { logger } from '../core/logger';
import type { HeavyConfig } from '../core/heavy-config';

export interface HeavyPoolOptions extends HeavyConfig {
  /** The module whose `TASKS` the threads run: heavy/tasks.ts unless a test gives tasks of its own. */
  tasksModule?: string;
}

/** What a pool's threads can run: task functions by kind, plain values in and out. */
export type TaskTable = Record<string, (input: never) => unknown>;

/** Past a queue's bound: `account` (the caller's own queue, a 429) or `total` (the pool's, a 503). */
export class HeavyRefusedError extends Error {
  constructor(
    readonly bound: 'account' | 'total',
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
    this.name = 'HeavyRefusedError';
  }
}

/** A task that did not finish: over its time, out of heap, or its thread died; `limitMs` is the time it had. */
export class HeavyFailedError extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'crashed',
    readonly limitMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'HeavyFailedError';
  }
}

interface Task {
  account: string;
  kind: string;
  input: unknown;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  startedAt: number;
  timer: NodeJS.Timeout | null;
}

/** This file is the TypeScript source (development), not the compiled layout's JavaScript (npm run build). */
const fromSources = __filename.endsWith('.ts');
/**
 * The thread's source: from the sources tsx registered as bin/chasqui does, then heavy/thread by its absolute path
 * (.ts or the compiled .js: named without its extension).
 */
const BOOT = `${fromSources ? `require(${JSON.stringify(require.resolve('tsx/cjs'))});` : ''}
require(require('node:worker_threads').workerData.module);`;
const THREAD_MODULE = path.resolve(__dirname, 'thread');
const TASKS_MODULE = path.resolve(__dirname, 'tasks');

type Answer =
  { ready: true } | { ok: true; value: unknown; held: number } | { ok: false; message: string; held: number };

export class HeavyPool<T extends TaskTable = HeavyTasks> {
  private readonly queues = new Map<string, Task[]>();
  private readonly running = new Map<string, number>();
  private readonly slots = new Set<Slot>();
  private waiting = 0;
  /** Recent task seconds, for Retry-After. */
  private averageSeconds = 1;
  private closed = false;

  constructor(readonly options: HeavyPoolOptions) {}

  /** Runs `kind` for `account` in a thread; rejects with HeavyRefusedError past a bound, HeavyFailedError when ended. */
  run<K extends keyof T & string>(
    account: string,
    kind: K,
    input: Parameters<T[K]>[0],
    timeoutMs = this.options.timeoutMs,
  ): Promise<Awaited<ReturnType<T[K]>>> {
    if (this.closed) return Promise.reject(new Error('the heavy-work pool is closed'));
    return new Promise((resolve, reject) => {
      const task: Task = { account, kind, input, timeoutMs, resolve: resolve as Task['resolve'], reject };
      const queue = this.queues.get(account) ?? [];
      this.queues.set(account, queue);
      queue.push(task);
      this.setWaiting(1);
      this.dispatch();
      if (queue.at(-1) !== task) return;
      const refusal = this.refusal(queue.length, this.waiting);
      if (!refusal) return;
      queue.pop();
      if (!queue.length) this.queues.delete(account);
      this.setWaiting(-1);
      heavyRefused.inc({ reason: refusal.bound });
      reject(refusal);
    });
  }

  /** Ends every thread; what waits or runs is rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values()) for (const task of queue) task.reject(new Error('the pool closed'));
    this.setWaiting(-this.waiting);
    this.queues.clear();
    await Promise.all([...this.slots].map((slot) => this.drop(slot, new Error('the pool closed'))));
  }

  /** Threads alive now (tests: a thread ended past its bounds is replaced, not leaked). */
  get threads(): number {
    return this.slots.size;
  }

  /**
   * The refusal a task of `account` would get now, queuing nothing: a caller asks before costly preparation (reading
   * a large XML) that a refused task would waste.
   */
  refusalFor(account: string): HeavyRefusedError | null {
    const free = this.slots.size < this.options.workers || [...this.slots].some((slot) => !slot.task);
    if (free && !this.waiting && (this.running.get(account) ?? 0) < this.options.runningPerAccount) return null;
    return this.refusal((this.queues.get(account)?.length ?? 0) + 1, this.waiting + 1);
  }

  /** Past a bound with `queued` tasks of the account and `waiting` in all, counting the one asking. */
  private refusal(queued: number, waiting: number): HeavyRefusedError | null {
    const { queuePerAccount, queueTotal, workers } = this.options;
    const retryAfter = Math.min(60, Math.max(1, Math.ceil((this.averageSeconds * (waiting + 1)) / workers)));
    if (queued > queuePerAccount)
      return new HeavyRefusedError(
        'account',
        retryAfter,
        `This account already has ${queuePerAccount} PDF, certificate or XML tasks waiting (its queue's bound); try again in ${retryAfter} s`,
      );
    if (waiting > queueTotal)
      return new HeavyRefusedError(
        'total',
        retryAfter,
        `The service has ${queueTotal} PDF, certificate or XML tasks waiting (the pool's bound); try again in ${retryAfter} s`,
      );
    return null;
  }

  private setWaiting(delta: number): void {
    this.waiting += delta;
    heavyQueued.inc(delta);
  }

  /** Starts waiting tasks while a thread is idle or one more may start. */
  private dispatch(): void {
    for (;;) {
      const idle = [...this.slots].find((slot) => !slot.task);
      if (!idle && this.slots.size >= this.options.workers) return;
      const task = this.nextTask();
      if (!task) return;
      this.start(idle ?? this.spawn(), task);
    }
  }

  /** Round robin over accounts with work; one at its running cap waits, so that it never holds the whole pool. */
  private nextTask(): Task | null {
    const account = [...this.queues.keys()].find((a) => (this.running.get(a) ?? 0) < this.options.runningPerAccount);
    if (account === undefined) return null;
    const queue = this.queues.get(account)!;
    const task = queue.shift()!;
    // To the end of the ring: the next free thread goes to the next account.
    this.queues.delete(account);
    if (queue.length) this.queues.set(account, queue);
    this.setWaiting(-1);
    return task;
  }

  private spawn(): Slot {
    const worker = new Worker(BOOT, {
      eval: true,
      workerData: { module: THREAD_MODULE, tasks: this.options.tasksModule ?? TASKS_MODULE },
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    const slot: Slot = { worker, ready: false, task: null, startedAt: 0, timer: null };
    this.slots.add(slot);
    worker.unref();
    worker.on('message', (answer: Answer) => this.answered(slot, answer));
    worker.on('error', (err: Error & { code?: string }) => {
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      void this.end(
        slot,
        memory ? 'memory' : 'crashed',
        memory ? `the task ran out of its ${this.options.heapMb} MB heap` : `the task's thread failed: ${err.message}`,
      );
    });
    worker.on('exit', () => void this.end(slot, 'crashed', 'the task thread exited'));
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    this.running.set(task.account, (this.running.get(task.account) ?? 0) + 1);
    heavyRunning.inc();
    slot.worker.postMessage({ kind: task.kind, input: task.input });
    if (slot.ready) this.startClock(slot);
  }

  /** The task's time counts from when its thread can run it (a new thread first loads its modules). */
  private startClock(slot: Slot): void {
    const task = slot.task!;
    slot.startedAt = performance.now();
    slot.timer = setTimeout(
      () => void this.end(slot, 'timeout', `the task took longer than ${task.timeoutMs / 1000} s`),
      task.timeoutMs,
    );
  }

  private answered(slot: Slot, answer: Answer): void {
    if ('ready' in answer) {
      slot.ready = true;
      if (slot.task) this.startClock(slot);
      return;
    }
    const task = this.finish(slot, answer.ok ? 'ok' : 'error');
    if (!task) return;
    if (answer.ok) task.resolve(answer.value);
    else task.reject(new Error(answer.message));
    if (answer.held > this.options.recycleMb * 1024 * 1024) {
      logger.info({ kind: task.kind, heldMb: Math.round(answer.held / 2 ** 20) }, 'heavy thread replaced after a task');
      void this.drop(slot, null);
    }
    this.dispatch();
  }

  /** The task leaves its thread: counted, and the thread is idle again (or about to be dropped). */
  private finish(slot: Slot, outcome: string): Task | null {
    const task = slot.task;
    if (!task) return null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = null;
    slot.timer = null;
    const running = (this.running.get(task.account) ?? 1) - 1;
    if (running) this.running.set(task.account, running);
    else this.running.delete(task.account);
    heavyRunning.dec();
    if (slot.startedAt) {
      const seconds = (performance.now() - slot.startedAt) / 1000;
      heavyTaskSeconds.observe({ kind: task.kind, outcome }, seconds);
      this.averageSeconds = this.averageSeconds * 0.8 + seconds * 0.2;
    }
    slot.startedAt = 0;
    return task;
  }

  /** The thread is ended with its task, which is answered with why; a new thread takes its place when work needs it. */
  private async end(slot: Slot, reason: HeavyFailedError['reason'], message: string): Promise<void> {
    if (!this.slots.has(slot)) return;
    const task = this.finish(slot, reason);
    if (task) {
      heavyRefused.inc({ reason });
      task.reject(new HeavyFailedError(reason, task.timeoutMs, message));
    }
    await this.drop(slot, null);
    this.dispatch();
  }

  private async drop(slot: Slot, err: Error | null): Promise<void> {
    if (!this.slots.delete(slot)) return;
    const task = this.finish(slot, 'crashed');
    if (task && err) task.reject(err);
    slot.worker.removeAllListeners();
    // An error after this point has no task left to answer.
    slot.worker.on('error', () => undefined);
    await slot.worker.terminate();
  }
}
