/**
 * bench:soak's step rows (bench/soak.ts): what it reads from the shape's processes every BENCH_STEP documents
 * (resident memory and its highest read each second, V8 heaps, backlog, latencies, the workers' CPU).
 */
import fs from 'node:fs';

/** VmRSS and VmHWM of a process, in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** V8 heap in use (MB) from a process's Prometheus text (prom-client's default metrics). */
async function heapUsed(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]) / 2 ** 20;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The shape's processes by name (api-1, api-2, worker-1, worker-2, simulator, temporal) and the CPU below this one. */
export interface Processes {
  names: string[];
  pids: Map<string, number>;
  /** CPU seconds of every process below this one, by kind (PostgreSQL's backends by the database they serve). */
  cpuByKind(): Map<string, number>;
}

/**
 * The step rows: each `sample(documents)` prints and keeps one (RSS and its highest read since the last row, heaps,
 * backlog, the step's p50/p99 from `latencies`, the workers' CPU per document of the step).
 */
export function stepRows(
  { names, pids, cpuByKind }: Processes,
  heapUrls: string[],
  backlogAt: (documents: number) => Promise<number>,
) {
  // RSS is read every second too: a step's highest value (backlog in flight) says more than its quiet moments.
  const highest = new Map(names.map((n) => [n, 0]));
  const watcher = setInterval(() => {
    for (const [name, pid] of pids) highest.set(name, Math.max(highest.get(name)!, memoryOf(pid).rss));
  }, 1000).unref();
  const header =
    `${'documents'.padStart(9)} ${'s'.padStart(5)} ${'backlog'.padStart(7)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ` +
    `${names.map((n) => `${n} (max)`.padStart(Math.max(n.length + 6, 11))).join(' ')} ` +
    `${[...names.slice(0, 4)].map((n) => `${n} heap`.padStart(n.length + 5)).join(' ')} ${'workers CPU ms/doc'.padStart(18)}`;
  const rows: string[] = [header];
  const series: { documents: number; rss: Map<string, number> }[] = [];
  const started = performance.now();
  const workersCpu = () => cpuByKind().get('worker') ?? 0;
  let last = { documents: 0, workersCpu: workersCpu(), latencies: 0 };
  const latencies: number[] = [];
  const sample = async (documents: number) => {
    const rss = new Map(names.map((n) => [n, memoryOf(pids.get(n)!).rss]));
    const heaps = await Promise.all(heapUrls.map(heapUsed));
    const cpu = workersCpu();
    const perDocument =
      documents > last.documents ? ((cpu - last.workersCpu) * 1000) / (documents - last.documents) : NaN;
    const step = latencies.slice(last.latencies).sort((a, b) => a - b);
    last = { documents, workersCpu: cpu, latencies: latencies.length };
    series.push({ documents, rss });
    const backlog = await backlogAt(documents);
    const row =
      `${String(documents).padStart(9)} ${((performance.now() - started) / 1000).toFixed(0).padStart(5)} ${String(backlog).padStart(7)} ` +
      `${(step.length ? percentile(step, 50).toFixed(0) : '').padStart(5)} ${(step.length ? percentile(step, 99).toFixed(0) : '').padStart(5)} ` +
      `${names.map((n) => `${rss.get(n)!.toFixed(0)} (${Math.max(highest.get(n)!, rss.get(n)!).toFixed(0)})`.padStart(Math.max(n.length + 6, 11))).join(' ')} ` +
      `${heaps.map((h, i) => h.toFixed(0).padStart(names[i].length + 5)).join(' ')} ${(Number.isNaN(perDocument) ? '' : perDocument.toFixed(1)).padStart(18)}`;
    for (const n of names) highest.set(n, 0);
    rows.push(row);
    console.error(row);
  };
  console.error(header);
  return { rows, series, latencies, sample, stopWatching: () => clearInterval(watcher) };
}
