import { isApplicable, listProcedures, type ProcedureName } from '../../db/procedures';
import { result, type Check } from './context';

const PROCEDURES: ProcedureName[] = ['ose_link', 'pse_authorization'];

/** The procedures at SUNAT's portal the company's way of sending needs (ose_link, pse_authorization). */
export const procedureChecks: Check = async ({ config, db }, { company, own }) => {
  // SUNAT beta checks neither: a demo company needs no procedure to send there.
  if (company.environment !== '02') return [];
  const rows = new Map((await listProcedures(db, [company.id])).map((p) => [p.procedure, p]));
  return PROCEDURES.filter((name) => isApplicable(name, company, own)).map((name) => {
    const row = rows.get(name);
    const what =
      name === 'ose_link'
        ? `the link to the provider OSE (RUC ${config.providerRuc})`
        : `the authorisation of the service as PSE (RUC ${config.providerRuc})`;
    const fields = {
      state: row?.state ?? 'pending',
      attempts: row?.attempts ?? 0,
      last_error: row?.last_error ?? null,
      done_at: row?.done_at ?? null,
    };
    if (row?.state === 'done') return result(name, 'ok', `${what} is done at SUNAT's portal`, fields);
    if (row?.state === 'failed')
      return result(
        name,
        'fail',
        `${what} failed: ${row.last_error ?? 'no reason recorded'}; load working SOL credentials (PATCH /v1/companies/${company.ruc}/sol-credentials) to retry`,
        fields,
      );
    const fix = company.sol_user
      ? 'chasqui runs it at the portal and retries by itself'
      : `it needs the principal SOL user: PATCH /v1/companies/${company.ruc}/sol-credentials`;
    return result(name, 'warn', `${what} is not done yet (${fields.state}): ${fix}`, fields);
  });
};
