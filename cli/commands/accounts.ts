import { parseArgs } from 'node:util';
import type { Config } from '../../core/config';
import { isUuid } from '../../core/ids';
import type { Db } from '../../db/knex';
import { addQuota, createAccount } from '../../db/accounts';
import { addOsePackage } from '../../db/issuing';

const USAGE = `usage:
  chasqui accounts create --name NAME [--quota UNITS] [--json]
      creates an account; prints its token once
  chasqui accounts quota --account ID --add UNITS
      adds plan 01 units (negative removes)
  chasqui accounts ose-package --account ID --add SENDS
      adds sends of the provider OSE package (negative removes)`;

interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

function integer(text: string | undefined, name: string): number {
  if (text === undefined || !/^-?\d+$/.test(text)) throw new UsageError(`${name} must be an integer`);
  return Number(text);
}

class UsageError extends Error {}

/**
 * `chasqui accounts ...`: returns the process exit code (0 done, 1 not found, 2 usage). `given` is null for help and
 * usage errors, which need no database (cli/main.ts opens one for a subcommand only).
 */
export async function accountsCommand(
  argv: string[],
  given: { db: Db; config: Config } | null,
  io: Io = process,
): Promise<number> {
  const [sub, ...rest] = argv;
  const deps = given!;
  if (['--help', '-h', 'help'].includes(sub) || rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (sub === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: { name: { type: 'string' }, quota: { type: 'string' }, json: { type: 'boolean' } },
      });
      if (!values.name?.trim()) throw new UsageError('--name is required');
      const quota = values.quota === undefined ? 0 : integer(values.quota, '--quota');
      if (quota < 0) throw new UsageError('--quota must not be negative');
      const { account, token } = await createAccount(deps.db, { name: values.name.trim(), quotaUnits: quota });
      if (values.json) {
        io.stdout.write(
          `${JSON.stringify({ id: account.id, name: account.name, quota: account.quotaUnits, token })}\n`,
        );
      } else {
        io.stdout.write(
          `account ${account.id} (${account.name}), quota ${account.quotaUnits}\n` +
            `account token (scope empresas:manage), shown only now:\n\n  ${token}\n\n` +
            `use it as: Authorization: Bearer <token> on /v1/companies\n`,
        );
      }
      return 0;
    }
    if (sub === 'quota' || sub === 'ose-package') {
      const { values } = parseArgs({ args: rest, options: { account: { type: 'string' }, add: { type: 'string' } } });
      if (!values.account) throw new UsageError('--account is required');
      const units = integer(values.add, '--add');
      // Account ids are UUIDs; anything else cannot name one (and would be a database type error).
      const accountId = isUuid(values.account) ? values.account : null;
      const balance = !accountId
        ? null
        : sub === 'quota'
          ? ((await addQuota(deps.db, accountId, units))?.quotaUnits ?? null)
          : await addOsePackage(deps.db, accountId, units);
      if (balance === null) {
        io.stderr.write(`no account ${values.account}\n`);
        return 1;
      }
      io.stdout.write(`account ${values.account}: ${sub === 'quota' ? 'quota' : 'OSE sending package'} ${balance}\n`);
      return 0;
    }
    throw new UsageError(sub ? `unknown accounts command '${sub}'` : 'missing accounts command');
  } catch (err) {
    if (!(err instanceof UsageError) && !String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS'))
      throw err;
    io.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
}
