import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../runtime/ports';

const ROOT = path.resolve(__dirname, '../..');
export const CHASQUI_BIN = path.join(ROOT, 'bin/chasqui');

export interface ChasquiStartEnv {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  apiUrl: string;
  port: number;
  pgPort: number;
}

/** The environment of a `chasqui start` with everything embedded on free ports and a fresh data folder. */
export async function chasquiStartEnv(): Promise<ChasquiStartEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-start-'));
  const [port, temporalPort, uiPort, pgPort, simPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    CHASQUI_DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    CHASQUI_EMBEDDED_PG_PORT: String(pgPort),
    SIMULATOR_PORT: String(simPort),
    CHASQUI_METRICS_PORT: '0', // not 9464: another process on the machine may hold the default
  };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'CHASQUI_MASTER_KEY', 'CHASQUI_AUTHORITY_URL'])
    delete env[name];
  return { env, dataDir, apiUrl: `http://127.0.0.1:${port}`, port, pgPort };
}

/** Runs `chasqui start` and resolves once it printed that it is running (rejects if it exits or takes over 90 s). */
export function spawnChasquiStart(
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; output: () => string }> {
  return spawnChasqui(['start'], env, 'chasqui is running', nodeArgs);
}

/** Runs `chasqui <args>` and resolves once its output contains `until` (rejects if it exits first or after 90 s). */
export function spawnChasqui(
  args: string[],
  env: NodeJS.ProcessEnv,
  until: string,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [...nodeArgs, CHASQUI_BIN, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${until}' after 90 s:\n${out}`)), 90_000);
    child.stdout!.on('data', () => {
      if (out.includes(until)) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

/** Resolves once `predicate` holds for the output read so far (checked as output arrives; rejects after `ms`). */
export function untilOutput(
  child: ChildProcess,
  output: () => string,
  predicate: (out: string) => boolean,
  ms = 60_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate(output())) return resolve();
    const timer = setTimeout(() => {
      child.stdout!.off('data', check);
      reject(new Error(`output never matched after ${ms / 1000} s:\n${output()}`));
    }, ms);
    function check() {
      if (!predicate(output())) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve();
    }
    child.stdout!.on('data', check);
  });
}

/** The JSON log lines of a chasqui process's output (the welcome text and anything else that is not JSON is skipped). */
export function logLines(output: string): { level: number; msg?: string; [key: string]: unknown }[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/** SIGINT, as Ctrl-C does; resolves with the exit code. */
export function stopChasqui(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}
