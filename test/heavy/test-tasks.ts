/** Tasks the pool's own tests run in its threads (test/heavy/pool.test.ts): each one a bound to cross on purpose. */
const kept: Buffer[] = [];

export const TASKS = {
  /** Holds the thread for `ms` and answers with the tag, as a render or a key derivation does. */
  spin: (input: { ms: number; tag: string }) => {
    const until = performance.now() + input.ms;
    while (performance.now() < until);
    return input.tag;
  },
  /** Keeps `mb` of Buffers after it answers (memory outside the JS heap, like a PDF's). */
  keep: (input: { mb: number }) => {
    kept.push(Buffer.alloc(input.mb * 1024 * 1024, 1));
    return kept.length;
  },
  /** Grows the JS heap until the thread's resourceLimits end it. */
  grow: () => {
    const held: number[][] = [];
    for (;;) held.push(new Array(100_000).fill(held.length));
  },
  fail: () => {
    throw new Error('the task failed on purpose');
  },
};
