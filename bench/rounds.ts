/** Timing by rounds for the benches that compare cases in one process (bench:pdf, bench:printed-cache). */

/** This process's CPU time so far, in milliseconds. */
export const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU ms and wall ms per call over about `roundMs` of calls (two at least). */
export async function round(
  fn: () => Promise<unknown> | unknown,
  roundMs: number,
): Promise<{ cpu: number; wall: number }> {
  let calls = 0;
  const [cpu0, wall0] = [cpuMs(), performance.now()];
  while (performance.now() - wall0 < roundMs || calls < 2) {
    await fn();
    calls++;
  }
  return { cpu: (cpuMs() - cpu0) / calls, wall: (performance.now() - wall0) / calls };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
