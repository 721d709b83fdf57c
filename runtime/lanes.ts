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

/** Permits of one kind for one lane: how many it may hand out now, a count and the callers waiting for one. */
class Permits {
  held = 0;
  readonly waiters: Waiter[] = [];
  constructor(readonly limit: () => number) {}
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
  private readonly interactive: Record<Kind, Permits>;
  private readonly batch: Record<Kind, Permits>;
  /** The batch lane's sticky polls (only workflow tasks have them), within `batchSlots`. */
  private readonly sticky: Permits;
  /** Interactive tasks running now (marked used, not yet released). */
  private running = 0;
  private lastInteractiveEnd = Number.NEGATIVE_INFINITY;
  private widenTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: LaneOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    const interactive = (kind: Kind) => new Permits(() => options.interactiveSlots[kind]);
    const batch = () => new Permits(() => (this.busy() ? options.busyBatchSlots : options.batchSlots));
    this.interactive = { workflow: interactive('workflow'), activity: interactive('activity') };
    this.batch = { workflow: batch(), activity: batch() };
    this.sticky = new Permits(() => options.batchSlots);
  }

  /** Whether batch slots are narrowed now: interactive work runs or ran within the quiet time. */
  busy(): boolean {
    return this.running > 0 || this.now() - this.lastInteractiveEnd < this.options.quietMs;
  }

  /** Batch slots of a kind held now (reserved for a poll or running), for metrics and tests. */
  batchHeld(kind: Kind): number {
    return this.batch[kind].held;
  }

  interactiveSupplier<SI extends WorkflowSlotInfo | ActivitySlotInfo>(kind: Kind): CustomSlotSupplier<SI> {
    return this.supplier<SI>(this.interactive[kind], {
      used: () => this.running++,
      released: () => {
        this.running--;
        this.lastInteractiveEnd = this.now();
        if (this.running === 0) this.widenLater();
      },
    });
  }

  /**
   * The batch lane's new work narrows; a sticky poll (the next task of a workflow this worker already runs, which
   * finishes a started document) has slots of its own, so it never takes the narrow lane's only slots while it waits.
   */
  batchSupplier<SI extends WorkflowSlotInfo | ActivitySlotInfo>(kind: Kind): CustomSlotSupplier<SI> {
    return this.supplier<SI>(this.batch[kind], {}, kind === 'workflow' ? this.sticky : undefined);
  }

  /** Stops the timer that widens the batch lane (the worker is shutting down). */
  close(): void {
    clearTimeout(this.widenTimer);
  }

  private supplier<SI extends SlotInfo>(
    permits: Permits,
    on: { used?: () => void; released?: () => void },
    sticky?: Permits,
  ): CustomSlotSupplier<SI> {
    // Which permits a reservation draws on; the permit says so itself, for its release.
    const poolOf = (ctx: { isSticky: boolean }) => (sticky && ctx.isSticky ? sticky : permits);
    const permitOf = (pool: Permits) => ({ sticky: pool !== permits });
    return {
      type: 'custom',
      reserveSlot: async (ctx, abortSignal) => {
        const pool = poolOf(ctx);
        await this.reserve(pool, abortSignal);
        return permitOf(pool);
      },
      tryReserveSlot: (ctx) => {
        const pool = poolOf(ctx);
        if (pool.held >= pool.limit()) return null;
        pool.held++;
        return permitOf(pool);
      },
      markSlotUsed: () => on.used?.(),
      // A slot released with no task's info was reserved for a poll that found nothing.
      releaseSlot: (ctx: SlotReleaseContext<SI>) => {
        ((ctx.permit as { sticky?: boolean }).sticky && sticky ? sticky : permits).held--;
        if (ctx.slotInfo) on.released?.();
        this.wakeAll();
      },
    };
  }

  /**
   * Waits for a free permit. Temporal's core aborts a reservation whose poll it no longer needs; an abort that comes
   * after the permit was granted means core dropped the reservation before the permit reached it (core disarms the
   * signal once it has the permit), so the permit is counted back: without that, each such race held a slot forever.
   */
  private reserve(permits: Permits, abortSignal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let granted = false;
      const waiter: Waiter = {
        resolve: () => {
          granted = true;
          permits.held++;
          resolve();
        },
      };
      const onAbort = () => {
        if (granted) {
          permits.held--;
          this.wakeAll();
          return;
        }
        const at = permits.waiters.indexOf(waiter);
        if (at >= 0) permits.waiters.splice(at, 1);
        // The signal's own reason: the SDK logs any other rejection of an aborted reservation as an error.
        reject(abortSignal.reason);
      };
      if (abortSignal.aborted) return onAbort();
      abortSignal.addEventListener('abort', onAbort, { once: true });
      permits.waiters.push(waiter);
      this.wake(permits);
    });
  }

  /** Hands free permits to waiters in arrival order. */
  private wake(permits: Permits): void {
    while (permits.waiters.length > 0 && permits.held < permits.limit()) permits.waiters.shift()!.resolve();
  }

  private wakeAll(): void {
    for (const permits of [...Object.values(this.interactive), ...Object.values(this.batch), this.sticky])
      this.wake(permits);
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
