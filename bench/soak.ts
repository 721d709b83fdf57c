/**
 * `npm run bench:soak` (issues 13 and 29): a long run of the production shape (test/support/production-shape.ts:
 * two `chasqui api`, two `chasqui worker` and `chasqui simulator` as separate processes, Temporal server on
 * PostgreSQL) at chasqui's default configuration (BENCH_LOG_LEVEL, info). BENCH_DOCUMENTS (20,000) 5-line facturas
 * of one company are issued at a steady BENCH_RATE (15 a second), alternately to both apis, at most BENCH_CONCURRENCY
 * (16) in flight, each notified to a local https webhook (BENCH_WEBHOOK=true). Issuing stops at the count or after
 * BENCH_MINUTES (60), whichever comes first; then the run waits until every issued document is
 * resolved, notified and its workflows closed (at most BENCH_DRAIN_MINUTES, 15; the report says what was left). It
 * stops by itself either way.
 * Every BENCH_STEP (1,000) documents it prints the resident memory (VmRSS) of every process and the highest read
 * (every second) since the last row, the V8 heap in use of each api and worker (their /metrics), the backlog (issued,
 * not yet resolved), p50/p99 of the step's 202s and the workers' CPU per document. At the end: the peaks (VmHWM), the
 * growth from the first row to the last, p50/p99 of every 202, CPU per document of every process from the first POST
 * to the last workflow closed, and the bytes per document each database grew by (pg_total_relation_size of its
 * tables: chasqui's, Temporal's history and its visibility), with the namespace's retention of closed workflows.
 * BENCH_WORKER_NODE_OPTIONS and BENCH_API_NODE_OPTIONS are NODE_OPTIONS for those processes (flags to try).
 * BENCH_FILES=s3 keeps signed XML and CDRs in a real S3-compatible server (CHASQUI_FILES_URL=s3://…, versitygw) and
 * adds the bucket's bytes per document. Either way the end gives chasqui's database compacted too (VACUUM FULL before
 * and after: what it holds once autovacuum reuses the space of the row versions each send and outcome leave), by
 * table and index. Then, unless BENCH_AFTER_RETENTION=false, when the shape's CHASQUI_WEBHOOK_HISTORY_DAYS keeps a
 * window (90 by default; 0 or forever: nothing is pruned, no phase), the sweeper's own prune runs as if the window and a
 * day had passed, until it deletes nothing, and the database is compacted again: what each document leaves for good.
 */
import os from 'node:os';
import { Client as PgClient } from 'pg';
import type { Client } from '@temporalio/client';
import { NAMESPACE, ProductionShape } from '../test/support/production-shape';
import { localTlsCertificate, startReceiver, type Receiver } from '../test/webhooks/support';
import { randomRuc } from '../test/companies/helpers';
import { freePort } from '../runtime/ports';
import { invoicePayload, post } from './payloads';
import { descendants, postgresKind, readProcesses } from './proc';
import { memoryOf, percentile, stepRows, type Processes } from './soak-steps';
import { bucketBytes, compacted, DATABASES, pruneAfterRetention, storage } from './soak-storage';
import { loadConfig } from '../core/config';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 20_000);
const RATE = Number(process.env.BENCH_RATE ?? 15);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 60);
const DRAIN_MINUTES = Number(process.env.BENCH_DRAIN_MINUTES ?? 15);
const STEP = Number(process.env.BENCH_STEP ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const LINES = Number(process.env.BENCH_LINES ?? 5);
const WEBHOOK = (process.env.BENCH_WEBHOOK ?? 'true') === 'true';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const FILES = process.env.BENCH_FILES === 's3' ? 's3' : 'postgres';
const AFTER_RETENTION = (process.env.BENCH_AFTER_RETENTION ?? 'true') === 'true';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two apis and two workers (each worker with its own metrics port), started on the shape in that order. */
async function startRoles(shape: ProductionShape): Promise<{ apiUrls: string[]; workerMetrics: string[] }> {
  const nodeOptions = (name: string): Record<string, string> =>
    process.env[name] ? { NODE_OPTIONS: process.env[name]! } : {};
  const apiUrls = [
    await shape.startApi(nodeOptions('BENCH_API_NODE_OPTIONS')),
    await shape.startApi(nodeOptions('BENCH_API_NODE_OPTIONS')),
  ];
  const workerMetrics: string[] = [];
  for (let i = 0; i < 2; i++) {
    workerMetrics.push(`http://127.0.0.1:${await freePort()}/metrics`);
    await shape.startWorker({
      CHASQUI_METRICS_PORT: new URL(workerMetrics[i]).port,
      ...nodeOptions('BENCH_WORKER_NODE_OPTIONS'),
    });
  }
  return { apiUrls, workerMetrics };
}

function processesOf(shape: ProductionShape): Processes {
  const procs = [
    ...shape.alive('api'),
    ...shape.alive('worker'),
    ...shape.alive('simulator'),
    ...shape.alive('temporal'),
  ];
  const names = procs.map((p) =>
    p.role === 'api' || p.role === 'worker'
      ? `${p.role}-${procs.filter((q) => q.role === p.role).indexOf(p) + 1}`
      : p.role,
  );
  const kindOf = new Map(procs.map((p) => [p.pid, p.role as string]));
  const cpuByKind = (): Map<string, number> => {
    const totals = new Map<string, number>();
    for (const info of descendants(readProcesses(), process.pid)) {
      if (info.pid === process.pid) continue;
      const kind =
        kindOf.get(info.pid) ??
        (info.name.startsWith('postgres')
          ? postgresKind(info, {
              chasqui: 'postgres (chasqui)',
              temporal: 'postgres (temporal)',
              temporal_visibility: 'postgres (temporal visibility)',
            })
          : info.name);
      totals.set(kind, (totals.get(kind) ?? 0) + info.cpu);
    }
    return totals;
  };
  return { names, pids: new Map(procs.map((p, i) => [names[i], p.pid])), cpuByKind };
}

/** The company the soak issues for, with the receiver as its webhook when BENCH_WEBHOOK. */
async function createCompany(
  apiUrl: string,
  shape: ProductionShape,
  receiver: Receiver,
  db: PgClient,
): Promise<{ ruc: string; token: string; id: string }> {
  const ruc = randomRuc();
  const created = await post(`${apiUrl}/v1/companies`, shape.accountToken, {
    ruc,
    business_name: 'Bench Soak S.A.C.',
    plan_type: '01',
    environment: '01',
  });
  if (created.status !== 201) throw new Error(`company: ${created.status} ${JSON.stringify(created.body)}`);
  if (WEBHOOK) {
    const hook = await post(
      `${apiUrl}/v1/companies/${ruc}/webhook`,
      shape.accountToken,
      { url: receiver.url },
      'PATCH',
    );
    if (hook.status !== 200) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
  }
  const { rows: company } = await db.query('select id from companies where ruc = $1', [ruc]);
  return { ruc, token: created.body.data.token, id: company[0].id };
}

/**
 * Steady issuing: document i is due at i / RATE seconds; at most CONCURRENCY wait for their answer. Stops at
 * BENCH_DOCUMENTS or after BENCH_MINUTES; a sample every BENCH_STEP documents.
 */
async function issueSteadily(
  apiUrls: string[],
  company: { ruc: string; token: string },
  latencies: number[],
  sample: (documents: number) => Promise<void>,
): Promise<{ issued: number; issueStart: number; issuedSeconds: number }> {
  const issueStart = performance.now();
  const issueUntil = Date.now() + MINUTES * 60_000;
  const inFlight = new Set<Promise<void>>();
  let failure: Error | null = null;
  let issued = 0;
  while (issued < DOCUMENTS && Date.now() < issueUntil && !failure) {
    const wait = issueStart + (issued / RATE) * 1000 - performance.now();
    if (wait > 0) await sleep(wait);
    while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
    const n = ++issued;
    const t0 = performance.now();
    const request = post(
      `${apiUrls[n % 2]}/v1/cpe`,
      company.token,
      invoicePayload(LINES, { ruc: company.ruc, correlativo: String(n) }),
    )
      .then((res) => {
        if (res.status !== 202) throw new Error(`POST /v1/cpe answered ${res.status}: ${JSON.stringify(res.body)}`);
        latencies.push(performance.now() - t0);
      })
      .catch((err) => void (failure ??= err))
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
    if (n % STEP === 0) await sample(n);
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
  return { issued, issueStart, issuedSeconds: (performance.now() - issueStart) / 1000 };
}

/**
 * Waits until every issued document is resolved, notified and its workflows closed; bounded: a backlog the box could
 * not drain in BENCH_DRAIN_MINUTES is reported (the answer), not waited for ('' when drained).
 */
async function drain(
  client: Client,
  receiver: Receiver,
  issued: number,
  resolvedCount: () => Promise<number>,
): Promise<string> {
  const deadline = Date.now() + DRAIN_MINUTES * 60_000;
  const running = `ExecutionStatus = "Running" AND WorkflowType IN ("documentWorkflow", "webhookDeliveryWorkflow")`;
  for (;;) {
    const resolved = await resolvedCount();
    if (
      resolved >= issued &&
      (!WEBHOOK || receiver.requests.length >= issued) &&
      (await client.workflow.count(running)).count === 0
    )
      return '';
    if (Date.now() > deadline)
      return `NOT DRAINED: ${issued - resolved} of ${issued} unresolved, ${issued - receiver.requests.length} not notified ${DRAIN_MINUTES} minutes after the last POST`;
    await sleep(500);
  }
}

/** Workflows evicted from the workers' full caches (Temporal sizes the cache from the heap limit; evicted ones replay). */
async function evictions(workerMetrics: string[]): Promise<number> {
  let evicted = 0;
  for (const url of workerMetrics) {
    const found = /^temporal_sticky_cache_total_forced_eviction_total(?:\{[^}]*\})? (\S+)$/m.exec(
      await (await fetch(url)).text(),
    );
    evicted += found ? Number(found[1]) : 0;
  }
  return evicted;
}

/** What the run measured, for the summary printed at the end. */
interface SoakResult {
  names: string[];
  pids: Map<string, number>;
  rows: string[];
  series: { documents: number; rss: Map<string, number> }[];
  latencies: number[];
  issued: number;
  issuedSeconds: number;
  drainedSeconds: number;
  unfinished: string;
  filesUrl: string;
  cpu0: Map<string, number>;
  cpu1: Map<string, number>;
  bytes0: Map<string, { total: number; tables: Map<string, number> }>;
  bytes1: Map<string, { total: number; tables: Map<string, number> }>;
  compact0: Map<string, number>;
  compact1: Map<string, number>;
  /** Compacted again once the webhook history window has passed, with the days and the deliveries pruned. */
  retained: { days: number; pruned: number; compact: Map<string, number> } | null;
  bucket: number | null;
  retentionDays: number;
  evicted: number;
}

/** Bytes per document each table and index of chasqui's compacted database grew by: the total, then the largest. */
function compactGrowth(before: Map<string, number>, after: Map<string, number>, issued: number): string {
  const growth = [...after]
    .map(([name, bytes]) => [name, (bytes - (before.get(name) ?? 0)) / issued] as const)
    .sort((a, b) => b[1] - a[1]);
  return (
    `${growth.reduce((sum, [, b]) => sum + b, 0).toFixed(0)} bytes per document = ` +
    growth
      .filter(([, b]) => b >= 1)
      .map(([name, b]) => `${name} ${b.toFixed(0)}`)
      .join(', ')
  );
}

function summary(r: SoakResult): string[] {
  const { names, pids, issued, latencies, bytes0, bytes1 } = r;
  const cpu = [...r.cpu1]
    .map(([k, s]) => [k, ((s - (r.cpu0.get(k) ?? 0)) * 1000) / issued] as const)
    .filter(([, ms]) => ms >= 0.05);
  cpu.sort((a, b) => b[1] - a[1]);
  const cpuTotal = cpu.reduce((sum, [, ms]) => sum + ms, 0);
  const chasquiCpu = cpu
    .filter(([k]) => ['api', 'worker', 'simulator', 'postgres (chasqui)'].includes(k))
    .reduce((sum, [, ms]) => sum + ms, 0);
  latencies.sort((a, b) => a - b);
  const first = r.series[1] ?? r.series[0];
  const end = r.series[r.series.length - 1];
  const perDocument = (database: string) => (bytes1.get(database)!.total - bytes0.get(database)!.total) / issued;
  const largest = (database: string) =>
    [...bytes1.get(database)!.tables]
      .map(([t, b]) => [t, (b - (bytes0.get(database)!.tables.get(t) ?? 0)) / issued] as const)
      .filter(([, b]) => b >= 50)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([t, b]) => `${t} ${b.toFixed(0)}`)
      .join(', ');
  return [
    `bench:soak  node ${process.version}  ${os.cpus()[0].model}  ${os.cpus().length} CPUs  load at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `${issued} of ${DOCUMENTS} ${LINES}-line facturas of one company${issued < DOCUMENTS ? ` (issuing stopped after BENCH_MINUTES=${MINUTES})` : ''}, ` +
      `at ${RATE}/s asked (${(issued / r.issuedSeconds).toFixed(1)}/s issued), at most ${CONCURRENCY} in flight, alternately to 2 apis; 2 workers; ` +
      `${WEBHOOK ? 'each notified to a local https webhook' : 'no webhook'}; chasqui LOG_LEVEL=${LOG_LEVEL}; files ${r.filesUrl}; ${r.unfinished || `all resolved and closed ${r.drainedSeconds.toFixed(0)} s after the first POST`}`,
    'resident memory (MB, VmRSS) after start-up, every step and once drained (in brackets: the highest read, every second, during the step);',
    "backlog (issued, not resolved), p50/p99 ms of the step's 202s, V8 heap in use (MB) of apis and workers, both workers' CPU per document of the step:",
    ...r.rows,
    `peak RSS (MB, VmHWM): ${names.map((n) => `${n} ${memoryOf(pids.get(n)!).peak.toFixed(0)}`).join(', ')}`,
    `RSS growth from ${first.documents} to ${end.documents} documents (MB): ${names.map((n) => `${n} ${(end.rss.get(n)! - first.rss.get(n)!).toFixed(0)}`).join(', ')}`,
    `POST /v1/cpe 202: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies[latencies.length - 1].toFixed(0)} ms (${latencies.length} answers)`,
    `CPU per document, first POST to last workflow closed: ${cpuTotal.toFixed(1)} ms (chasqui's: api, worker, simulator, its PostgreSQL ${chasquiCpu.toFixed(1)} ms) = ` +
      cpu.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(', '),
    `workflows evicted from the workers' full caches: ${r.evicted}`,
    `storage per document (bytes, pg_total_relation_size of the tables, after minus before; namespace retention of closed workflows ${r.retentionDays} days):`,
    ...DATABASES.map((d) => `  ${d.padEnd(19)} ${perDocument(d).toFixed(0).padStart(6)}  (${largest(d)})`),
    `  total               ${DATABASES.reduce((sum, d) => sum + perDocument(d), 0)
      .toFixed(0)
      .padStart(6)}`,
    `chasqui's database compacted (VACUUM FULL before and after): ${compactGrowth(r.compact0, r.compact1, issued)}`,
    ...(r.retained === null
      ? []
      : [
          `  and once the ${r.retained.days}-day webhook history window has passed (${r.retained.pruned} deliveries pruned, ` +
            `compacted again): ${compactGrowth(r.compact0, r.retained.compact, issued)}`,
        ]),
    ...(r.bucket === null ? [] : [`the bucket: ${r.bucket.toFixed(0)} bytes per document`]),
  ];
}

async function main(): Promise<void> {
  const tls = localTlsCertificate();
  const receiver: Receiver = await startReceiver(tls);
  const env = {
    CHASQUI_RATE_LIMIT_PER_MINUTE: '0',
    CHASQUI_ACCOUNT_RATE_LIMIT_PER_MINUTE: '0',
    CHASQUI_WEBHOOK_ALLOW_PRIVATE: 'true',
    CHASQUI_WEBHOOK_CA_FILE: tls.certFile,
  };
  const shape = await ProductionShape.start({
    logLevel: LOG_LEVEL,
    env,
    files: FILES,
    say: (l) => console.error(`  ${l}`),
  });
  const db = new PgClient({ connectionString: shape.pgUrl() });
  try {
    const { apiUrls, workerMetrics } = await startRoles(shape);
    await db.connect();
    const processes = processesOf(shape);
    let resolvedCount = async () => 0;
    const steps = stepRows(
      processes,
      [...apiUrls.map((u) => `${u}/metrics`), ...workerMetrics],
      async (documents) => documents - (await resolvedCount()),
    );
    await steps.sample(0);

    const company = await createCompany(apiUrls[0], shape, receiver, db);
    resolvedCount = async () =>
      (await db.query('select count(*)::int as n from documents where company_id = $1 and resolved', [company.id]))
        .rows[0].n;
    const compact0 = await compacted(shape);
    const bytes0 = await storage(shape);
    const cpu0 = processes.cpuByKind();

    const { issued, issueStart, issuedSeconds } = await issueSteadily(apiUrls, company, steps.latencies, steps.sample);
    const client = await shape.temporalClient();
    const unfinished = await drain(client, receiver, issued, resolvedCount);
    const cpu1 = processes.cpuByKind();
    const drainedSeconds = (performance.now() - issueStart) / 1000;
    await steps.sample(issued);
    steps.stopWatching();
    await sleep(2000); // the last writes' statistics and visibility records
    const bytes1 = await storage(shape);
    const compact1 = await compacted(shape);
    const bucket = shape.s3 ? (await bucketBytes(shape)) / issued : null;
    const historyDays = loadConfig(shape.chasquiEnv()).webhookHistoryDays;
    const retained =
      AFTER_RETENTION && historyDays !== null
        ? { days: historyDays, pruned: await pruneAfterRetention(shape, historyDays), compact: await compacted(shape) }
        : null;
    const namespace = await client.workflowService.describeNamespace({ namespace: NAMESPACE });
    const retentionDays = Number(namespace.config?.workflowExecutionRetentionTtl?.seconds ?? 0) / 86_400;
    const out = summary({
      ...processes,
      ...steps,
      issued,
      issuedSeconds,
      drainedSeconds,
      unfinished,
      filesUrl: shape.s3?.env.CHASQUI_FILES_URL ?? 'postgres:',
      cpu0,
      cpu1,
      bytes0,
      bytes1,
      compact0,
      compact1,
      retained,
      bucket,
      retentionDays,
      evicted: await evictions(workerMetrics),
    });
    console.log(out.join('\n'));
  } finally {
    await db.end().catch(() => undefined);
    await shape.stop();
    await receiver.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
