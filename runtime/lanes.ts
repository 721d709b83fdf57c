import type {
  ActivitySlotInfo,
  CustomSlotSupplier,
  SlotInfo,
  SlotReleaseContext,
  WorkflowSlotInfo,
} from '@temporalio/worker';

/** How the batch lane yields (CHASQUI_BATCH_*; docs/delivery.md "Two lanes"). */
export interface LaneOptions {
  /** Interactive slots of one kind (workflow tasks, activities) a worker runs at once. */
  interactiveSlots: { workflow: number; activity: number };
  /** Batch slots of each kind while no interactive work ran lately. */
  batchSlots: number;
  /** Batch slots of each kind while interactive work runs or ran within `quietMs`. */
  busyBatchSlots: number;
  /** How long after the last interactive task the batch lane stays narrow. */
  quietMs: number;
}

interface Waiter {
  resolve: () => void;
}

/** Permits of one kind for one lane: a count and the callers waiting for one. */
class Permits {
  held = 0;
  readonly waiters: Waiter[] = [];
}

type Kind = 'workflow' | 'activity';

/**
 * One worker process's two lanes (issue 40). Interactive work (a document issued through the API) and batch work (a
 * flood's documents past the account's burst, voids, summaries) poll two task queues; Temporal's priority and
 * fairness keys order each queue, but once a worker runs a task nothing orders the CPU, the event loop, PostgreSQL
 * or the authority between them. So the batch lane's slots narrow to `busyBatchSlots` while interactive tasks run
 * (and for `quietMs` after), widening again when the interactive lane has been quiet: a flood keeps the machine
 * busy only while no one else is waiting, and never stops (at least one batch slot of each kind always).
 * Slots are reserved before a poll, so a narrowed lane leaves its tasks in Temporal, where they keep their order.
 */
export class Lanes {
  private readonly interactive: Record<Kind, Permits> = { workflow: new Permits(), activity: new Permits() };
  private readonly batch: Record<Kind, Permits> = { workflow: new Permits(), activity: new Permits() };
  /** Interactive tasks running now (marked used, not yet released). */
  private running = 0;
  private lastInteractiveEnd = Number.NEGATIVE_INFINITY;
  private widenTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: LaneOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether batch slots are narrowed now: interactive work runs or ran within the quiet time. */
  busy(): boolean {
    return this.running > 0 || this.now() - this.lastInteractiveEnd < this.options.quietMs;
  }

  /** Batch slots of a kind held now (reserved for a poll or running), for metrics and tests. */
  batchHeld(kind: Kind): number {
    return this.batch[kind].held;
  }

  interactiveSupplier<SI extends WorkflowSlotInfo | ActivitySlotInfo>(kind: Kind): CustomSlotSupplier<SI> {
    const permits = this.interactive[kind];
    const limit = () => this.options.interactiveSlots[kind];
    return this.supplier<SI>(permits, limit, {
      used: () => this.running++,
      released: () => {
        this.running--;
        this.lastInteractiveEnd = this.now();
        if (this.running === 0) this.widenLater();
      },
    });
  }

  batchSupplier<SI extends WorkflowSlotInfo | ActivitySlotInfo>(kind: Kind): CustomSlotSupplier<SI> {
    const limit = () => (this.busy() ? this.options.busyBatchSlots : this.options.batchSlots);
    return this.supplier<SI>(this.batch[kind], limit, {});
  }

  /** Stops the timer that widens the batch lane (the worker is shutting down). */
  close(): void {
    clearTimeout(this.widenTimer);
  }

  private supplier<SI extends SlotInfo>(
    permits: Permits,
    limit: () => number,
    on: { used?: () => void; released?: () => void },
  ): CustomSlotSupplier<SI> {
    return {
      type: 'custom',
      reserveSlot: (_ctx, abortSignal) => this.reserve(permits, limit, abortSignal),
      tryReserveSlot: () => {
        if (permits.held >= limit()) return null;
        permits.held++;
        return {};
      },
      markSlotUsed: () => on.used?.(),
      // A slot released with no task's info was reserved for a poll that found nothing.
      releaseSlot: (ctx: SlotReleaseContext<SI>) => {
        permits.held--;
        if (ctx.slotInfo) on.released?.();
        this.wakeAll();
      },
    };
  }

  private reserve(permits: Permits, limit: () => number, abortSignal: AbortSignal): Promise<object> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          abortSignal.removeEventListener('abort', onAbort);
          permits.held++;
          resolve({});
        },
      };
      const onAbort = () => {
        const at = permits.waiters.indexOf(waiter);
        if (at >= 0) permits.waiters.splice(at, 1);
        // The signal's own reason: the SDK logs any other rejection of an aborted reservation as an error.
        reject(abortSignal.reason);
      };
      if (abortSignal.aborted) return onAbort();
      abortSignal.addEventListener('abort', onAbort, { once: true });
      permits.waiters.push(waiter);
      this.wake(permits, limit);
    });
  }

  /** Hands free permits to waiters in arrival order. */
  private wake(permits: Permits, limit: () => number): void {
    while (permits.waiters.length > 0 && permits.held < limit()) permits.waiters.shift()!.resolve();
  }

  private wakeAll(): void {
    for (const kind of ['workflow', 'activity'] as const) {
      this.wake(this.interactive[kind], () => this.options.interactiveSlots[kind]);
      this.wake(this.batch[kind], () => (this.busy() ? this.options.busyBatchSlots : this.options.batchSlots));
    }
  }

  /** Once the interactive lane has been quiet for `quietMs`, batch waiters get the wide lane back. */
  private widenLater(): void {
    clearTimeout(this.widenTimer);
    this.widenTimer = setTimeout(() => {
      if (this.running === 0) this.wakeAll();
    }, this.options.quietMs + 1);
    this.widenTimer.unref();
  }
}
