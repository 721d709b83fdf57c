import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../runtime/postgres';
import { startTemporalDevServer, type TemporalServerHandle } from '../../runtime/temporal-server';
import { freePort } from '../../runtime/ports';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { openDatabase, connectTemporal, installTemporalRuntime } from '../../runtime/services';
import { loadConfig, type Config } from '../../core/config';
import type { Db } from '../../db/knex';
import { openDocumentFiles, type DocumentFiles } from '../../files/documents';

/**
 * Real PostgreSQL and a real Temporal dev server, started once per test run on first use and stopped by the root
 * hook in test/setup.ts. TEST_DATABASE_URL / TEST_TEMPORAL_ADDRESS reuse servers that are already running.
 */
let pg: Promise<{ url: string; handle: EmbeddedPostgresHandle | null }> | null = null;
let temporal: Promise<{ address: string; handle: TemporalServerHandle | null }> | null = null;
let db: Promise<Db> | null = null;
const clients: Client[] = [];
const stores: DocumentFiles[] = [];

/**
 * The run's master key: the suites share one database, and its secrets (and its master key check) are sealed with
 * one key, as in a deployment.
 */
export const TEST_MASTER_KEY = randomBytes(32).toString('base64');

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Fixtures carry fixed historical issue dates: the sending window, chasqui's and the simulator's, is off unless a
  // suite turns it on.
  const base = loadConfig({
    CHASQUI_SENDING_WINDOW_DAYS: '0',
    CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS: '0',
    ...process.env,
    CHASQUI_MASTER_KEY: TEST_MASTER_KEY,
  });
  return { ...base, ...overrides, temporal: { ...base.temporal, ...(overrides.temporal ?? {}) } };
}

export function testDatabaseUrl(): Promise<string> {
  pg ??= (async () => {
    if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, handle: null };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-test-pg-'));
    const handle = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'data'),
      port: await freePort(),
      persistent: false,
    });
    return { url: handle.url, handle };
  })();
  return pg.then((p) => p.url);
}

/** The migrated test database, shared by every suite of the run. Suites isolate data by unique ids, not truncation. */
export function getTestDb(): Promise<Db> {
  db ??= testDatabaseUrl().then((url) => openDatabase(url, { migrate: true }));
  return db;
}

export function testTemporalAddress(): Promise<string> {
  temporal ??= (async () => {
    if (process.env.TEST_TEMPORAL_ADDRESS) return { address: process.env.TEST_TEMPORAL_ADDRESS, handle: null };
    const config = testConfig();
    const bin = await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
    const handle = await startTemporalDevServer({ bin, uiPort: null, dbFile: null });
    return { address: handle.address, handle };
  })();
  return temporal.then((t) => t.address);
}

/** A database of its own on the run's PostgreSQL, migrated (what `chasqui migrate` leaves), for a suite that changes it whole. */
export async function freshTestDatabase(): Promise<{ db: Db; url: string }> {
  const name = `fresh_${randomBytes(4).toString('hex')}`;
  await (await getTestDb()).raw(`create database ${name}`);
  const url = new URL(await testDatabaseUrl());
  url.pathname = `/${name}`;
  const db = await openDatabase(url.toString(), { migrate: true });
  return { db, url: url.toString() };
}

export async function getTestTemporalClient(config: Config): Promise<Client> {
  installTemporalRuntime();
  const client = await connectTemporal(config, await testTemporalAddress());
  clients.push(client);
  return client;
}

/** A file store for a suite that builds activities without a stack, as an entry does; closed with the services. */
export function getTestFiles(config: Pick<Config, 'files'>): DocumentFiles {
  const files = openDocumentFiles(config.files);
  stores.push(files);
  return files;
}

export async function stopTestServices(): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.connection.close().catch(() => undefined)));
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
  if (db) await (await db).destroy();
  if (temporal) await (await temporal).handle?.stop();
  if (pg) await (await pg).handle?.stop();
  db = temporal = pg = null;
}
