/**
 * `npm run bench:cost` (issue 13): the CPU one document costs the whole system, in both shapes chasqui runs in:
 *  - `npm start`: one node process (API + worker + simulator), Temporal dev server (SQLite), embedded PostgreSQL;
 *  - production: docker-compose.yml's shape without Docker (test/support/production-shape.ts): `chasqui api`,
 *    `chasqui worker`, `chasqui simulator`, Temporal server 1.30.1 on PostgreSQL.
 * In each: BENCH_WARMUP (20) invoices, then BENCH_DOCUMENTS (400) invoices of one company at BENCH_CONCURRENCY (16)
 * until all are resolved, once without a webhook and once with one to a local https receiver; before, between and
 * after them the floor on the same Temporal server: BENCH_DOCUMENTS workflows of one local activity from a worker in
 * this process. Each run's ratio is against the mean of the floors just before and after it.
 * CPU comes from /proc (every process below the bench or `chasqui start`, PostgreSQL's setsid'd backends included,
 * sorted by the database they serve). Prints CPU ms per document by process, the floor, the ratio, issued/s, p50/p99
 * of POST /v1/cpe, resolved/s, commits per document by database, idle CPU per second and peak RSS by process; in the
 * production shape also the issuing phase alone (worker stopped): issued/s, p50/p99 and CPU ms per document, and
 * what a bare workflow start costs Temporal, its PostgreSQL and the client on the same server (the phase's floor).
 * BENCH_SHAPES=start,production picks the shapes; BENCH_LOG_LEVEL is chasqui's LOG_LEVEL: info, the default
 * configuration's, unless told; a list (`info,warn`) runs each shape once per level, one after the other.
 * `--files postgres,s3` (or BENCH_FILES) runs each once per file store: `postgres` (the default, the rows) and `s3`,
 * CHASQUI_FILES_URL=s3://… on a real S3-compatible server (versitygw, test/support/s3.ts) whose process counts among
 * chasqui's, as `versitygw (S3)`.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Client as PgClient } from 'pg';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type WorkflowBundle,
} from '@temporalio/worker';
import { localTlsCertificate, startReceiver, type Receiver } from '../test/webhooks/support';
import { CONCURRENCY, DOCUMENTS, FILES, IDLE_SECONDS, LINES, LOG_LEVELS, SHAPES, WARMUP } from './cost-options';
import { BENCH, cpuNow, delta, startShape, type Shape } from './cost-shapes';
import { issue, issueAndResolve, newBenchCompany, quiesce, sleep, untilResolved, type BenchCompany } from './cost-load';
import { post } from './payloads';
import { runBench } from './run';

async function commits(db: PgClient): Promise<Map<string, number>> {
  const { rows } = await db.query(
    `select datname, xact_commit::float8 as n from pg_stat_database where datname in ('chasqui', 'temporal', 'temporal_visibility')`,
  );
  return new Map(rows.map((r) => [r.datname, r.n]));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface RunResult {
  label: string;
  issuedPerSecond: number;
  p50: number;
  p99: number;
  resolvedPerSecond: number;
  cpu: Map<string, number>; // seconds
  commits: Map<string, number>;
  documents: number;
}

/**
 * The issuing phase alone (issue 13: API + PostgreSQL + workflow start): the worker is stopped, BENCH_DOCUMENTS
 * invoices are issued, and the CPU of every other process during the POSTs is divided among them; then the worker
 * comes back and delivers them (not measured).
 */
async function issuingAlone(shape: Shape, company: BenchCompany): Promise<string[]> {
  if (!shape.pauseWorker) return [];
  await quiesce(shape);
  const resume = await shape.pauseWorker();
  await sleep(1500);
  const cpu0 = cpuNow(shape);
  const { latencies, issuedSeconds } = await issue(shape, company, DOCUMENTS);
  const spent = delta(cpu0, cpuNow(shape));
  spent.delete(BENCH);
  spent.delete('worker');
  await resume();
  await untilResolved(shape, company, null);
  latencies.sort((x, y) => x - y);
  const starts = await bareStarts(shape);
  return [
    `  issuing alone (worker stopped, ${DOCUMENTS} invoices at concurrency ${CONCURRENCY}): ${(DOCUMENTS / issuedSeconds).toFixed(1)} issued/s, p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms,`,
    `    ${perDocument(spent)}`,
    `  Temporal's own start, same server (${DOCUMENTS} starts of an empty workflow nobody polls, concurrency ${CONCURRENCY}): ${(DOCUMENTS / starts.seconds).toFixed(1)} started/s,`,
    `    ${perDocument(starts.spent, 'start')}; the starting client (grpc-js, this process) ${((1000 * starts.client) / DOCUMENTS).toFixed(1)} ms`,
  ];
}

/** `spent` (CPU seconds by process for DOCUMENTS items) as "T CPU ms per <item> (process ms, …)", largest first. */
function perDocument(spent: Map<string, number>, item = 'document'): string {
  const perItem = [...spent]
    .map(([k, s]) => [k, (1000 * s) / DOCUMENTS] as const)
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  const total = perItem.reduce((sum, [, ms]) => sum + ms, 0);
  return `${total.toFixed(1)} CPU ms per ${item} (${perItem.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(', ')})`;
}

/**
 * The floor of the issuing phase: what Temporal and its PostgreSQL spend on a bare workflow start (no search
 * attributes, no input, on a task queue nobody polls, as the documents' starts with the worker stopped), and what the
 * starting client spends. The workflows stay queued; the shape is torn down after this.
 */
async function bareStarts(shape: Shape): Promise<{ spent: Map<string, number>; client: number; seconds: number }> {
  await quiesce(shape);
  const client = await shape.temporal();
  const taskQueue = `bench-nobody-${randomBytes(4).toString('hex')}`;
  const start = () =>
    client.workflow.start('bareStart', { taskQueue, workflowId: `bare-${randomBytes(8).toString('hex')}` });
  for (let i = 0; i < WARMUP; i++) await start();
  await sleep(1500);
  const cpu0 = cpuNow(shape);
  const started = performance.now();
  let left = DOCUMENTS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await start();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const spent = delta(cpu0, cpuNow(shape));
  const own = spent.get(BENCH) ?? 0;
  for (const kind of [BENCH, ...shape.chasquiKinds]) spent.delete(kind);
  return { spent, client: own, seconds };
}

/**
 * One measured window: `load(WARMUP)`, quiet, then CPU and commits read around `load(DOCUMENTS)` and the quiet after it
 * (PostgreSQL's statistics lag a moment behind its commits).
 */
async function measure(
  shape: Shape,
  label: string,
  load: (count: number) => Promise<{ latencies: number[]; issuedSeconds: number }>,
): Promise<RunResult> {
  await load(WARMUP);
  await quiesce(shape);
  await sleep(1500);
  const cpu0 = cpuNow(shape);
  const commits0 = await commits(shape.db);
  const t0 = performance.now();
  const { latencies, issuedSeconds } = await load(DOCUMENTS);
  const elapsed = (performance.now() - t0) / 1000;
  await quiesce(shape);
  const cpu1 = cpuNow(shape);
  await sleep(1500);
  const commits1 = await commits(shape.db);
  latencies.sort((x, y) => x - y);
  return {
    label,
    issuedPerSecond: DOCUMENTS / issuedSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    resolvedPerSecond: DOCUMENTS / elapsed,
    cpu: delta(cpu0, cpu1),
    commits: delta(commits0, commits1),
    documents: DOCUMENTS,
  };
}

/** The floor: one-local-activity workflows on the same Temporal server, started and run from this process. */
async function floor(shape: Shape, label: string, workflowBundle: WorkflowBundle): Promise<RunResult> {
  const taskQueue = `bench-floor-${randomBytes(4).toString('hex')}`;
  const connection = await NativeConnection.connect({ address: shape.temporalAddress });
  const client = await shape.temporal();
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle,
    activities: { floorActivity: async () => undefined },
  });
  const many = async (count: number) => {
    let left = count;
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) {
          const t0 = performance.now();
          await client.workflow.execute('floorWorkflow', {
            taskQueue,
            workflowId: `floor-${randomBytes(8).toString('hex')}`,
          });
          latencies.push(performance.now() - t0);
        }
      }),
    );
    return { latencies, issuedSeconds: (performance.now() - started) / 1000 };
  };
  try {
    return await worker.runUntil(measure(shape, label, many));
  } finally {
    await connection.close();
  }
}

/** CPU each process burns with nothing to do (timers, polls, scanners), in ms per second: paid per document at low rates. */
async function idleCpu(shape: Shape, seconds: number): Promise<Map<string, number>> {
  await quiesce(shape);
  const cpu0 = cpuNow(shape);
  await sleep(seconds * 1000);
  const spent = delta(cpu0, cpuNow(shape));
  spent.delete(BENCH);
  // One line for PostgreSQL: a pooled backend closed while idle moves its CPU to the postmaster (reaped child).
  const idle = new Map<string, number>();
  for (const [kind, cpu] of spent) {
    const key = kind.startsWith('postgres') ? 'postgres' : kind;
    idle.set(key, (idle.get(key) ?? 0) + (1000 * cpu) / seconds);
  }
  return idle;
}

/** CPU ms per document of the system, without the bench's own load generation and receiver (but the floor's SDK). */
function systemMs(result: RunResult, include: (kind: string) => boolean): number {
  return ([...result.cpu].filter(([k]) => include(k)).reduce((sum, [, s]) => sum + s, 0) * 1000) / result.documents;
}

/**
 * `runs` alternate floors and document runs (floor, run, floor, run, floor): each run is compared with the mean of
 * the two floors measured just before and just after it, so a machine that speeds up or slows down during the bench
 * (shared with other work) moves a run and its floor together.
 */
function report(shape: Shape, runs: RunResult[], rss: Map<string, number>, idle: Map<string, number>): string[] {
  const notChasqui = (k: string) => !shape.chasquiKinds.has(k);
  const isFloor = (i: number) => i % 2 === 0;
  const floorMs = (i: number) => systemMs(runs[i], notChasqui);
  const floors = runs.flatMap((_, i) => (isFloor(i) ? [floorMs(i)] : []));
  const meanFloor = floors.reduce((sum, ms) => sum + ms, 0) / floors.length;
  const kinds = [...new Set(runs.flatMap((r) => [...r.cpu.keys()]))].filter(
    (k) => Math.max(...runs.map((r) => r.cpu.get(k) ?? 0)) > 0.05,
  );
  kinds.sort((a, b) => (b === BENCH ? -1 : a === BENCH ? 1 : (runs[1].cpu.get(b) ?? 0) - (runs[1].cpu.get(a) ?? 0)));
  const lines = [`shape: ${shape.title}`];
  lines.push(
    `  ${'run'.padEnd(24)} ${'issued/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'resolved/s'.padStart(10)} ${'CPU ms/doc'.padStart(10)} ${'vs floor'.padStart(8)}`,
  );
  runs.forEach((r, i) => {
    const ms = isFloor(i) ? floorMs(i) : systemMs(r, (k) => k !== BENCH);
    const against = isFloor(i) ? meanFloor : (floorMs(i - 1) + floorMs(i + 1)) / 2;
    lines.push(
      `  ${r.label.padEnd(24)} ${r.issuedPerSecond.toFixed(1).padStart(8)} ${r.p50.toFixed(0).padStart(8)} ${r.p99.toFixed(0).padStart(8)} ${r.resolvedPerSecond.toFixed(1).padStart(10)} ${ms.toFixed(1).padStart(10)} ${(ms / against).toFixed(2).padStart(8)}`,
    );
  });
  lines.push(
    `  (a run's "vs floor" is against the mean of the floors before and after it; a floor's, against the mean of all floors)`,
  );
  lines.push(`  CPU ms per document by process (${BENCH} not in the documents' totals; in the floors', as their SDK;`);
  lines.push(`  postgres (server) also holds backends that exited, their CPU moved to the postmaster):`);
  lines.push(`    ${''.padEnd(38)} ${runs.map((r) => r.label.slice(0, 14).padStart(14)).join(' ')}`);
  for (const kind of kinds)
    lines.push(
      `    ${kind.padEnd(38)} ${runs.map((r) => (((r.cpu.get(kind) ?? 0) * 1000) / r.documents).toFixed(1).padStart(14)).join(' ')}`,
    );
  const dbs = ['chasqui', 'temporal', 'temporal_visibility'].filter((d) => runs.some((r) => r.commits.has(d)));
  lines.push(
    `  PostgreSQL commits per document: ${runs.map((r) => `${r.label}: ${dbs.map((d) => `${d} ${((r.commits.get(d) ?? 0) / r.documents).toFixed(1)}`).join(', ')}`).join('; ')}`,
  );
  const idleTotal = [...idle.values()].reduce((a, b) => a + b, 0);
  lines.push(
    `  idle (nothing issued, ${IDLE_SECONDS} s): ${idleTotal.toFixed(0)} ms of CPU per second (${[...idle]
      .filter(([, ms]) => ms >= 0.5)
      .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
      .join(
        ', ',
      )}) = ${(idleTotal / runs[1].resolvedPerSecond).toFixed(1)} ms per document at ${runs[1].resolvedPerSecond.toFixed(1)} resolved/s`,
  );
  lines.push(
    `  peak RSS (MB, VmHWM, largest process of each kind): ${[...rss].map(([k, mb]) => `${k} ${mb.toFixed(0)}`).join(', ')}`,
  );
  return lines;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') }); // the floor's worker, quiet
  const out = [
    `bench:cost  node ${process.version}  ${os.cpus()[0].model}  ${os.cpus().length} CPUs  load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `per run: ${WARMUP} warm-up + ${DOCUMENTS} ${LINES}-line facturas of one company at concurrency ${CONCURRENCY}, until resolved; chasqui LOG_LEVEL ${LOG_LEVELS.join(', then ')}; files ${FILES.join(', then ')}`,
  ];
  const tls = localTlsCertificate();
  const floorBundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('./floor-workflow'),
    logger: new DefaultLogger('WARN'),
  });
  const runs = SHAPES.flatMap((name) =>
    LOG_LEVELS.flatMap((level) => FILES.map((files) => [name, level, files] as const)),
  );
  for (const [name, logLevel, files] of runs) {
    const receiver = await startReceiver(tls);
    const shape = await startShape(name, tls.certFile, logLevel, files);
    try {
      const company = await newBenchCompany(shape, shape.accountToken, 'Bench Cost S.A.C.');
      const { ruc } = company;
      const documents = (receiver: Receiver | null) => (count: number) =>
        issueAndResolve(shape, company, count, receiver);
      const runs = [
        await floor(shape, 'floor 1: 1 local act.', floorBundle),
        await measure(shape, 'no webhook', documents(null)),
      ];
      const idle = await idleCpu(shape, IDLE_SECONDS);
      runs.push(await floor(shape, 'floor 2', floorBundle));
      const hook = await post(
        `${shape.apiUrl}/v1/companies/${ruc}/webhook`,
        shape.accountToken,
        { url: receiver.url },
        'PATCH',
      );
      if (hook.status !== 200) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
      company.beforeWebhook = company.next - 1;
      runs.push(
        await measure(shape, 'webhook (local https)', documents(receiver)),
        await floor(shape, 'floor 3', floorBundle),
      );
      const rss = new Map<string, number>();
      for (const { kind, info } of shape.processes()) rss.set(kind, Math.max(rss.get(kind) ?? 0, info.peakRssMb));
      rss.set(BENCH, Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024);
      const lines = [...report(shape, runs, rss, idle), ...(await issuingAlone(shape, company))];
      console.error(lines.join('\n'));
      out.push(...lines);
    } finally {
      await shape.stop();
      await receiver.close();
    }
  }
  console.log(out.join('\n'));
}

runBench(main);
