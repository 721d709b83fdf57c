import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Config } from '../../core/config';
import type { SecretBox } from '../../core/secretbox';
import { isUuid } from '../../core/ids';
import type { Db } from '../../db/knex';
import type { CompanyRow } from '../../db/companies';
import { assignCertificate, certificateValues } from '../../db/certificates';
import { loadPfx } from '../../documents/signing';

const USAGE = `usage:
  chasqui certificates assign --company RUC --pfx FILE --password PW [--account ID]
      assigns a provider certificate to a plan 02 company (its validity starts at the first
      production signature)`;

interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

class UsageError extends Error {}

/**
 * `chasqui certificates ...`: returns the process exit code (0 done, 1 refused, 2 usage). `given` is null for help
 * and usage errors, which need no database (cli/main.ts opens one for a subcommand only).
 */
export async function certificatesCommand(
  argv: string[],
  given: { db: Db; config: Config; secrets: SecretBox } | null,
  io: Io = process,
): Promise<number> {
  const [sub, ...rest] = argv;
  const deps = given!;
  if (['--help', '-h', 'help'].includes(sub) || rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (sub !== 'assign')
      throw new UsageError(sub ? `unknown certificates command '${sub}'` : 'missing certificates command');
    const { values } = parseArgs({
      args: rest,
      options: {
        company: { type: 'string' },
        pfx: { type: 'string' },
        password: { type: 'string' },
        account: { type: 'string' },
      },
    });
    if (!values.company || !values.pfx || values.password === undefined)
      throw new UsageError('--company, --pfx and --password are required');
    const query = deps.db<CompanyRow>('companies').where({ ruc: values.company });
    if (values.account) {
      if (!isUuid(values.account)) throw new UsageError('--account must be an account id');
      query.andWhere({ account_id: values.account });
    }
    const companies = await query;
    if (companies.length === 0) {
      io.stderr.write(`no company ${values.company}${values.account ? ` in account ${values.account}` : ''}\n`);
      return 1;
    }
    if (companies.length > 1)
      throw new UsageError(`company ${values.company} exists in ${companies.length} accounts: name one with --account`);
    if (!fs.existsSync(values.pfx)) {
      io.stderr.write(`no file ${values.pfx}\n`);
      return 1;
    }
    const loaded = loadPfx(fs.readFileSync(values.pfx), values.password, { maxBytes: deps.config.certificateMaxBytes });
    if (!loaded.ok) {
      io.stderr.write(`the certificate cannot be assigned: ${loaded.message}\n`);
      return 1;
    }
    const company = companies[0];
    const { certificate } = loaded;
    const sealed = deps.secrets.seal(certificate.privateKeyPem);
    const { certificate: row } = await assignCertificate(
      deps.db,
      company,
      certificateValues(company.account_id, 'provider', certificate, sealed),
    );
    io.stdout.write(
      `certificate ${row.id} (${row.subject}, serial ${row.serial_number}, valid to ${row.not_after.toISOString().slice(0, 10)}) ` +
        `assigned to company ${company.ruc} (plan ${company.plan_type}); its plan validity starts at the first production signature\n`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof UsageError) && !String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS'))
      throw err;
    io.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
}
