import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, secretBoxFrom, type Config } from '../../core/config';
import { generateMasterKey } from '../../core/secretbox';
import { flushLog, logger } from '../../core/logger';
import { startEmbeddedPostgres } from '../../runtime/postgres';
import { readRunningInstance, runningInstanceFile, writeRecord, type RunningInstance } from '../../runtime/instance';
import { startTemporalDevServer } from '../../runtime/temporal-server';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { connectTemporal, eagerStarter, openDatabase, startApi, startWorker } from '../../runtime/services';
import { checkAtStart, logRuleCalendar, reportRuntimeSupport } from '../../runtime/start-checks';
import { ensureBootstrapAccount } from '../../db/accounts';
import { startSimulator } from '../../simulator/server';
import { openDocumentFiles } from '../../files/documents';
import { stopAll, untilShutdownSignal, type StopStep } from '../lifecycle';
import { shellWord } from './env';

/**
 * `npm start`: the whole service on one machine. Anything not configured is started here: PostgreSQL (embedded,
 * data under CHASQUI_DATA_DIR), the Temporal dev server with its UI (SQLite file under the data dir), then migrations,
 * the worker and the API. Data survives a restart; SIGINT/SIGTERM stop everything in reverse order.
 */
export async function startCommand(): Promise<number> {
  const config = loadConfig();
  const running = readRunningInstance(config.dataDir);
  if (typeof running !== 'string')
    throw new ConfigError(
      `chasqui already runs for CHASQUI_DATA_DIR=${config.dataDir} (pid ${running.pid}, API ${running.api}): use it ` +
        '(eval "$(npx chasqui env)" in this terminal), or set CHASQUI_DATA_DIR to another directory for a second one',
    );
  reportRuntimeSupport();
  logRuleCalendar(config.rules);
  fs.mkdirSync(config.dataDir, { recursive: true });
  config.masterKey ??= localMasterKey(config.dataDir);
  const secrets = secretBoxFrom(config);
  // chasqui's own parts stop first, in reverse order of starting; then the servers they used, which do not depend on
  // one another (Temporal keeps its history in SQLite), all at once.
  const servers: StopStep[] = [];
  const stops: StopStep[] = [];
  let record: string | null = null;
  const shutdown = () => {
    if (record) fs.rmSync(record, { force: true });
    return stopAll([...[...stops].reverse(), servers]);
  };
  try {
    const { databaseUrl, temporalAddress, temporalUi, simulatorUrl } = await startServers(config, servers);
    const db = await openDatabase(databaseUrl, { migrate: true });
    stops.push(['database pool', () => db.destroy()]);
    // One file store for the worker and the API, as one database pool.
    const files = openDocumentFiles(config.files);
    stops.push(['file store', () => files.close()]);
    if (config.bootstrapAccountToken) await ensureBootstrapAccount(db, config.bootstrapAccountToken);
    const temporal = await connectTemporal(config, temporalAddress);
    stops.push(['temporal client', () => temporal.connection.close()]);
    await checkAtStart({ db, temporal, secrets, namespace: config.temporal.namespace });
    const worker = await startWorker(config, temporalAddress, db, files, secrets);
    stops.push(['worker', worker.stop]);
    const eager = eagerStarter(config, worker);
    const api = await startApi(config, db, files, temporal, secrets, config.port, config.host, eager);
    stops.push(['api', api.stop]);
    // Removed first on shutdown: commands in other terminals stop finding this instance before any part of it stops.
    record = runningInstanceFile(config.dataDir);
    writeRecord(record, {
      pid: process.pid,
      dataDir: config.dataDir,
      api: api.url,
      temporal: { address: temporalAddress, ui: temporalUi },
      simulator: simulatorUrl,
      postgresPort: config.databaseUrl ? null : config.embeddedPostgresPort,
    } satisfies RunningInstance);
    // The welcome goes to stdout directly: after the log lines before it.
    flushLog();
    printWelcome(config, api.url, temporalUi, simulatorUrl);
  } catch (err) {
    // A ConfigError is the user's to fix and main prints it as one line; anything else is logged in full.
    if (err instanceof ConfigError) logger.error('start-up failed; stopping what was started');
    else logger.error({ err }, 'start-up failed; stopping what was started');
    await shutdown();
    throw err;
  }
  await untilShutdownSignal();
  await shutdown();
  return 0;
}

/**
 * The servers chasqui uses that the configuration does not name, started here: PostgreSQL (embedded), the Temporal
 * dev server, the simulator as the demo authority; each goes on `servers` to be stopped.
 */
async function startServers(config: Config, servers: StopStep[]) {
  // Found (or fetched) first: when there is none, start-up ends before anything was started.
  const temporalBin = config.temporal.address
    ? null
    : await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const pg = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, 'postgres'),
      port: config.embeddedPostgresPort,
      persistent: true,
    });
    servers.push(['embedded PostgreSQL', pg.stop]);
    databaseUrl = pg.url;
    logger.info(
      { port: config.embeddedPostgresPort, dataDir: path.join(config.dataDir, 'postgres') },
      'embedded PostgreSQL running',
    );
  }
  let temporalAddress = config.temporal.address;
  let temporalUi: string | null = null;
  if (!temporalAddress) {
    const server = await startTemporalDevServer({
      bin: temporalBin!,
      port: config.temporal.port,
      uiPort: config.temporal.uiPort,
      dbFile: path.join(config.dataDir, 'temporal.db'),
      namespace: config.temporal.namespace,
    });
    servers.push(['Temporal dev server', server.stop]);
    temporalAddress = server.address;
    temporalUi = server.uiUrl;
    logger.info({ address: server.address, ui: server.uiUrl }, 'Temporal dev server running');
  }
  let simulatorUrl: string | null = null;
  if (config.startSimulator && !config.authority.authorityUrl) {
    // The demo authority: SUNAT's protocols on loopback, so documents resolve without internet or SOL users.
    const sunatRules = config.simulatorSunatRules ? { cacheDir: config.validatorCacheDir, warmUp: true } : undefined;
    const simulator = await startSimulator({
      port: config.simulatorPort,
      host: '127.0.0.1',
      dataDir: path.join(config.dataDir, 'simulator'),
      sunatRules,
      rules: config.rules,
      sendingWindowDays: config.simulatorSendingWindowDays,
    });
    servers.push(['simulator', simulator.close]);
    simulatorUrl = simulator.url;
    config.authority = { ...config.authority, authorityUrl: simulator.url };
    config.portalUrl ??= simulator.url;
    logger.info({ url: simulator.url }, 'SUNAT/OSE simulator running as the demo authority');
  }
  return { databaseUrl, temporalAddress, temporalUi, simulatorUrl };
}

/** npm start generates a master key once and keeps it beside the data it protects; production must set one. */
function localMasterKey(dataDir: string): string {
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, generateMasterKey() + '\n', { mode: 0o600 });
    logger.warn(
      { file },
      'CHASQUI_MASTER_KEY unset: generated a local master key (set CHASQUI_MASTER_KEY in production)',
    );
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * What `npm start` prints when it is ready. Another terminal starts without this one's variables, so a data dir other
 * than the clone's default is named in the command that finds this instance there.
 */
export function welcomeLines(
  config: Config,
  apiUrl: string,
  temporalUi: string | null,
  simulatorUrl: string | null,
): string[] {
  const env =
    config.dataDir === path.resolve('.data')
      ? 'npx chasqui env'
      : `CHASQUI_DATA_DIR=${shellWord(config.dataDir)} npx chasqui env`;
  return [
    '',
    'chasqui is running',
    `  API          ${apiUrl}   (health: ${apiUrl}/readyz, OpenAPI: ${apiUrl}/v1/openapi.json)`,
    `  console      ${apiUrl}/console   (support staff; buyers look documents up at ${apiUrl}/consulta)`,
    `  Temporal UI  ${temporalUi ?? `(external Temporal at ${config.temporal.address})`}`,
    `  authority    ${simulatorUrl ? `simulator ${simulatorUrl} (faults: ${simulatorUrl}/__admin/rules)` : (config.authority.authorityUrl ?? 'SUNAT / OSE (configured endpoints)')}`,
    `  data         ${config.dataDir}`,
    '',
    `  another terminal:      eval "$(${env})"   (this instance's ports and URLs), then`,
    config.bootstrapAccountToken
      ? '  account token:         the value of CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN'
      : '  get an account token:  npx chasqui accounts create --name "My account"',
    '  a console token:       npx chasqui support tokens create --name YOUR_NAME',
    '  stop with Ctrl-C; data is kept for the next start',
    '',
  ];
}

function printWelcome(config: Config, apiUrl: string, temporalUi: string | null, simulatorUrl: string | null): void {
  process.stdout.write(welcomeLines(config, apiUrl, temporalUi, simulatorUrl).join('\n') + '\n');
}
