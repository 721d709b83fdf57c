import { isApplicable, listProcedures, type ProcedureName } from '../../db/procedures';
import { result, type Check } from './context';
import { message } from '../../lifecycle/messages';

const PROCEDURES: ProcedureName[] = ['ose_link', 'pse_authorization'];

/** The procedures at SUNAT's portal the company's way of sending needs (ose_link, pse_authorization). */
export const procedureChecks: Check = async ({ config, db }, { company, own }) => {
  // SUNAT beta checks neither: a demo company needs no procedure to send there.
  if (company.environment !== '02') return [];
  const rows = new Map((await listProcedures(db, [company.id])).map((p) => [p.procedure, p]));
  return PROCEDURES.filter((name) => isApplicable(name, company, own)).map((name) => {
    const row = rows.get(name);
    const what = { procedure: name, provider: config.providerRuc, ruc: company.ruc };
    const fields = {
      state: row?.state ?? 'pending',
      attempts: row?.attempts ?? 0,
      last_error: row?.last_error ?? null,
      done_at: row?.done_at ?? null,
    };
    if (row?.state === 'done') return result(name, 'ok', message('check.procedure.done', what), fields);
    if (row?.state === 'failed')
      return result(name, 'fail', message('check.procedure.failed', { ...what, error: row.last_error }), fields);
    const pending = { ...what, state: fields.state, sol: !!company.sol_user };
    return result(name, 'warn', message('check.procedure.pending', pending), fields);
  });
};
