/**
 * How much interactive work each account has started lately (issue 40): a level per account that each start raises
 * by one and that drains at `burst / windowSeconds` a second. While an account's level is past `burst`, its further
 * documents start at the batch priority, so an account with a flood's backlog never stands in front of one that
 * issues now and then, while its first `burst` documents of a quiet moment keep the interactive level. Per API
 * process; the map forgets accounts whose level drained.
 */
export class AccountBurst {
  private readonly levels = new Map<string, { level: number; at: number }>();
  private readonly drainPerMs: number;

  constructor(
    private readonly burst: number,
    windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.drainPerMs = burst / (windowSeconds * 1000);
  }

  /** Counts one start of `key`; false once the account is past its burst (0 turns the meter off: always true). */
  admit(key: string): boolean {
    if (this.burst <= 0) return true;
    const at = this.now();
    const last = this.levels.get(key);
    const level = Math.max(0, last ? last.level - (at - last.at) * this.drainPerMs : 0) + 1;
    this.levels.set(key, { level, at });
    if (this.levels.size > 10_000) this.forgetDrained(at);
    return level <= this.burst;
  }

  private forgetDrained(at: number): void {
    for (const [key, { level, at: then }] of this.levels)
      if (level - (at - then) * this.drainPerMs <= 0) this.levels.delete(key);
  }
}
