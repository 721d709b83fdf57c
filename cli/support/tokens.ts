import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Db } from '../../db/knex';
import {
  createSupportToken,
  listSupportTokens,
  revokeSupportToken,
  supportTokenState,
  SUPPORT_SCOPE,
} from '../../db/support-tokens';
import { EXIT, type Io } from './bulk';
import { iso, table } from './explain';
import { parseDuration } from '../../core/durations';

export const TOKENS_HELP = `usage: chasqui support tokens <create|list|revoke> [options]

Support staff's tokens for the console (/console): scope ${SUPPORT_SCOPE}, every account's documents.
A token is shown once, when created; only its hash is kept.
  create --name NAME [--expires 90d] [--operator WHO] [--json]
                   a new token (--expires: 30m, 12h, 90d; default never)
  list [--json]    every token: name, state, created, expires
  revoke NAME      ends the token and its console sessions
  e.g. chasqui support tokens create --name ana.quispe --expires 90d
       chasqui support tokens list --json | jq '.tokens[] | select(.state == "active") | .name'
       chasqui support tokens revoke ana.quispe
Exit codes: 0 done, 1 failed (name taken, no such token), 2 usage error.`;

/** The options of `chasqui support tokens` (docs/operations.md is checked against them). */
export const TOKEN_OPTIONS = {
  name: { type: 'string' },
  expires: { type: 'string' },
  operator: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const NAME = /^[\p{L}\p{N}._@-]{1,64}$/u;

/** What each subcommand gets: its options and arguments, the database, the output, and the usage answer. */
interface Subcommand {
  values: ReturnType<typeof parseArgs<{ options: typeof TOKEN_OPTIONS }>>['values'];
  rest: string[];
  withDb: (run: (db: Db) => Promise<number>) => Promise<number>;
  io: Io;
  usage: (message: string) => number;
}

/** `chasqui support tokens …`; usage errors are answered before the database is opened. */
export async function tokensCommand(
  argv: string[],
  withDb: (run: (db: Db) => Promise<number>) => Promise<number>,
  io: Io,
): Promise<number> {
  const usage = (message: string) => {
    io.stderr.write(`chasqui support tokens: ${message}\n\n${TOKENS_HELP}\n`);
    return EXIT.usage;
  };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: TOKEN_OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    return usage((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [sub, ...rest] = positionals;
  if (values.help || !sub) {
    io.stdout.write(TOKENS_HELP + '\n');
    return values.help ? EXIT.done : EXIT.usage;
  }
  const command: Subcommand = { values, rest, withDb, io, usage };
  if (sub === 'create') return createToken(command);
  if (sub === 'list') return listTokens(command);
  if (sub === 'revoke') return revokeToken(command);
  return usage(`unknown subcommand '${sub}'`);
}

async function createToken({ values, rest, withDb, io, usage }: Subcommand): Promise<number> {
  const name = values.name?.trim() ?? '';
  if (!NAME.test(name))
    return usage('--name is required: letters, digits, . _ @ - (at most 64), e.g. --name ana.quispe');
  if (rest.length) return usage(`create takes only options, got '${rest[0]}'`);
  let expiresAt: Date | null = null;
  if (values.expires !== undefined) {
    const seconds = parseDuration(values.expires);
    if (!seconds) return usage(`--expires must be a duration like 12h or 90d, got '${values.expires}'`);
    expiresAt = new Date(Date.now() + seconds * 1000);
  }
  return withDb(async (db) => {
    const created = await createSupportToken(db, {
      name,
      createdBy: values.operator?.trim() || os.userInfo().username,
      expiresAt,
    });
    if (!created) {
      io.stderr.write(
        `a support token named '${name}' exists already: pick another name, or revoke it first (chasqui support tokens revoke ${name})\n`,
      );
      return EXIT.failed;
    }
    if (values.json) {
      io.stdout.write(
        JSON.stringify({
          name,
          token: created.token,
          scope: SUPPORT_SCOPE,
          expires_at: expiresAt?.toISOString() ?? null,
        }) + '\n',
      );
    } else {
      io.stdout.write(`${created.token}\n`);
      io.stderr.write(
        `support token '${name}' (${SUPPORT_SCOPE}${expiresAt ? `, expires ${iso(expiresAt)}` : ', no expiry'}): shown once, store it now; sign in at /console\n`,
      );
    }
    return EXIT.done;
  });
}

async function listTokens({ values, rest, withDb, io, usage }: Subcommand): Promise<number> {
  if (rest.length) return usage(`list takes only options, got '${rest[0]}'`);
  return withDb(async (db) => {
    const rows = await listSupportTokens(db);
    if (values.json) {
      const tokens = rows.map((r) => ({
        name: r.name,
        state: supportTokenState(r),
        created_by: r.created_by,
        created_at: r.created_at.toISOString(),
        expires_at: r.expires_at?.toISOString() ?? null,
        revoked_at: r.revoked_at?.toISOString() ?? null,
      }));
      io.stdout.write(JSON.stringify({ tokens }) + '\n');
    } else if (rows.length === 0) {
      io.stderr.write('no support tokens yet: chasqui support tokens create --name NAME\n');
    } else {
      io.stdout.write(
        table([
          ['NAME', 'STATE', 'CREATED', 'BY', 'EXPIRES'],
          ...rows.map((r) => [r.name, supportTokenState(r), iso(r.created_at), r.created_by, iso(r.expires_at)]),
        ]) + '\n',
      );
    }
    return EXIT.done;
  });
}

async function revokeToken({ rest, withDb, io, usage }: Subcommand): Promise<number> {
  if (rest.length !== 1) return usage("revoke takes the token's name, e.g. chasqui support tokens revoke ana.quispe");
  return withDb(async (db) => {
    if (!(await revokeSupportToken(db, rest[0]))) {
      io.stderr.write(`no active support token named '${rest[0]}' (chasqui support tokens list)\n`);
      return EXIT.failed;
    }
    io.stderr.write(`support token '${rest[0]}' revoked; its console sessions end at their next request\n`);
    return EXIT.done;
  });
}
