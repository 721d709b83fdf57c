import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, secretBoxFrom, type Config } from '../core/config';
import type { Db } from '../db/knex';
import { flushLog, logger } from '../core/logger';
import { TERMINAL_WIDTH, wrap } from './text';

/** Commands load lazily so `chasqui xml` does not pay for Temporal and the database driver. */
const load = <T>(modulePath: string): T => require(modulePath) as T;

/** CHASQUI_MASTER_KEY, or the key `npm start` generated into its data dir (so the README's second terminal works). */
function localSecretBox(config: Config) {
  const file = path.join(config.dataDir, 'master.key');
  return secretBoxFrom({
    ...config,
    masterKey: config.masterKey ?? (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null),
  });
}

/**
 * A command whose subcommands read the database: its help and usage errors answer without one (a newcomer reads
 * `--help` before anything runs); a subcommand opens the database of withDatabase, which names it on stderr.
 */
function databaseCommand(
  argv: string[],
  subcommands: string[],
  run: (deps: { db: Db; config: Config } | null) => Promise<number>,
): Promise<number> {
  if (!subcommands.includes(argv[0]) || argv.includes('--help') || argv.includes('-h')) return run(null);
  return load<typeof import('./commands/database')>('./commands/database').withDatabase(run);
}

/** `chasqui <command>`: one entry for people, npm scripts, Docker and CI. */
const COMMANDS: Record<
  string,
  {
    summary: string;
    run: (argv: string[]) => Promise<number>;
    /** Configured by environment alone: any argument is a question (--help) or a mistake, never run. */
    noArguments?: true;
  }
> = {
  start: {
    summary: 'everything in one process tree: embedded PostgreSQL, Temporal dev server + UI, simulator, worker, API',
    run: () => load<typeof import('./commands/start')>('./commands/start').startCommand(),
    noArguments: true,
  },
  api: {
    summary: 'the HTTP API only (production; configured by environment)',
    run: () => load<typeof import('./commands/api')>('./commands/api').apiCommand(),
    noArguments: true,
  },
  worker: {
    summary: 'the Temporal worker only (production; configured by environment)',
    run: () => load<typeof import('./commands/worker')>('./commands/worker').workerCommand(),
    noArguments: true,
  },
  accounts: {
    summary: 'create --name N [--quota Q] [--json] | quota --account ID --add Q: manage accounts and their tokens',
    run: (argv) =>
      databaseCommand(argv, ['create', 'quota', 'ose-package'], (deps) =>
        load<typeof import('./commands/accounts')>('./commands/accounts').accountsCommand(argv, deps),
      ),
  },
  certificates: {
    summary:
      'assign --company RUC --pfx FILE --password PW [--account ID]: give a plan 02 company a provider certificate',
    run: (argv) =>
      databaseCommand(argv, ['assign'], (deps) =>
        load<typeof import('./commands/certificates')>('./commands/certificates').certificatesCommand(
          argv,
          deps && { ...deps, secrets: localSecretBox(deps.config) },
        ),
      ),
  },
  xml: {
    summary: 'PAYLOAD.json|DIR [--out DIR] [--pfx FILE --password PW]: build and sign documents offline',
    run: (argv) => load<typeof import('./commands/xml')>('./commands/xml').xmlCommand(argv),
  },
  rules: {
    summary:
      "[--wide | --json] [--at YYYY-MM-DD]: SUNAT's dated rules, their dates (CHASQUI_RULE_DATES applied) and whether each is in force",
    run: (argv) => load<typeof import('./commands/rules')>('./commands/rules').rulesCommand(argv),
  },
  validate: {
    summary:
      "FILE.xml|DIR [--json] [--require-signature]: XSD, SUNAT's own rules (XSL) and signature, with SUNAT's codes",
    run: (argv) => load<typeof import('./commands/validate')>('./commands/validate').validateCommand(argv),
  },
  simulator: {
    summary: '[--port 4010] [--data-dir DIR]: the SUNAT/OSE/portal simulator with fault injection (docs/authority.md)',
    run: (argv) => load<typeof import('./commands/simulator')>('./commands/simulator').simulatorCommand(argv),
  },
  support: {
    summary:
      'find | stuck | recheck | resend | redeliver | checks | tokens: find documents, see why they wait, act on them, ' +
      "check companies' credentials, console tokens (chasqui support --help)",
    run: (argv) => load<typeof import('./commands/support')>('./commands/support').supportEntry(argv),
  },
  keys: {
    summary:
      'status [--json] | rotate [--dry-run] [--yes]: which master key seals how many secrets; re-seal them under the current key',
    run: (argv) =>
      databaseCommand(argv, ['status', 'rotate'], (deps) =>
        load<typeof import('./commands/keys')>('./commands/keys').keysCommand(
          argv,
          deps && { ...deps, secrets: localSecretBox(deps.config) },
        ),
      ),
  },
  env: {
    summary:
      '[--json]: the running npm start of CHASQUI_DATA_DIR: its URLs and export lines (eval "$(npx chasqui env)")',
    run: (argv) => load<typeof import('./commands/env')>('./commands/env').envCommand(argv),
  },
  files: {
    summary:
      'migrate --to URL [--dry-run] [--rate N] | orphans [--delete]: move signed XML and CDRs between PostgreSQL and an object store; find objects no document names',
    run: (argv) =>
      databaseCommand(argv, ['migrate', 'orphans'], (deps) =>
        load<typeof import('./commands/files')>('./commands/files').filesCommand(argv, deps),
      ),
  },
  temporal: {
    summary:
      "…: Temporal's own CLI (the one npm start runs), pointed at chasqui's Temporal, e.g. chasqui temporal workflow list",
    run: (argv) => load<typeof import('./commands/temporal')>('./commands/temporal').temporalCommand(argv),
  },
  migrate: {
    summary: 'apply database migrations (DATABASE_URL, else the running embedded one) and exit',
    run: () => load<typeof import('./commands/migrate')>('./commands/migrate').migrateCommand(),
    noArguments: true,
  },
};

/** Each command and its summary, wrapped under itself to fit a terminal. */
function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const indent = ' '.repeat(width + 4);
  return [
    'usage: chasqui <command> [options]',
    '',
    ...Object.entries(COMMANDS).flatMap(([name, c]) =>
      wrap(c.summary, TERMINAL_WIDTH - indent.length).map((l, i) => (i ? indent : `  ${name.padEnd(width)}  `) + l),
    ),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`chasqui: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  if (command.noArguments && rest.length) {
    // `chasqui start --help` answers rather than starting everything.
    const help = `usage: chasqui ${name}\n\n${wrap(command.summary, TERMINAL_WIDTH).join('\n')}\n\nNo arguments: environment variables set it (docs/configuration.md).`;
    if (rest.every((a) => a === '--help' || a === '-h')) {
      console.log(help);
      return 0;
    }
    console.error(`chasqui ${name}: unknown argument '${rest[0]}'\n\n${help}`);
    return 2;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  // Exit explicitly: Temporal's native runtime and pools would otherwise keep a finished command alive. The log's
  // buffer is written out first (and again by its exit handler, for any other way out).
  (code) => {
    flushLog();
    process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof ConfigError) console.error(`chasqui: ${err.message}`);
    else logger.fatal({ err }, 'chasqui stopped with an error');
    flushLog();
    process.exit(1);
  },
);
