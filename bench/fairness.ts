/**
 * `npm run bench:fairness` (issue 40): what one tenant's flood does to another's delivery. In each shape bench:cost
 * starts (`npm start` and production, bench/cost-shapes.ts), once with CHASQUI_FAIRNESS=on and once =off (a fresh
 * shape each, the rate limits off): account B issues one 5-line factura every BENCH_INTERVAL_MS (2,000) alone,
 * BENCH_IDLE_SAMPLES (10) of them, its idle figure; then account A issues BENCH_DOCUMENTS (5,000) as fast as the API
 * takes them (BENCH_CONCURRENCY, 16, in flight) while B goes on issuing one every interval until A's last document is
 * resolved. B's figure is each document's time from its commit (the 202) to its resolution, as chasqui's database
 * recorded both (created_at, resolved_at); printed as p50/p95 idle and under the flood, and their ratio (goal: p95
 * within 2x of idle). BENCH_SHAPES=start,production and BENCH_MODES=on,off pick the runs.
 */
import os from 'node:os';
import { createAccount } from '../db/accounts';
import { createDb } from '../db/knex';
import { startShape, type Shape } from './cost-shapes';
import { issue, newBenchCompany, sleep, untilResolved, type BenchCompany } from './cost-load';
import { CONCURRENCY, SHAPES } from './cost-options';
import { invoicePayload, post } from './payloads';
import { localTlsCertificate } from '../test/webhooks/support';

const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 2_000);
const IDLE_SAMPLES = Number(process.env.BENCH_IDLE_SAMPLES ?? 10);
const MODES = (process.env.BENCH_MODES ?? 'on,off').split(',');
const FLOOD = Number(process.env.BENCH_DOCUMENTS ?? 5_000);

/** B's documents, one every interval while `going()`; their ids. */
async function trickle(shape: Shape, b: BenchCompany, going: () => boolean): Promise<string[]> {
  const ids: string[] = [];
  while (going()) {
    const next = Date.now() + INTERVAL_MS;
    const res = await post(
      `${shape.apiUrl}/v1/cpe`,
      b.token,
      invoicePayload(5, { ruc: b.ruc, correlativo: String(b.next++) }),
    );
    if (res.status !== 202) throw new Error(`B's POST /v1/cpe answered ${res.status}: ${JSON.stringify(res.body)}`);
    ids.push(res.body.external_id);
    await sleep(Math.max(0, next - Date.now()));
  }
  return ids;
}

/** Milliseconds from commit to resolution of each document, once all are resolved. */
async function resolutionMs(shape: Shape, company: BenchCompany, ids: string[]): Promise<number[]> {
  await untilResolved(shape, company, null);
  const { rows } = await shape.db.query(
    `select extract(epoch from (resolved_at - created_at)) * 1000 as ms from documents where id = any($1)`,
    [ids],
  );
  return rows.map((r) => Number(r.ms)).sort((x, y) => x - y);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(shapeName: string, mode: string, caFile: string): Promise<string[]> {
  const shape = await startShape(shapeName, caFile, 'warn', 'postgres', { CHASQUI_FAIRNESS: mode });
  const knex = createDb(shape.dbUrl, { max: 1 });
  try {
    const other = await createAccount(knex, { name: 'bench fairness B', quotaUnits: 0 });
    const a = await newBenchCompany(shape, shape.accountToken, 'Inundadora S.A.C.');
    const b = await newBenchCompany(shape, other.token, 'Puntual S.A.C.');
    await issue(shape, a, CONCURRENCY); // warm-up of both paths
    await untilResolved(shape, a, null);
    let idleLeft = IDLE_SAMPLES;
    const idle = await resolutionMs(shape, b, await trickle(shape, b, () => idleLeft-- > 0));

    let flooding = true;
    const started = performance.now();
    const flood = (async () => {
      const issued = await issue(shape, a, FLOOD);
      await untilResolved(shape, a, null);
      flooding = false;
      return { issuedSeconds: issued.issuedSeconds, resolvedSeconds: (performance.now() - started) / 1000 };
    })();
    const [{ issuedSeconds, resolvedSeconds }, bIds] = await Promise.all([flood, trickle(shape, b, () => flooding)]);
    const loaded = await resolutionMs(shape, b, bIds);
    const ratio = pct(loaded, 95) / pct(idle, 95);
    return [
      `${shape.title}; CHASQUI_FAIRNESS=${mode}`,
      `  A: ${FLOOD} documents issued in ${issuedSeconds.toFixed(1)} s (${(FLOOD / issuedSeconds).toFixed(0)}/s), all resolved after ${resolvedSeconds.toFixed(1)} s`,
      `  B idle    (${idle.length}): p50 ${pct(idle, 50).toFixed(0)} ms  p95 ${pct(idle, 95).toFixed(0)} ms`,
      `  B flooded (${loaded.length}): p50 ${pct(loaded, 50).toFixed(0)} ms  p95 ${pct(loaded, 95).toFixed(0)} ms  max ${loaded[loaded.length - 1].toFixed(0)} ms`,
      `  p95 flooded / idle: ${ratio.toFixed(2)} (goal ≤ 2)`,
    ];
  } finally {
    await knex.destroy();
    await shape.stop();
  }
}

async function main(): Promise<void> {
  const out = [
    `bench:fairness  node ${process.version}  ${os.cpus()[0].model}  ${os.cpus().length} CPUs  load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `A floods ${FLOOD} 5-line facturas at concurrency ${CONCURRENCY}; B issues one every ${INTERVAL_MS} ms (${IDLE_SAMPLES} alone first)`,
  ];
  const tls = localTlsCertificate();
  for (const shapeName of SHAPES)
    for (const mode of MODES) {
      const lines = await run(shapeName, mode, tls.certFile);
      console.error(lines.join('\n'));
      out.push(...lines);
    }
  out.push(
    `load at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(out.join('\n'));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
