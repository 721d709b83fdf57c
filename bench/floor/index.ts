/**
 * `npm run bench:floor`: what Temporal itself costs per workflow on the dev server chasqui runs (SQLite file, WAL,
 * the same flags), so bench:issue's CPU per document can be read as a ratio of it measured minutes apart on the same
 * machine. 20 warm-up, then BENCH_WORKFLOWS (400) of each shape started at concurrency BENCH_CONCURRENCY (16); CPU of
 * the server from /proc and of this process (client + worker + SDK core) until all have completed.
 * A stopgap until bench:cost (issue 17) measures the floor in the same run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { startTemporalDevServer } from '../../runtime/temporal-server';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { loadConfig } from '../../core/config';

const COUNT = Number(process.env.BENCH_WORKFLOWS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

/** CPU seconds of this process's descendants (the Temporal server), from /proc. */
function childrenCpu(): number {
  const parents = new Map<number, { parent: number; cpu: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), { parent: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, { cpu }] of parents) {
    let up = parents.get(pid)?.parent ?? 1;
    while (up !== process.pid && up > 1) up = parents.get(up)?.parent ?? 1;
    if (up === process.pid) total += cpu;
  }
  return total;
}

const ownCpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1e6;

async function main(): Promise<void> {
  Runtime.install({ shutdownSignals: [] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-floor-'));
  const config = loadConfig();
  const bin = await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
  const server = await startTemporalDevServer({ bin, dbFile: path.join(dir, 'temporal.db') });
  try {
    const client = new Client({ connection: await Connection.connect({ address: server.address }) });
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: server.address }),
      taskQueue: 'floor',
      workflowsPath: require.resolve('./workflows'),
      activities: { noop: async () => undefined },
    });
    const lines = [`bench:floor  node ${process.version}  ${os.cpus().length} CPUs  load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`];
    await worker.runUntil(async () => {
      for (const shape of ['emptyWorkflow', 'oneLocalActivityWorkflow'] as const) {
        let next = 0;
        const run = async (n: number) => {
          const started: Promise<unknown>[] = [];
          const one = async () => {
            while (next < n) {
              const id = `${shape}-${next++}-${Date.now()}`;
              await client.workflow.start(shape, { taskQueue: 'floor', workflowId: id });
            }
          };
          for (let i = 0; i < CONCURRENCY; i++) started.push(one());
          await Promise.all(started);
          // Completion is read from visibility once a second (what a waiting client would cost is left out).
          while ((await client.workflow.count(`WorkflowType="${shape}" AND ExecutionStatus="Running"`)).count > 0) {
            await new Promise((r) => setTimeout(r, 1000));
          }
        };
        await run(20);
        next = 0;
        const server0 = childrenCpu();
        const own0 = ownCpu();
        const t0 = performance.now();
        await run(COUNT);
        const serverMs = ((childrenCpu() - server0) * 1000) / COUNT;
        const ownMs = ((ownCpu() - own0) * 1000) / COUNT;
        const seconds = (performance.now() - t0) / 1000;
        lines.push(`${shape.padEnd(26)} ${(serverMs + ownMs).toFixed(1)} ms per workflow = temporal ${serverMs.toFixed(1)} + sdk ${ownMs.toFixed(1)}  (${COUNT} in ${seconds.toFixed(1)} s)`);
      }
    });
    console.log(lines.join('\n'));
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
