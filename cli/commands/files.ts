import { parseArgs } from 'node:util';
import { ConfigError, type Config } from '../../core/config';
import type { Db } from '../../db/knex';
import { openStore } from '../../files/documents';
import { parseFilesUrl, s3SettingsOf } from '../../files/location';
import { findOrphans, migrateFiles, plannedMigration, type MigrationProgress } from '../../files/migrate';
import type { ObjectStore } from '../../files/store';
import { confirmed, EXIT, type Io } from '../support/bulk';

const USAGE = `usage:
  chasqui files migrate --to URL [--dry-run] [--yes] [--rate N] [--batch N]
      moves every document's signed XML and CDR to URL: s3://bucket/prefix or file:///dir (from the
      rows), or postgres: (back into the rows, read from the store CHASQUI_FILES_URL names). Oldest
      first, N documents a second at most (--rate), --batch per read (default 200). Progress on
      stderr; stop it (Ctrl-C) or kill it and run the same command again: it goes on where it was.
      Until a document has moved, it is read where it was.
  chasqui files orphans [--older-than HOURS] [--delete] [--yes] [--json]
      objects of the store CHASQUI_FILES_URL names that no document names, written more than HOURS
      ago (default 24): left by a crash between an object and its row, or by a move back to
      PostgreSQL. Lists them; --delete removes them. Run it daily (cron, a Kubernetes CronJob):
      docs/files.md.

Moving to an object store: first set CHASQUI_FILES_URL to it on every api and worker (new files go
there from then on; older ones are still read from their rows), then run the migration. Moving back:
run it with --to postgres: while CHASQUI_FILES_URL still names the store, then set
CHASQUI_FILES_URL=postgres:.

examples:
  chasqui files migrate --to s3://cpe-archive/prod --dry-run
  chasqui files migrate --to s3://cpe-archive/prod --yes --rate 500
  chasqui files orphans --older-than 48
  chasqui files orphans --delete --yes

exit codes: 0 done, 1 failed, 2 usage, 130 stopped with Ctrl-C (run it again to continue)`;

class UsageError extends Error {}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function describe(location: string, store: ObjectStore | null): string {
  return store ? store.name : location;
}

/** As the other state-changing commands ask (cli.md): null when it may go ahead, else the exit code. */
const ask = (io: Io, what: string) =>
  confirmed(io, what, `add --yes to ${what}, or --dry-run to only see the plan`, 'chasqui files: ');

/** `chasqui files migrate|orphans`: returns the exit code. */
export async function filesCommand(
  argv: string[],
  deps: { db: Db; config: Config } | null,
  io: Io = process,
  signals: NodeJS.EventEmitter = process,
): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'migrate') {
      const { values } = parseArgs({
        args: rest,
        options: {
          to: { type: 'string' },
          'dry-run': { type: 'boolean' },
          yes: { type: 'boolean' },
          rate: { type: 'string' },
          batch: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) return help(io);
      if (!values.to) throw new UsageError('--to is required (s3://bucket/prefix, file:///dir or postgres:)');
      const rate = values.rate === undefined ? null : positive('--rate', values.rate);
      const batch = values.batch === undefined ? 200 : positive('--batch', values.batch);
      return await migrate(
        deps!,
        { to: values.to, dryRun: !!values['dry-run'], yes: !!values.yes, rate, batch },
        io,
        signals,
      );
    }
    if (sub === 'orphans') {
      const { values } = parseArgs({
        args: rest,
        options: {
          'older-than': { type: 'string' },
          delete: { type: 'boolean' },
          yes: { type: 'boolean' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) return help(io);
      const hours = values['older-than'] === undefined ? 24 : positive('--older-than', values['older-than']);
      return await orphans(deps!, { hours, remove: !!values.delete, yes: !!values.yes, json: !!values.json }, io);
    }
    if (sub === '--help' || sub === '-h' || sub === 'help') return help(io);
    throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is required');
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`chasqui files: ${(err as Error).message}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      io.stderr.write(`chasqui files: ${err.message}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`chasqui files: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
}

function help(io: Io): number {
  io.stdout.write(`${USAGE}\n`);
  return EXIT.done;
}

function positive(option: string, raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1) throw new UsageError(`${option} must be a whole number of at least 1, got '${raw}'`);
  return n;
}

async function migrate(
  deps: { db: Db; config: Config },
  options: { to: string; dryRun: boolean; yes: boolean; rate: number | null; batch: number },
  io: Io,
  signals: NodeJS.EventEmitter,
): Promise<number> {
  const to = parseFilesUrl(options.to, s3SettingsOf(process.env), '--to');
  const from = deps.config.files;
  // Rows name keys, not stores: between two object stores nothing in a row changes, only objects are copied, which the
  // stores' own tools do better (and a row still holding its bytes is moved by this command to CHASQUI_FILES_URL's store).
  if (from.kind !== 'postgres' && to.kind !== 'postgres' && JSON.stringify(from) !== JSON.stringify(to))
    throw new UsageError(
      `CHASQUI_FILES_URL is already an object store: from one object store to another the keys stay the same, so copy the objects (aws s3 sync, rclone sync), then set CHASQUI_FILES_URL to the new one (docs/files.md)`,
    );
  const target = openStore(to);
  const source = openStore(from);
  try {
    const plan = await plannedMigration(deps.db, target);
    const where = describe(options.to, target);
    io.stderr.write(
      `chasqui files: ${plan.documents} documents (${megabytes(plan.bytes)}) have files to move to ${where}\n`,
    );
    if (options.dryRun || plan.documents === 0) return EXIT.done;
    const refused = options.yes ? null : await ask(io, `move ${plan.documents} documents' files to ${where}`);
    if (refused !== null) return refused;
    let interrupted = false;
    const stop = () => {
      interrupted = true;
      io.stderr.write('\nchasqui files: stopping after the document in flight…\n');
    };
    signals.once('SIGINT', stop);
    try {
      const line = (p: MigrationProgress) =>
        io.stderr.write(
          `chasqui files: ${p.done}/${p.total} documents (${p.total ? Math.floor((p.done / p.total) * 100) : 100}%), ${megabytes(p.bytes)}, ${p.rate.toFixed(1)}/s, ETA ${p.etaSeconds === null ? '?' : `${Math.ceil(p.etaSeconds)} s`}\n`,
        );
      const result = await migrateFiles(deps.db, {
        target,
        source,
        rate: options.rate,
        batch: options.batch,
        progress: line,
        stopped: () => interrupted,
      });
      if (interrupted) {
        io.stderr.write(
          `chasqui files: stopped: ${result.moved} moved, ${result.total - result.moved} left; run the same command again to continue\n`,
        );
        return EXIT.interrupted;
      }
      io.stdout.write(`moved ${result.moved} documents' files to ${where}\n`);
      return EXIT.done;
    } finally {
      signals.removeListener('SIGINT', stop);
    }
  } finally {
    await Promise.all([target?.close(), source?.close()]);
  }
}

async function orphans(
  deps: { db: Db; config: Config },
  options: { hours: number; remove: boolean; yes: boolean; json: boolean },
  io: Io,
): Promise<number> {
  const store = openStore(deps.config.files);
  if (!store) {
    io.stderr.write('chasqui files: CHASQUI_FILES_URL is postgres:: files live in their rows, there are no orphans\n');
    return EXIT.done;
  }
  try {
    const refused =
      options.remove && !options.yes
        ? await ask(io, `delete the orphans older than ${options.hours} h in ${store.name}`)
        : null;
    if (refused !== null) return refused;
    let count = 0;
    let bytes = 0;
    for await (const orphan of findOrphans(deps.db, store, options.hours * 3600_000)) {
      count++;
      bytes += orphan.size;
      if (options.remove) await store.delete(orphan.key);
      io.stdout.write(
        options.json
          ? `${JSON.stringify({ key: orphan.key, size: orphan.size, modified: orphan.modified.toISOString(), deleted: options.remove })}\n`
          : `${options.remove ? 'deleted' : 'orphan'}  ${orphan.key}  ${orphan.size} B  ${orphan.modified.toISOString()}\n`,
      );
    }
    io.stderr.write(
      `chasqui files: ${count} orphans (${megabytes(bytes)}) older than ${options.hours} h in ${store.name}${options.remove ? ', deleted' : count ? '; --delete removes them' : ''}\n`,
    );
    return EXIT.done;
  } finally {
    await store.close();
  }
}
