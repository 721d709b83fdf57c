import type { Io } from './bulk';
import { EXIT } from './bulk';
import { age, table } from './explain';
import type { SupportDeps } from './deps';
import { findCompaniesByRuc } from '../../db/companies';
import { listAllCheckRows, presentCheck, STATUS_SEVERITY, worstFirst, type CheckStatus } from '../../db/company-checks';
import { startCompanyChecks } from '../../workflows/company-checks-client';
import { taskPriority } from '../../workflows/priority-types';

export const CHECKS_HELP = `usage: chasqui support checks [--ruc RUC] [--run] [--json]

Every company's checks (or one company's), worst first: certificate, SOL and GRE credentials (asked
of SUNAT), series gaps, sending window, rule readiness, OSE link / PSE authorisation. What each one
asks and what to do: docs/operations.md, "Company checks".
  --ruc RUC   only this company
  --run       run the checks now (one SUNAT call per company, within CHASQUI_CHECKS_RATE a minute)
              and wait for them before printing; otherwise the latest results of the schedule
              (every CHASQUI_CHECKS_EVERY)
  --json      one JSON document:
              {"companies": [{ruc, business_name, worst, checks: [...]}], "count"}
  e.g. chasqui support checks
       chasqui support checks --ruc 20123456786 --run
       chasqui support checks --json | jq '.companies[] | select(.worst == "fail") | .ruc'
Exit codes: 0 whatever the checks find (scripts read --json), 2 usage, 3 --ruc names no company.`;

const companiesCount = (n: number) => `${n} ${n === 1 ? 'company' : 'companies'}`;

/** `chasqui support checks`: the stored results (the API's repository), after a run of the same workflow when --run. */
export async function checks(
  deps: SupportDeps,
  io: Io,
  values: { ruc?: string; run?: boolean; json?: boolean },
): Promise<number> {
  if (values.ruc) {
    const companies = await findCompaniesByRuc(deps.db, values.ruc);
    if (!companies.length) {
      if (values.json) io.stdout.write(JSON.stringify({ companies: [], count: 0 }) + '\n');
      io.stderr.write(`no company has RUC ${values.ruc}\n`);
      return EXIT.nothingMatched;
    }
    if (values.run) {
      io.stderr.write(`running the checks of ${values.ruc}…\n`);
      const client = await deps.temporal();
      for (const company of companies) {
        const priority = taskPriority(deps.config.temporal, 'urgent', company.account_id);
        await (await startCompanyChecks(client, deps.config.temporal.taskQueue, company, 1, priority)).result();
      }
    }
  } else if (values.run) {
    io.stderr.write(
      `running every company's checks (${deps.config.checks.concurrency} at a time, at most ${deps.config.checks.ratePerMinute} SUNAT calls a minute)…\n`,
    );
    const run = await startCompanyChecks(
      await deps.temporal(),
      deps.config.temporal.taskQueue,
      null,
      deps.config.checks.concurrency,
      taskPriority(deps.config.temporal, 'batch', null),
    );
    io.stderr.write(`${companiesCount(await run.result())} checked\n`);
  }
  const rows = await listAllCheckRows(deps.db, { ruc: values.ruc });
  const byCompany = new Map<string, { ruc: string; business_name: string; rows: typeof rows }>();
  for (const row of rows) {
    const entry = byCompany.get(row.company_id) ?? { ruc: row.ruc, business_name: row.business_name, rows: [] };
    entry.rows.push(row);
    byCompany.set(row.company_id, entry);
  }
  const worstOf = (list: typeof rows): CheckStatus => worstFirst(list)[0]?.status ?? 'ok';
  const companies = [...byCompany.values()]
    .map((c) => ({
      ruc: c.ruc,
      business_name: c.business_name,
      worst: worstOf(c.rows),
      checks: worstFirst(c.rows).map(presentCheck),
    }))
    .sort((a, b) => STATUS_SEVERITY[b.worst] - STATUS_SEVERITY[a.worst] || a.ruc.localeCompare(b.ruc));
  if (values.json) {
    io.stdout.write(JSON.stringify({ companies, count: companies.length }) + '\n');
    return EXIT.done;
  }
  if (!rows.length) {
    io.stdout.write(
      `no checks have run yet${values.ruc ? ` for ${values.ruc}` : ''}: chasqui support checks${values.ruc ? ` --ruc ${values.ruc}` : ''} --run\n`,
    );
    return EXIT.done;
  }
  const lines = worstFirst(rows)
    .sort((a, b) => STATUS_SEVERITY[b.status] - STATUS_SEVERITY[a.status] || a.ruc.localeCompare(b.ruc))
    .map((r) => [r.ruc, r.check, r.status, `${age(r.checked_at)} ago`, r.detail]);
  const counts = (['fail', 'warn', 'unknown', 'ok'] as const)
    .map((s) => `${rows.filter((r) => r.status === s).length} ${s}`)
    .join(', ');
  io.stdout.write(
    `${table([['RUC', 'CHECK', 'STATUS', 'CHECKED', 'DETAIL'], ...lines])}\n\n${companiesCount(companies.length)}: ${counts}\n`,
  );
  return EXIT.done;
}
