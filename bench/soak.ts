/**
 * `npm run bench:soak` (issue 13, memory): BENCH_DOCUMENTS (10,000) 5-line facturas of one company through the
 * production shape (test/support/production-shape.ts: `chasqui api`, `chasqui worker`, `chasqui simulator` as separate
 * processes, Temporal server on PostgreSQL), issued in steps of BENCH_STEP (1,000) at BENCH_CONCURRENCY (16), each step
 * waited for until every document is resolved (and notified, with BENCH_WEBHOOK=true, the default). After start-up and
 * after each step it prints the resident memory (VmRSS) of every process and the V8 heap in use of api and worker (their
 * /metrics), then the peaks (VmHWM) and the growth from the first step to the last: whether memory stays flat.
 * BENCH_WORKER_NODE_OPTIONS and BENCH_API_NODE_OPTIONS are NODE_OPTIONS for those processes (flags to try).
 */
import fs from 'node:fs';
import os from 'node:os';
import { Client as PgClient } from 'pg';
import { ProductionShape, type Role } from '../test/support/production-shape';
import { localTlsCertificate, startReceiver, type Receiver } from '../test/webhooks/support';
import { randomRuc } from '../test/companies/helpers';
import { freePort } from '../runtime/ports';
import { invoicePayload, post } from './payloads';
import { readProcesses } from './proc';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
const STEP = Number(process.env.BENCH_STEP ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const LINES = Number(process.env.BENCH_LINES ?? 5);
const WEBHOOK = (process.env.BENCH_WEBHOOK ?? 'true') === 'true';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const ROLES: Role[] = ['api', 'worker', 'simulator', 'temporal'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** V8 heap in use (MB) from a process's Prometheus text (prom-client's default metrics). */
async function heapUsed(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]) / 2 ** 20;
}

async function main(): Promise<void> {
  const tls = localTlsCertificate();
  const receiver: Receiver = await startReceiver(tls);
  const env = {
    CHASQUI_RATE_LIMIT_PER_MINUTE: '0',
    CHASQUI_WEBHOOK_ALLOW_PRIVATE: 'true',
    CHASQUI_WEBHOOK_CA_FILE: tls.certFile,
  };
  const shape = await ProductionShape.start({ logLevel: LOG_LEVEL, env, say: (l) => console.error(`  ${l}`) });
  const db = new PgClient({ connectionString: shape.pgUrl() });
  try {
    const nodeOptions = (name: string): Record<string, string> =>
      process.env[name] ? { NODE_OPTIONS: process.env[name]! } : {};
    const apiUrl = await shape.startApi(nodeOptions('BENCH_API_NODE_OPTIONS'));
    const workerMetrics = `http://127.0.0.1:${await freePort()}/metrics`;
    await shape.startWorker({
      CHASQUI_METRICS_PORT: new URL(workerMetrics).port,
      ...nodeOptions('BENCH_WORKER_NODE_OPTIONS'),
    });
    await db.connect();
    const pids = Object.fromEntries(ROLES.map((role) => [role, shape.alive(role)[0].pid])) as Record<Role, number>;

    // RSS is read every second too: a step's highest value (backlog in flight) says more than its quiet end.
    const highest = Object.fromEntries(ROLES.map((role) => [role, 0])) as Record<Role, number>;
    const watcher = setInterval(() => {
      for (const role of ROLES) highest[role] = Math.max(highest[role], memoryOf(pids[role]).rss);
    }, 1000).unref();
    const cpuOf = (role: Role) => readProcesses().get(pids[role])!.cpu;
    const header =
      `${'documents'.padStart(9)} ${'s'.padStart(5)} ${ROLES.map((r) => `${r} RSS (max)`.padStart(r.length + 15)).join(' ')} ` +
      `${'api heap'.padStart(8)} ${'worker heap'.padStart(11)} ${'worker CPU ms/doc'.padStart(17)}`;
    const rows: string[] = [header];
    const series: { documents: number; rss: Record<Role, number> }[] = [];
    const started = performance.now();
    let last = { documents: 0, workerCpu: cpuOf('worker') };
    const sample = async (documents: number) => {
      const rss = Object.fromEntries(ROLES.map((role) => [role, memoryOf(pids[role]).rss])) as Record<Role, number>;
      const heaps = await Promise.all([heapUsed(`${apiUrl}/metrics`), heapUsed(workerMetrics)]);
      const workerCpu = cpuOf('worker');
      const cpuPerDocument =
        documents > last.documents ? ((workerCpu - last.workerCpu) * 1000) / (documents - last.documents) : NaN;
      last = { documents, workerCpu };
      series.push({ documents, rss });
      const row =
        `${String(documents).padStart(9)} ${((performance.now() - started) / 1000).toFixed(0).padStart(5)} ` +
        `${ROLES.map((r) => `${rss[r].toFixed(0)} (${Math.max(highest[r], rss[r]).toFixed(0)})`.padStart(r.length + 15)).join(' ')} ` +
        `${heaps[0].toFixed(0).padStart(8)} ${heaps[1].toFixed(0).padStart(11)} ${(Number.isNaN(cpuPerDocument) ? '' : cpuPerDocument.toFixed(1)).padStart(17)}`;
      for (const role of ROLES) highest[role] = 0;
      rows.push(row);
      console.error(row);
    };
    console.error(header);
    await sample(0);

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
    let next = 1;
    while (next <= DOCUMENTS) {
      const stepEnd = Math.min(DOCUMENTS, next + STEP - 1);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next <= stepEnd) {
            const res = await post(
              `${apiUrl}/v1/cpe`,
              created.body.data.token,
              invoicePayload(LINES, { ruc, correlativo: String(next++) }),
            );
            if (res.status !== 202) throw new Error(`POST /v1/cpe answered ${res.status}: ${JSON.stringify(res.body)}`);
          }
        }),
      );
      const deadline = Date.now() + 900_000;
      for (;;) {
        const { rows: resolved } = await db.query(
          'select count(*)::int as n from documents where company_id = $1 and resolved',
          [company[0].id],
        );
        if (resolved[0].n >= stepEnd && (!WEBHOOK || receiver.requests.length >= stepEnd)) break;
        if (Date.now() > deadline)
          throw new Error(
            `only ${resolved[0].n} of ${stepEnd} resolved (${receiver.requests.length} notified) after 15 minutes`,
          );
        await sleep(500);
      }
      await sample(stepEnd);
    }

    clearInterval(watcher);
    // Temporal's workflow cache is sized from the heap limit: a full cache evicts workflows, which replay later (CPU).
    const evictions = /^temporal_sticky_cache_total_forced_eviction_total(?:\{[^}]*\})? (\S+)$/m.exec(
      await (await fetch(workerMetrics)).text(),
    );
    const seconds = (performance.now() - started) / 1000;
    const first = series[1] ?? series[0];
    const end = series[series.length - 1];
    const out = [
      `bench:soak  node ${process.version}  ${os.cpus()[0].model}  ${os.cpus().length} CPUs  load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      `${DOCUMENTS} ${LINES}-line facturas of one company at concurrency ${CONCURRENCY}, ${WEBHOOK ? 'each notified to a local https webhook' : 'no webhook'}, ` +
        `in steps of ${STEP} until resolved: ${(DOCUMENTS / seconds).toFixed(1)} resolved/s; chasqui LOG_LEVEL=${LOG_LEVEL}`,
      'resident memory (MB, VmRSS) after start-up and after each step (in brackets: the highest read, every second, during the step);',
      'V8 heap in use (MB) of api and worker; CPU of the worker per document of the step:',
      ...rows,
      `peak RSS (MB, VmHWM): ${ROLES.map((r) => `${r} ${memoryOf(pids[r]).peak.toFixed(0)}`).join(', ')}`,
      `workflows evicted from the worker's full cache: ${evictions ? evictions[1] : 'none (the series appears with the first one)'}`,
      `RSS growth from ${first.documents} to ${end.documents} documents (MB): ${ROLES.map((r) => `${r} ${(end.rss[r] - first.rss[r]).toFixed(0)}`).join(', ')}`,
    ];
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
