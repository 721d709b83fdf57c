import type { WorkKind } from '../../workflows/priority-types';

type Kind = Extract<WorkKind, 'interactive' | 'batch'>;

/** What an account's next document gets: the kind it starts as, or a wait (429 with Retry-After). */
export type Admission = { kind: Kind } | { retryAfterSeconds: number };

interface Mark {
  account: string;
  at: number;
}

/**
 * Each account's share of the intake (issue 40, docs/delivery.md "An account's burst, and its share while others issue"). An account has a
 * level that each document it issues raises by one and that drains at `burst / windowSeconds` a second. Up to `burst`
 * its documents keep the kind they declare; past it they go as batch work, which the workers' batch lane serves as
 * interactive work allows (runtime/lanes.ts). The level stops at twice the burst. There, while another account issues
 * within its burst (did so within `quietMs`), the account's next document waits until the level drains by one: a
 * flood then enters at the drain rate and leaves the machine's CPU, Temporal and PostgreSQL to the accounts that issue
 * now and then; with nobody else issuing, it enters as fast as the API takes it. Two floods do not hold each other
 * back (neither issues within its burst). Per API process; the map forgets accounts whose level drained.
 */
export class AccountBurst {
  private readonly levels = new Map<string, { level: number; at: number }>();
  private readonly drainPerMs: number;
  /** Where the level stops: twice the burst. */
  private readonly cap: number;
  /** The latest document taken within its account's burst, and the latest of another account than that one's. */
  private light: Mark | null = null;
  private otherLight: Mark | null = null;

  constructor(
    private readonly burst: number,
    windowSeconds: number,
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.drainPerMs = burst / (windowSeconds * 1000);
    this.cap = 2 * burst;
  }

  /** Counts one document of `account` that declares `declared`, or says how long it waits (0 turns the meter off). */
  admit(account: string, declared: Kind): Admission {
    if (this.burst <= 0) return { kind: declared };
    const at = this.now();
    const last = this.levels.get(account);
    const level = Math.max(0, last ? last.level - (at - last.at) * this.drainPerMs : 0);
    if (level + 1 > this.cap && this.othersIssue(account, at))
      return { retryAfterSeconds: Math.max(1, Math.ceil((level + 1 - this.cap) / this.drainPerMs / 1000)) };
    this.levels.set(account, { level: Math.min(level + 1, this.cap), at });
    if (this.levels.size > 10_000) this.forgetDrained(at);
    if (level + 1 > this.burst) return { kind: 'batch' };
    // A document declared batch asks for no one's patience: only interactive ones make a flood wait.
    if (declared === 'interactive') this.markLight(account, at);
    return { kind: declared };
  }

  private othersIssue(account: string, at: number): boolean {
    return [this.light, this.otherLight].some((m) => m !== null && m.account !== account && at - m.at < this.quietMs);
  }

  private markLight(account: string, at: number): void {
    if (this.light && this.light.account !== account) this.otherLight = this.light;
    this.light = { account, at };
  }

  private forgetDrained(at: number): void {
    for (const [key, { level, at: then }] of this.levels)
      if (level - (at - then) * this.drainPerMs <= 0) this.levels.delete(key);
  }
}
