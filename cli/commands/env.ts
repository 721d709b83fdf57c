import { ConfigError, loadConfig } from '../../core/config';
import { readRunningInstance, type RunningInstance } from '../../runtime/instance';

const HELP = `usage: chasqui env [--json]

The running npm start of CHASQUI_DATA_DIR (default ./.data): its URLs as comments, then the export
lines that make this terminal's commands and examples (\${PORT:-3000}, …) use it. Exit 0; 1 when
none runs there; 2 usage error.

examples:
  eval "$(npx chasqui env)"                     # this terminal now follows that instance
  CHASQUI_DATA_DIR=/srv/chasqui npx chasqui env   # another data dir's instance
  npx chasqui env --json | jq -r .api`;

/** A value as one shell word. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

const portOf = (url: string) => new URL(url.includes('://') ? url : `tcp://${url}`).port;

export function envLines(instance: RunningInstance): string[] {
  const comments: [string, string][] = [
    ['API', instance.api],
    ['console', `${instance.api}/console`],
    ['consulta', `${instance.api}/consulta`],
    ['Temporal', instance.temporal.address],
    ['Temporal UI', instance.temporal.ui ?? '(external Temporal)'],
    ['simulator', instance.simulator ?? '(none: a configured authority)'],
    ['database', instance.postgresPort ? `embedded PostgreSQL, port ${instance.postgresPort}` : 'DATABASE_URL'],
  ];
  const exports: [string, string | number | null][] = [
    ['CHASQUI_DATA_DIR', instance.dataDir],
    ['PORT', portOf(instance.api)],
    // A dev server started by npm start moves with TEMPORAL_PORT; an external one is TEMPORAL_ADDRESS.
    instance.temporal.ui
      ? ['TEMPORAL_PORT', portOf(instance.temporal.address)]
      : ['TEMPORAL_ADDRESS', instance.temporal.address],
    ['TEMPORAL_UI_PORT', instance.temporal.ui && portOf(instance.temporal.ui)],
    ['SIMULATOR_PORT', instance.simulator && portOf(instance.simulator)],
    ['CHASQUI_EMBEDDED_PG_PORT', instance.postgresPort],
  ];
  return [
    `# chasqui running from ${instance.dataDir} (pid ${instance.pid})`,
    ...comments.map(([name, value]) => `#   ${name.padEnd(11)}  ${value}`),
    ...exports.filter(([, value]) => value).map(([name, value]) => `export ${name}=${shellWord(String(value))}`),
  ];
}

/** `chasqui env`: where the running instance of CHASQUI_DATA_DIR listens, from the record npm start keeps there. */
export async function envCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const unknown = argv.filter((a) => a !== '--json');
  if (unknown.length) {
    console.error(`chasqui env: unknown argument '${unknown[0]}'\n\n${HELP}`);
    return 2;
  }
  const config = loadConfig();
  const instance = readRunningInstance(config.dataDir);
  if (typeof instance === 'string')
    throw new ConfigError(
      `${instance}: start it (npm start), or set CHASQUI_DATA_DIR to the data dir of the one running`,
    );
  console.log(argv.includes('--json') ? JSON.stringify(instance, null, 2) : envLines(instance).join('\n'));
  return 0;
}
