/**
 * The API's queue of workflow starts, fair between accounts: lanes in order (interactive documents before a
 * backfill's), and within a lane one item of each key in turn, first in first out within a key. So one account's
 * 5,000 queued starts never stand in front of another account's one (docs/delivery.md).
 */
export class FairQueue<T> {
  /** Per lane, the keys with items waiting, in turn order (a Map keeps insertion order). */
  private readonly lanes: Map<string, T[]>[];
  private count = 0;

  constructor(lanes: number) {
    this.lanes = Array.from({ length: lanes }, () => new Map<string, T[]>());
  }

  get size(): number {
    return this.count;
  }

  push(lane: number, key: string, item: T): void {
    const keys = this.lanes[lane];
    const items = keys.get(key);
    if (items) items.push(item);
    else keys.set(key, [item]);
    this.count++;
  }

  /**
   * The next item of the lanes up to `lastLane`: the first waiting lane's key whose turn it is; that key goes to the
   * back of its lane.
   */
  shift(lastLane = this.lanes.length - 1): T | undefined {
    for (let lane = 0; lane <= lastLane; lane++) {
      const keys = this.lanes[lane];
      const next = keys.entries().next();
      if (next.done) continue;
      const [key, items] = next.value;
      const item = items.shift()!;
      keys.delete(key);
      if (items.length) keys.set(key, items);
      this.count--;
      return item;
    }
    return undefined;
  }
}
