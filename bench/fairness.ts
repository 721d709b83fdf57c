/**
 * `npm run bench:fairness` (issue 40): what one tenant's flood does to another's delivery. In each shape bench:cost
 * starts (`npm start` and production, bench/cost-shapes.ts), once per BENCH_MODES (`on`: the defaults; `keys`: the
 * fairness keys with CHASQUI_ACCOUNT_BURST=0; `wide`: the batch lane never narrowed, its 100 slots alike whatever runs
 * beside it (runtime/lanes.ts); `off`: CHASQUI_FAIRNESS=off; `on@8`: a mode with 8 workflow task slots;
 * a fresh shape each): account B issues one 5-line factura every BENCH_INTERVAL_MS (2,000) alone, BENCH_IDLE_SAMPLES
 * (10) of them, its idle figure; then account A issues BENCH_DOCUMENTS (5,000) as fast as the API takes them
 * (BENCH_CONCURRENCY, 16, in flight) while B goes on issuing one every interval until A's last document is resolved.
 * BENCH_LIMITS=default keeps the API's rate limits as shipped (120 a minute per token, 600 per account): A spreads its
 * documents over BENCH_TOKENS (8) companies, so only the account's limit holds it, and waits a second after each 429;
 * `off` turns both limits off and A uses one company (an operator who raised them: Temporal's order alone).
 * BENCH_SLOTS sets the workers' CHASQUI_WORKFLOW_TASK_SLOTS for every mode (unset: chasqui's default). B's figure is
 * each document's time from its commit (the 202) to its resolution, as chasqui's database recorded both (created_at,
 * resolved_at); printed as p50/p95 idle and under the flood, and their ratio (goal: p95 within 2x of idle).
 * BENCH_SHAPES=start,production and BENCH_MODES=on,keys,off pick the runs; BENCH_ENV adds settings to every shape.
 */
import os from 'node:os';
import { createAccount } from '../db/accounts';
import { createDb } from '../db/knex';
import { startShape, type Shape } from './cost-shapes';
import { issue, newBenchCompany, sleep, untilResolved, type BenchCompany } from './cost-load';
import { CONCURRENCY, SHAPES } from './cost-options';
import { invoicePayload, post } from './payloads';
import { percentile } from './soak-steps';
import { localTlsCertificate } from '../test/webhooks/support';
import { runBench } from './run';
import { documentWorkflowId } from '../workflows/document';
import { tsToMs } from '@temporalio/common/lib/time';

const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 2_000);
const IDLE_SAMPLES = Number(process.env.BENCH_IDLE_SAMPLES ?? 10);
const MODES = (process.env.BENCH_MODES ?? 'on,keys,off').split(',');
const FLOOD = Number(process.env.BENCH_DOCUMENTS ?? 5_000);
const LIMITS = process.env.BENCH_LIMITS ?? 'default';
const TOKENS = LIMITS === 'off' ? 1 : Number(process.env.BENCH_TOKENS ?? 8);
/** BENCH_ENV=NAME=value,NAME=value: settings for every mode's shape, after the rate limits (to try one out). */
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split(/=(.*)/s).slice(0, 2)),
);
/** `on`: chasqui's defaults; `keys`: without the account burst; `wide`: without the batch lane's narrowing; `off`: arrival order. */
const MODE_ENV: Record<string, Record<string, string>> = {
  on: { CHASQUI_FAIRNESS: 'on' },
  keys: { CHASQUI_FAIRNESS: 'on', CHASQUI_ACCOUNT_BURST: '0' },
  off: { CHASQUI_FAIRNESS: 'off' },
  wide: { CHASQUI_FAIRNESS: 'on', CHASQUI_BATCH_SLOTS: '100', CHASQUI_BATCH_BUSY_SLOTS: '100' },
};
/** A mode's environment; `on@8` is the mode `on` with 8 workflow task slots (BENCH_SLOTS for every mode). */
function modeEnv(mode: string): Record<string, string> {
  const [name, slots = process.env.BENCH_SLOTS] = mode.split('@');
  if (!MODE_ENV[name]) throw new Error(`BENCH_MODES: unknown mode ${name} (on, keys, off, each with @slots)`);
  return { ...MODE_ENV[name], ...(slots ? { CHASQUI_WORKFLOW_TASK_SLOTS: slots } : {}) };
}

/** A's documents at CONCURRENCY over its companies in turn, each retried a second after a 429: issued, refused. */
async function flood(shape: Shape, companies: BenchCompany[]): Promise<{ seconds: number; refused: number }> {
  let left = FLOOD;
  let refused = 0;
  let turn = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const company = companies[turn++ % companies.length];
        const payload = invoicePayload(5, { ruc: company.ruc, correlativo: String(company.next++) });
        for (;;) {
          const res = await post(`${shape.apiUrl}/v1/cpe`, company.token, payload);
          if (res.status === 202) break;
          if (res.status !== 429)
            throw new Error(`A's POST /v1/cpe answered ${res.status}: ${JSON.stringify(res.body)}`);
          refused++;
          await sleep(1000);
        }
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, refused };
}

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

interface Times {
  /** From commit to resolution, sorted. */
  total: number[];
  /** Of it, until Temporal took the start (the API's queue of starts), and from then on (Temporal, the worker, the send). */
  starting: number[];
  running: number[];
}

/** Milliseconds from commit to resolution of each document, once all are resolved, and its two parts. */
async function resolutionMs(shape: Shape, company: BenchCompany, ids: string[]): Promise<Times> {
  await untilResolved(shape, company, null);
  const { rows } = await shape.db.query(
    `select extract(epoch from (resolved_at - created_at)) * 1000 as total,
            extract(epoch from (workflow_started_at - created_at)) * 1000 as starting,
            extract(epoch from (resolved_at - workflow_started_at)) * 1000 as running
       from documents where id = any($1)`,
    [ids],
  );
  const sorted = (key: string) => rows.map((r) => Number(r[key])).sort((x, y) => x - y);
  return { total: sorted('total'), starting: sorted('starting'), running: sorted('running') };
}

/**
 * BENCH_TRACE=N: the N slowest documents' way, in ms from their commit: when chasqui marked the start, and each event
 * of their workflow's history (what waited: the start, a workflow task, an activity).
 */
async function trace(shape: Shape, ids: string[]): Promise<string[]> {
  const count = Number(process.env.BENCH_TRACE ?? 0);
  if (count <= 0) return [];
  const { rows } = await shape.db.query(
    `select id, created_at, workflow_started_at, resolved_at from documents where id = any($1)
      order by resolved_at - created_at desc limit ${count}`,
    [ids],
  );
  const client = await shape.temporal();
  const lines: string[] = [];
  for (const row of rows) {
    const at = (date: Date) => `${date.getTime() - row.created_at.getTime()}`;
    const history = await client.workflow.getHandle(documentWorkflowId(row.id)).fetchHistory();
    const events = (history.events ?? []).map((e) => {
      // The event's kind is the one `…EventAttributes` field it carries.
      const name = Object.keys(e).find((key) => key.endsWith('EventAttributes') && (e as Record<string, unknown>)[key]);
      return `${name?.replace('EventAttributes', '') ?? '?'}@${tsToMs(e.eventTime) - row.created_at.getTime()}`;
    });
    lines.push(`    ${row.id}: marked started @${at(row.workflow_started_at)}, resolved @${at(row.resolved_at)}`);
    lines.push(`      ${events.join(' ')}`);
  }
  return lines;
}

const figures = (t: Times) =>
  `p50 ${ms(t.total, 50)}  p95 ${ms(t.total, 95)}  max ${ms(t.total, 100)}` +
  `  (until started p50 ${ms(t.starting, 50)} / p95 ${ms(t.starting, 95)}, then p50 ${ms(t.running, 50)} / p95 ${ms(t.running, 95)})`;

const ms = (sorted: number[], p: number) => `${percentile(sorted, p).toFixed(0)} ms`;

async function run(shapeName: string, mode: string, caFile: string): Promise<string[]> {
  const limits: Record<string, string> =
    LIMITS === 'off' ? {} : { CHASQUI_RATE_LIMIT_PER_MINUTE: '120', CHASQUI_ACCOUNT_RATE_LIMIT_PER_MINUTE: '600' };
  const shape = await startShape(shapeName, caFile, 'warn', 'postgres', { ...modeEnv(mode), ...limits, ...EXTRA_ENV });
  const knex = createDb(shape.dbUrl, { max: 1 });
  try {
    const other = await createAccount(knex, { name: 'bench fairness B', quotaUnits: 0 });
    const a: BenchCompany[] = [];
    for (let i = 0; i < TOKENS; i++) a.push(await newBenchCompany(shape, shape.accountToken, `Inundadora ${i} S.A.C.`));
    const b = await newBenchCompany(shape, other.token, 'Puntual S.A.C.');
    await issue(shape, a[0], CONCURRENCY); // warm-up of both paths
    await untilResolved(shape, a[0], null);
    let idleLeft = IDLE_SAMPLES;
    const idle = await resolutionMs(shape, b, await trickle(shape, b, () => idleLeft-- > 0));

    let flooding = true;
    const started = performance.now();
    const flooded = (async () => {
      const issued = await flood(shape, a);
      for (const company of a) await untilResolved(shape, company, null);
      flooding = false;
      return { ...issued, resolvedSeconds: (performance.now() - started) / 1000 };
    })();
    const [{ seconds, refused, resolvedSeconds }, bIds] = await Promise.all([
      flooded,
      trickle(shape, b, () => flooding),
    ]);
    const loaded = await resolutionMs(shape, b, bIds);
    const ratio = percentile(loaded.total, 95) / percentile(idle.total, 95);
    return [
      `${shape.title}; mode ${mode} (${JSON.stringify({ ...modeEnv(mode), ...EXTRA_ENV })}); load ${load()}; rate limits ${LIMITS}`,
      `  A: ${FLOOD} documents over ${TOKENS} tokens issued in ${seconds.toFixed(1)} s (${(FLOOD / seconds).toFixed(1)}/s, ${refused} answers 429), all resolved after ${resolvedSeconds.toFixed(1)} s`,
      `  B idle    (${idle.total.length}): ${figures(idle)}`,
      `  B flooded (${loaded.total.length}): ${figures(loaded)}`,
      `  p95 flooded / idle: ${ratio.toFixed(2)} (goal ≤ 2)`,
      ...(await trace(shape, bIds)),
    ];
  } finally {
    await knex.destroy();
    await shape.stop();
  }
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  const out = [
    `bench:fairness  node ${process.version}  ${os.cpus()[0].model}  ${os.cpus().length} CPUs  load ${load()}`,
    `A floods ${FLOOD} 5-line facturas at concurrency ${CONCURRENCY}; B issues one every ${INTERVAL_MS} ms (${IDLE_SAMPLES} alone first)`,
  ];
  const tls = localTlsCertificate();
  for (const shapeName of SHAPES)
    for (const mode of MODES) {
      const lines = await run(shapeName, mode, tls.certFile);
      console.error(lines.join('\n'));
      out.push(...lines);
    }
  out.push(`load at the end ${load()}`);
  console.log(out.join('\n'));
}

runBench(main);
