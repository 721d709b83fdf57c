/**
 * `npm run bench:issue`: POST /v1/cpe against `chasqui start`'s whole stack on this machine (embedded PostgreSQL,
 * Temporal dev server, simulator, worker and API in one process tree), as integrators would load it: many companies,
 * each with its own signing token (the 120/minute limit is per token), keep-alive connections, distinct numbers.
 * Prints issued documents per second with p50/p99 latency, how fast the worker drains them to the simulator, and the
 * CPU each process used (from /proc) per document and while issuing and draining: where the time goes.
 *
 * Options (env): BENCH_COMPANIES (60), BENCH_SECONDS (15), BENCH_CONCURRENCY (32), BENCH_LINES (5); BENCH_WEBHOOK=1
 * gives every company a webhook to an https receiver in this process (answering 200) and waits for every notice;
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of chasqui's node process there (open it in Chrome DevTools).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { CHASQUI_BIN, chasquiStartEnv, spawnChasquiStart, stopChasqui } from '../test/support/chasqui-process';
import { invoicePayload } from './payloads';
import { localTlsCertificate, startReceiver } from '../test/webhooks/support';
import { descendants, ownCpu, readProcesses } from './proc';

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 60);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LINES = Number(process.env.BENCH_LINES ?? 5);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const WEBHOOK = process.env.BENCH_WEBHOOK === '1';

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(
  port: number,
  method: string,
  urlPath: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(data ? { 'content-length': data.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Valid RUCs for the bench companies: prefix 20, a sequence, SUNAT's check digit. */
function ruc(i: number): string {
  const base = `20${String(700000000 + i)
    .padStart(8, '0')
    .slice(-8)}`;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const total = [...base].reduce((sum, d, k) => sum + Number(d) * weights[k], 0);
  return base + String((11 - (total % 11)) % 10);
}

/** CPU seconds used so far by each kind of process under `root` (chasqui's node, temporal, postgres), from /proc. */
function cpuByProcess(root: number): Map<string, number> {
  const totals = new Map<string, number>();
  for (const info of descendants(readProcesses(), root)) {
    const kind =
      info.pid === root
        ? 'chasqui node (API + worker + simulator)'
        : info.name.startsWith('postgres')
          ? 'postgres'
          : info.name;
    totals.set(kind, (totals.get(kind) ?? 0) + info.cpu);
  }
  totals.set('bench client (this process)', ownCpu());
  return totals;
}

function cpuLines(label: string, cpu: Map<string, number>, seconds: number): string[] {
  const rows = [...cpu].filter(([, used]) => used > 0.05);
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, cpu]) => sum + cpu, 0);
  return [
    `cpu while ${label} (${seconds.toFixed(1)} s wall, ${(total / seconds).toFixed(2)} of ${os.cpus().length} cores):`,
    ...rows.map(
      ([kind, cpu]) =>
        `  ${kind.padEnd(42)} ${cpu.toFixed(1).padStart(6)} s  ${((100 * cpu) / total).toFixed(0).padStart(3)} %`,
    ),
  ];
}

/** CPU seconds per kind of process between two readings. */
function spent(from: Map<string, number>, to: Map<string, number>): Map<string, number> {
  return new Map([...to].map(([kind, cpu]) => [kind, cpu - (from.get(kind) ?? 0)]));
}

/** Milliseconds of CPU per document for each kind of process: the figure a loaded machine does not distort. */
function perDocument(cpu: Map<string, number>, documents: number): string {
  const rows = [...cpu]
    .map(([kind, seconds]) => [kind.split(' ')[0], (1000 * seconds) / documents] as const)
    .filter(([, ms]) => ms >= 0.05);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  return `${total.toFixed(1)} ms = ${rows.map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`).join(' + ')}`;
}

function sql(pgPort: number, query: string): string {
  return spawnSync('psql', [`postgres://postgres:chasqui@127.0.0.1:${pgPort}/chasqui`, '-Atc', query], {
    encoding: 'utf8',
  }).stdout.trim();
}

const resolvedCount = (pgPort: number) => Number(sql(pgPort, 'select count(*) from documents where resolved'));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One account and COMPANIES companies with a token each, every one notifying webhookUrl when there is one. */
async function createCompanies(port: number, env: NodeJS.ProcessEnv, webhookUrl: string | undefined) {
  const account = spawnSync(process.execPath, [CHASQUI_BIN, 'accounts', 'create', '--name', 'bench', '--json'], {
    env,
    encoding: 'utf8',
  });
  const accountToken = JSON.parse(account.stdout).token as string;
  const companies: { ruc: string; token: string; next: number }[] = [];
  for (let i = 0; i < COMPANIES; i++) {
    const created = await request(port, 'POST', '/v1/companies', accountToken, {
      ruc: ruc(i),
      business_name: `Bench ${i}`,
      plan_type: '01',
      environment: '01',
    });
    if (created.status !== 201) throw new Error(`company ${i}: ${created.status} ${JSON.stringify(created.body)}`);
    companies.push({ ruc: ruc(i), token: created.body.data.token, next: 1 });
    if (webhookUrl) {
      const hooked = await request(port, 'PATCH', `/v1/companies/${ruc(i)}/webhook`, accountToken, {
        url: webhookUrl,
      });
      if (hooked.status !== 200)
        throw new Error(`webhook of company ${i}: ${hooked.status} ${JSON.stringify(hooked.body)}`);
    }
  }
  return companies;
}

async function main(): Promise<void> {
  const { env, dataDir, port, pgPort } = await chasquiStartEnv();
  const tls = WEBHOOK ? localTlsCertificate() : null;
  const receiver = tls ? await startReceiver(tls) : null;
  if (tls) Object.assign(env, { CHASQUI_WEBHOOK_CA_FILE: tls.certFile, CHASQUI_WEBHOOK_ALLOW_PRIVATE: 'true' });
  const { child } = await spawnChasquiStart(env, CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []);
  try {
    const companies = await createCompanies(port, env, receiver?.url);
    // Warm-up: one document per company (JIT, pools, Temporal task queues), not counted.
    await Promise.all(
      companies.map((c) =>
        request(port, 'POST', '/v1/cpe', c.token, invoicePayload(LINES, { ruc: c.ruc, correlativo: String(c.next++) })),
      ),
    );

    const latencies: number[] = [];
    const failures = new Map<number, number>();
    const cpuAtStart = cpuByProcess(child.pid!);
    const resolvedAtStart = resolvedCount(pgPort);
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    let turn = 0;
    async function client(): Promise<void> {
      while (performance.now() < deadline) {
        const company = companies[turn++ % companies.length];
        const payload = invoicePayload(LINES, { ruc: company.ruc, correlativo: String(company.next++) });
        const t0 = performance.now();
        const res = await request(port, 'POST', '/v1/cpe', company.token, payload);
        if (res.status === 202) latencies.push(performance.now() - t0);
        else failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const elapsed = (performance.now() - started) / 1000;
    const cpuAtStop = cpuByProcess(child.pid!);
    const resolvedAtStop = resolvedCount(pgPort);
    latencies.sort((a, b) => a - b);
    const issued = latencies.length;

    // Drain: how fast the worker resolves what was issued (accepted by the simulator).
    const total = issued + companies.length;
    const drainStart = performance.now();
    let resolved = 0;
    for (;;) {
      resolved = resolvedCount(pgPort);
      const notified = receiver ? receiver.requests.length >= total : true;
      if ((resolved >= total && notified) || performance.now() - drainStart > 600_000) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const cpuAtDrained = cpuByProcess(child.pid!);
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const [firstCreated, lastResolved] = sql(pgPort, 'select min(created_at), max(resolved_at) from documents').split(
      '|',
    );
    // The worker drains while the API issues: the drain's cost per document, measured once issuing stopped, is taken
    // out of the issuing window to leave what the API and the workflow starts cost.
    const drainCpu = spent(cpuAtStop, cpuAtDrained);
    const drainedDuringIssue = resolvedAtStop - resolvedAtStart;
    const drainedAfter = resolved - resolvedAtStop;
    const issueCpu = new Map(
      [...spent(cpuAtStart, cpuAtStop)].map(([kind, cpu]) => [
        kind,
        cpu - ((drainCpu.get(kind) ?? 0) * drainedDuringIssue) / Math.max(1, drainedAfter),
      ]),
    );
    const pipelineSeconds = (Date.parse(lastResolved) - Date.parse(firstCreated)) / 1000;

    const lines = [
      `bench:issue  node ${process.version}  ${os.cpus()[0].model}  ${os.cpus().length} CPUs  load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      `load: ${COMPANIES} companies (one token each), ${CONCURRENCY} concurrent keep-alive clients, ${SECONDS} s, ${LINES}-line facturas`,
      `issued (202):     ${issued} in ${elapsed.toFixed(1)} s = ${(issued / elapsed).toFixed(0)} documents/s`,
      `latency:          p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms   max ${latencies[latencies.length - 1].toFixed(1)} ms`,
      ...(receiver
        ? [
            `webhooks:         ${receiver.requests.length} notices received (one https receiver in this process, 200 to all)`,
          ]
        : []),
      `other answers:    ${failures.size ? [...failures].map(([s, n]) => `${s}×${n}`).join(' ') : 'none'}`,
      `resolved:         ${resolved} of ${total} (accepted by the simulator), the last ${drainSeconds.toFixed(1)} s after issuing stopped`,
      `drain rate:       ${(resolved / pipelineSeconds).toFixed(0)} documents/s resolved from first issue to last verdict (${pipelineSeconds.toFixed(1)} s)`,
      `cpu per resolved document (issue to verdict): ${perDocument(spent(cpuAtStart, cpuAtDrained), resolved)}`,
      `  of which issuing (API, workflow start):     ${perDocument(issueCpu, issued)}`,
      `  of which delivering (worker, Temporal, sim): ${perDocument(drainCpu, Math.max(1, drainedAfter))}  (${drainedDuringIssue} resolved while issuing)`,
      ...cpuLines('issuing', spent(cpuAtStart, cpuAtStop), elapsed),
      ...cpuLines('draining after issuing stopped', drainCpu, drainSeconds),
    ];
    console.log(lines.join('\n'));
  } finally {
    await receiver?.close();
    await stopChasqui(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
