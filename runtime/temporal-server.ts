import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { logger } from '../core/logger';
import { freePort, waitForPort } from './ports';
import { SEARCH_ATTRIBUTES, SEARCH_ATTRIBUTE_TYPE_NAMES } from '../workflows/search-attributes';

export interface TemporalServerHandle {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * The Temporal dev server (`temporal server start-dev`, the binary from runtime/temporal-binaries.ts) with chasqui's
 * search attributes registered. `dbFile` keeps workflows across restarts (npm start); without it the server is in
 * memory (tests).
 */
export async function startTemporalDevServer(options: {
  bin: string;
  port?: number;
  uiPort?: number | null;
  dbFile?: string | null;
  namespace?: string;
}): Promise<TemporalServerHandle> {
  const port = options.port ?? (await freePort());
  const bin = options.bin;
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--namespace',
    options.namespace ?? 'default',
  ];
  args.push('--log-format', 'json', '--log-level', 'warn');
  args.push('--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true');
  // An activity scheduled by a workflow task comes back in that task's completion answer when the worker has a free
  // slot, instead of one more trip through matching (the worker asks for it by default; the server must allow it).
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  // Task queue Priority and Fairness (server 1.29+; docs/delivery.md): tasks dispatched by priority key, then in turn
  // between fairness keys (accounts) rather than in arrival order. enableFairness implies the new matcher.
  args.push('--dynamic-config-value', 'matching.enableFairness=true');
  // Fairness and priority order the tasks of one partition; a queue split four ways (the default) is drained from
  // each in turn, so an account's turn depends on where its tasks landed. One process never needs four.
  args.push('--dynamic-config-value', 'matching.numTaskqueueReadPartitions=1');
  args.push('--dynamic-config-value', 'matching.numTaskqueueWritePartitions=1');
  if (options.dbFile) {
    fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
    // WAL without an fsync per commit: workflow starts go from ~80/s to ~130/s (docs/benchmarks-history.md). Still durable
    // when any process crashes; only an OS crash or power cut can lose the last commits (dev all-in-one only).
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  if (options.uiPort) args.push('--ui-port', String(options.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  for (const sa of SEARCH_ATTRIBUTES)
    args.push('--search-attribute', `${sa.name}=${SEARCH_ATTRIBUTE_TYPE_NAMES[sa.type]}`);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stdout?.on('data', (b: Buffer) => logger.debug({ component: 'temporal' }, b.toString().trim()));
  child.stderr?.on('data', (b: Buffer) => {
    stderr.push(b.toString());
    if (stderr.length > 50) stderr.shift();
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`temporal server exited with code ${code}: ${stderr.join('').slice(-2000)}`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort('127.0.0.1', port, 60_000), exited]);
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : null,
    stop: () => stopChild(child),
  };
}

/** SIGTERM, then SIGKILL after 3 s (the dev server's SQLite file survives a kill), so Ctrl-C stays within seconds. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn({ pid: child.pid }, 'Temporal dev server did not stop within 3 s of SIGTERM; killing it');
      child.kill('SIGKILL');
    }, 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
