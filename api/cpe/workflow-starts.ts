import type { Client } from '@temporalio/client';
import { logger } from '../../core/logger';
import { markWorkflowStarted } from '../../db/document-starts';
import type { Db } from '../../db/knex';
import { workflowStartFailures } from '../../core/metrics';
import {
  START_FAILURE_FIXES,
  startable,
  startDocumentWorkflow,
  startFailure,
  type StartableDocument,
  type StartFailureReason,
} from '../../workflows/document-client';
import { taskPriority, type WorkKind } from '../../workflows/priority-types';
import { FairQueue } from './fair-queue';
import { AccountBurst, type Admission } from './account-burst';

export interface WorkflowStartsOptions {
  /** Starts in flight at once; Temporal's dev server accepts ~130/s, more concurrency only queues inside it. */
  concurrency: number;
  /** Of those, batch starts at most: the rest stay free for an interactive start that arrives behind a flood's. */
  batchConcurrency: number;
  /** Documents waiting beyond this are left to the sweeper instead of growing memory without bound. */
  maxQueued: number;
  /** How long one start may take before it is given up (and left to the sweeper). */
  startDeadlineMs: number;
  /** An account's documents past this many lately go as batch (CHASQUI_ACCOUNT_BURST; 0 never; account-burst.ts). */
  accountBurst: number;
  /** The seconds in which an account's level drains from `accountBurst` to nothing. */
  burstWindowSeconds: number;
  /** How long after another account's last document within its burst a flood is held to the drain rate. */
  quietMs: number;
}

const DEFAULTS: WorkflowStartsOptions = {
  concurrency: 32,
  batchConcurrency: 8,
  maxQueued: 20_000,
  startDeadlineMs: 5_000,
  accountBurst: 0,
  burstWindowSeconds: 10,
  quietMs: 3_000,
};

/** The queue's lanes: a backfill's starts wait behind every interactive one. */
const LANES: Record<Extract<WorkKind, 'interactive' | 'batch'>, number> = { interactive: 0, batch: 1 };

interface QueuedStart {
  doc: StartableDocument;
  kind: keyof typeof LANES;
}

/**
 * Starts document workflows right after their commit, off the request's critical path. The committed row is the
 * outbox: its `workflow_started_at` stays null until Temporal has accepted the start, so a start lost here (process
 * killed, Temporal unreachable, queue full) is made by the sweeper instead. Starts are idempotent, so a document
 * started twice (here and by the sweeper) still has one workflow. Confirmed starts are marked in batches.
 * With fairness on (CHASQUI_FAIRNESS), the queue takes accounts in turn and each start carries its priority and the
 * account's fairness key; `admit` says, before a document is signed, whether it starts as batch (its account past its
 * burst) or waits (a flood while others issue); a batch start never asks for eager execution, which would bypass
 * Temporal's matching and with it the priority order (docs/delivery.md).
 */
export class WorkflowStarts {
  private readonly options: WorkflowStartsOptions;
  private readonly queue = new FairQueue<QueuedStart>(2);
  private readonly burst: AccountBurst;
  private inFlight = 0;
  private batchInFlight = 0;
  private confirmed: string[] = [];
  private marking: Promise<void> | null = null;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  /** Per reason: when a failed start was last logged, and how many failed since (one line a minute per cause). */
  private readonly failuresLogged = new Map<StartFailureReason, { at: number; since: number }>();

  constructor(
    private readonly deps: { db: Db; temporal: Client; taskQueue: string; fairness: boolean; eager?: boolean },
    options: Partial<WorkflowStartsOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const { accountBurst, burstWindowSeconds, quietMs } = this.options;
    this.burst = new AccountBurst(accountBurst, burstWindowSeconds, quietMs);
  }

  /**
   * Before anything is signed: the kind a document of `account` starts as, or how long the account waits (a flood
   * while another account issues; account-burst.ts). Fairness off: always the declared kind, arrival order.
   */
  admit(account: string, declared: QueuedStart['kind']): Admission {
    return this.deps.fairness ? this.burst.admit(account, declared) : { kind: declared };
  }

  /** Hands a committed document over; returns at once. */
  enqueue(doc: StartableDocument, kind: QueuedStart['kind'] = 'interactive'): void {
    if (this.closed || this.queue.size >= this.options.maxQueued) {
      logger.warn(
        { externalId: doc.id, queued: this.queue.size },
        'workflow start not queued; the sweeper will start it',
      );
      return;
    }
    // Fairness off: one lane, one key, the arrival order.
    if (this.deps.fairness) this.queue.push(LANES[kind], doc.account_id, { doc: startable(doc), kind });
    else this.queue.push(0, '', { doc: startable(doc), kind });
    this.pump();
  }

  /** Resolves once every document handed over so far has been started (or given up) and marked. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking documents and waits for those already handed over, at most `ms`; the rest is the sweeper's. */
  async close(ms = 10_000): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private pump(): void {
    while (this.inFlight < this.options.concurrency) {
      const batchRoom = this.batchInFlight < this.options.batchConcurrency;
      const next = this.queue.shift(batchRoom ? LANES.batch : LANES.interactive);
      if (!next) return;
      const batch = this.deps.fairness && next.kind === 'batch';
      this.inFlight++;
      if (batch) this.batchInFlight++;
      void this.start(next).finally(() => {
        this.inFlight--;
        if (batch) this.batchInFlight--;
        this.pump();
        this.settle();
      });
    }
  }

  private async start({ doc, kind }: QueuedStart): Promise<void> {
    const priority = taskPriority(this.deps, kind, doc.account_id);
    const eager = this.deps.eager && (kind === 'interactive' || !this.deps.fairness);
    try {
      await this.deps.temporal.withDeadline(Date.now() + this.options.startDeadlineMs, () =>
        startDocumentWorkflow(this.deps.temporal, this.deps.taskQueue, doc, { eager, priority }),
      );
      this.confirmed.push(doc.id);
      this.marking ??= this.markConfirmed();
    } catch (err) {
      this.failed(doc.id, err);
    }
  }

  /** Counted each time; logged once a minute per cause (600 documents refused for one reason are one line, not 600). */
  private failed(externalId: string, err: unknown): void {
    const { reason, cause } = startFailure(err);
    workflowStartFailures.inc({ reason });
    const last = this.failuresLogged.get(reason);
    if (last && Date.now() - last.at < 60_000) {
      last.since++;
      return;
    }
    this.failuresLogged.set(reason, { at: Date.now(), since: 0 });
    logger.warn(
      { externalId, reason, cause, failedSinceLastLine: last?.since ?? 0 },
      `document committed but its workflow did not start (${reason}: ${cause}); the sweeper will start it; fix: ${START_FAILURE_FIXES[reason]}`,
    );
  }

  /** One UPDATE for every start confirmed while the previous one ran. */
  private async markConfirmed(): Promise<void> {
    while (this.confirmed.length > 0) {
      const ids = this.confirmed;
      this.confirmed = [];
      try {
        await markWorkflowStarted(this.deps.db, ids);
      } catch (err) {
        // Unmarked documents are started again by the sweeper, which is harmless (the start is idempotent).
        logger.warn({ err, count: ids.length }, 'could not mark started workflows');
      }
    }
    this.marking = null;
    this.settle();
  }

  private isIdle(): boolean {
    return this.queue.size === 0 && this.inFlight === 0 && this.marking === null;
  }

  private settle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
