import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config';

/**
 * What `npm start` leaves in its data dir while it runs (`running.json`): where each part listens. Commands in another
 * terminal (`chasqui env`, `chasqui support`'s Temporal) read it to find the instance of their CHASQUI_DATA_DIR rather
 * than whatever answers on a default port. Removed on a clean stop; a crash leaves it behind, so the pid decides.
 */
export interface RunningInstance {
  pid: number;
  dataDir: string;
  api: string;
  temporal: { address: string; ui: string | null };
  simulator: string | null;
  /** The embedded PostgreSQL's port; null with DATABASE_URL. */
  postgresPort: number | null;
}

export function runningInstanceFile(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'running.json');
}

/** Written whole or not at all (renamed into place). */
export function writeRecord(file: string, record: object): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(record, null, 2) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

/** Whether a process runs (EPERM: it does, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A record as written by writeRecord, or null when there is none (or none whole). */
export function readRecord<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** The running `npm start` of `dataDir`, or why there is none. */
export function readRunningInstance(dataDir: string): RunningInstance | string {
  const file = runningInstanceFile(dataDir);
  const record = readRecord<RunningInstance>(file);
  if (!record) return `no chasqui running for CHASQUI_DATA_DIR=${path.resolve(dataDir)} (no ${file})`;
  if (!alive(record.pid)) return `the chasqui recorded in ${file} (pid ${record.pid}) is no longer running`;
  return record;
}

/**
 * The Temporal a command beside `npm start` talks to: TEMPORAL_ADDRESS, else the dev server of the running instance
 * of CHASQUI_DATA_DIR, else the dev server's port on this machine (for a message naming it).
 */
export function commandTemporalAddress(config: Pick<Config, 'dataDir' | 'temporal'>): string {
  if (config.temporal.address) return config.temporal.address;
  const running = readRunningInstance(config.dataDir);
  return typeof running === 'string' ? `127.0.0.1:${config.temporal.port}` : running.temporal.address;
}
