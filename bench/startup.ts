/**
 * `npm run bench:startup` (issue 41): how long `chasqui api` and `chasqui worker` take from spawn to ready, and their
 * resident memory then and once settled, run from the TypeScript sources through tsx (development, the image before
 * issue 41) and from the compiled layout (`npm run build`, the image now), alternately in the same run so the machine's
 * load weighs on both alike. Ready: the api's /readyz answers 200; the worker logs `chasqui worker running` (its
 * workflow code bundled, polling). Both get the image's ENV (Dockerfile) and the worker compose's NODE_OPTIONS, against
 * an embedded PostgreSQL and a Temporal dev server. BENCH_RUNS (5) starts of each; BENCH_SETTLE_MS (10,000) after ready
 * the resident memory is read again (VmRSS; VmHWM is the peak since start).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../core/config';
import { freePort } from '../runtime/ports';
import { startEmbeddedPostgres } from '../runtime/postgres';
import { obtainTemporalBinary } from '../runtime/temporal-binaries';
import { startTemporalDevServer } from '../runtime/temporal-server';
import { openDatabase } from '../runtime/services';
import { buildCompiledLayout } from '../test/support/compiled-layout';
import { composeServiceEnv, imageEnv } from '../test/support/production-shape';
import { percentile } from './soak-steps';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 10_000);
const ROOT = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Role = 'api' | 'worker';
interface Start {
  readyMs: number;
  rssReadyMb: number;
  rssSettledMb: number;
  peakMb: number;
}

function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : 0;
}

async function startOnce(appDir: string, role: Role, env: NodeJS.ProcessEnv): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [path.join(appDir, 'bin/chasqui'), role], {
    cwd: appDir,
    env: { ...env, PORT: String(port), CHASQUI_METRICS_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (c) => reject(new Error(`exited ${c}:\n${out}`))),
  );
  exited.catch(() => undefined);
  const ready = async () => {
    for (;;) {
      if (role === 'worker' && out.includes('chasqui worker running')) return;
      if (role === 'api' && (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok) return;
      await sleep(20);
    }
  };
  try {
    await Promise.race([ready(), exited, sleep(180_000).then(() => Promise.reject(new Error(`not ready:\n${out}`)))]);
    const readyMs = performance.now() - started;
    const rssReadyMb = memoryMb(child.pid!, 'VmRSS');
    await sleep(SETTLE_MS);
    return { readyMs, rssReadyMb, rssSettledMb: memoryMb(child.pid!, 'VmRSS'), peakMb: memoryMb(child.pid!, 'VmHWM') };
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-startup-'));
  fs.chmodSync(dir, 0o755);
  const layouts = { sources: ROOT, compiled: await buildCompiledLayout(path.join(dir, 'app')) };
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), persistent: false });
  const config = loadConfig();
  const bin = await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
  const temporal = await startTemporalDevServer({ bin, uiPort: null, dbFile: null });
  await (await openDatabase(pg.url, { migrate: true })).destroy();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: pg.url,
    TEMPORAL_ADDRESS: temporal.address,
    CHASQUI_MASTER_KEY: randomBytes(32).toString('base64'),
    HOST: '127.0.0.1',
  };
  const results = new Map<string, Start[]>();
  try {
    for (let run = 1; run <= RUNS; run++)
      for (const role of ['api', 'worker'] as Role[])
        for (const [name, appDir] of Object.entries(layouts)) {
          const start = await startOnce(appDir, role, {
            ...base,
            ...imageEnv(),
            ...(role === 'worker' ? composeServiceEnv('worker') : {}),
          });
          console.error(`  run ${run} ${role} ${name}: ${JSON.stringify(start)}`);
          results.set(`${role} ${name}`, [...(results.get(`${role} ${name}`) ?? []), start]);
        }
  } finally {
    await temporal.stop();
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1))}`);
  console.log('process | ready ms p50 (min-max) | RSS at ready MB p50 | RSS settled MB p50 | peak MB p50');
  for (const [key, starts] of results) {
    const p50 = (pick: (s: Start) => number) =>
      percentile(
        starts.map(pick).sort((a, b) => a - b),
        50,
      ).toFixed(0);
    const ms = starts.map((s) => s.readyMs);
    console.log(
      `${key} | ${p50((s) => s.readyMs)} (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}) | ` +
        `${p50((s) => s.rssReadyMb)} | ${p50((s) => s.rssSettledMb)} | ${p50((s) => s.peakMb)}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
