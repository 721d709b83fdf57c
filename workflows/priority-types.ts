import type { Priority } from '@temporalio/common';

/**
 * Which work goes first in Temporal's task queue (docs/delivery.md, "Fair delivery between tenants"): each start
 * carries a priority key by the kind of work and a fairness key by account, so one account's backlog never holds
 * another's document behind it. Activities and child workflows inherit both from the workflow that runs them.
 *   urgent       what support or the account asks for by hand: a resend, a recheck, a redelivery, an e-mail again
 *   interactive  a document issued through the API, a notice started on its own, the sweeper (Temporal's default, 3,
 *                so a start without a key, a schedule's, shares this level)
 *   batch        daily summaries, voids, every company's checks, documents the API was told are a backfill
 */
export type WorkKind = 'urgent' | 'interactive' | 'batch';

/** Temporal's keys run from 1 (first) to 5 (matching.priorityLevels); 3 is the default of a start without one. */
export const PRIORITY_KEYS: Record<WorkKind, number> = { urgent: 2, interactive: 3, batch: 4 };

/** Summaries and voids are batch work; a document started again without the API's word on it is interactive. */
export function documentWorkKind(docType: string): WorkKind {
  return docType === 'rc' || docType === 'ra' || docType === 'rr' ? 'batch' : 'interactive';
}

/**
 * The sweeper's word on each document it starts, in its order: an account's first `burst` keep their type's kind, the
 * rest are batch, as the API's account burst would have had them (api/cpe/account-burst.ts). So a flood whose starts
 * were lost does not come back through the sweeper as interactive work beside everyone else's.
 */
export function sweptWorkKinds(docs: { doc_type: string; account_id: string }[], burst: number): WorkKind[] {
  const seen = new Map<string, number>();
  return docs.map((doc) => {
    const count = (seen.get(doc.account_id) ?? 0) + 1;
    seen.set(doc.account_id, count);
    return burst > 0 && count > burst ? 'batch' : documentWorkKind(doc.doc_type);
  });
}

/** CHASQUI_FAIRNESS: `off` starts everything without keys (one queue in arrival order, as before issue 40). */
export interface FairnessSetting {
  fairness: boolean;
}

/**
 * The start option. The fairness key is the account's id and nothing else (Temporal shows it to operators; at most
 * 64 bytes); `null` for work of no one account (the run of every company's checks), which shares the empty key
 * with every start that carries none.
 */
export function taskPriority(setting: FairnessSetting, kind: WorkKind, accountId: string | null): Priority | undefined {
  if (!setting.fairness) return undefined;
  return { priorityKey: PRIORITY_KEYS[kind], ...(accountId ? { fairnessKey: accountId } : {}) };
}

/** The batch lane's task queue beside `taskQueue` (runtime/lanes.ts: its slots yield to interactive work). */
export function batchTaskQueue(taskQueue: string): string {
  return `${taskQueue}-batch`;
}

/** Where a start of this priority goes: batch work on the batch lane's queue, everything else (and no key) on `taskQueue`. */
export function laneTaskQueue(taskQueue: string, priority: Priority | undefined): string {
  return priority?.priorityKey === PRIORITY_KEYS.batch ? batchTaskQueue(taskQueue) : taskQueue;
}
