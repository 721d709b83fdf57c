import type { ActivityDeps } from './deps';
import { createHttpPortal, type TaxPortal } from '../authority/portal-client';
import { findCompanyById } from '../db/companies';
import { findCertificate } from '../db/certificates';
import { isApplicable, listProcedures, PROCEDURES, recordProcedure, type ProcedureName } from '../db/procedures';

export type ProcedurePlan =
  | { status: 'ready'; procedures: ProcedureName[] }
  /** The company was deleted, or its SOL credentials were removed: nothing to do. */
  | { status: 'gone' | 'no_credentials' };

export type ProcedureRunResult =
  { outcome: 'done' | 'gone' | 'not_applicable' } | { outcome: 'failed'; retryable: boolean; message: string };

/**
 * The I/O of the company procedures workflow. The workflow passes the company id only: the SOL password is read
 * and opened here, and never leaves this process. Both activities are safe to repeat.
 */
export function createCompanyProcedureActivities(
  deps: ActivityDeps,
  portal: TaxPortal | null = deps.config.portalUrl ? createHttpPortal(deps.config.portalUrl) : null,
) {
  async function loadCompany(companyId: string) {
    const company = await findCompanyById(deps.db, companyId);
    if (!company) return null;
    const certificate = company.certificate_id ? await findCertificate(deps.db, company.certificate_id) : undefined;
    return { company, hasOwnCertificate: certificate?.origin === 'own' };
  }

  return {
    /** Records which procedures apply now and returns those still to do. */
    async planCompanyProcedures(companyId: string): Promise<ProcedurePlan> {
      const loaded = await loadCompany(companyId);
      if (!loaded) return { status: 'gone' };
      const { company, hasOwnCertificate } = loaded;
      if (!company.sol_user || !company.sol_password_sealed) return { status: 'no_credentials' };
      const done = new Set(
        (await listProcedures(deps.db, [companyId])).filter((r) => r.state === 'done').map((r) => r.procedure),
      );
      const todo: ProcedureName[] = [];
      for (const procedure of PROCEDURES) {
        if (done.has(procedure)) continue;
        if (isApplicable(procedure, company, hasOwnCertificate)) {
          todo.push(procedure);
          await recordProcedure(deps.db, companyId, procedure, { state: 'pending', next_attempt_at: null });
        } else {
          await recordProcedure(deps.db, companyId, procedure, {
            state: 'not_applicable',
            last_error: null,
            next_attempt_at: null,
          });
        }
      }
      return { status: 'ready', procedures: todo };
    },

    /** One attempt at one procedure; a failure is recorded with its message and when the next attempt is due. */
    async runCompanyProcedure(input: {
      companyId: string;
      procedure: ProcedureName;
      retryInSeconds: number;
    }): Promise<ProcedureRunResult> {
      const { companyId, procedure } = input;
      const loaded = await loadCompany(companyId);
      if (!loaded) return { outcome: 'gone' };
      const { company, hasOwnCertificate } = loaded;
      if (!isApplicable(procedure, company, hasOwnCertificate)) return { outcome: 'not_applicable' };
      const [row] = (await listProcedures(deps.db, [companyId])).filter((r) => r.procedure === procedure);
      if (row?.state === 'done') return { outcome: 'done' };
      const attempts = (row?.attempts ?? 0) + 1;
      await recordProcedure(deps.db, companyId, procedure, { state: 'running', attempts, next_attempt_at: null });

      const fail = async (message: string, retryable: boolean): Promise<ProcedureRunResult> => {
        const next = retryable ? new Date(Date.now() + input.retryInSeconds * 1000) : null;
        await recordProcedure(deps.db, companyId, procedure, {
          state: 'failed',
          last_error: message,
          next_attempt_at: next,
        });
        return { outcome: 'failed', retryable, message };
      };
      if (!portal) return fail('CHASQUI_PORTAL_URL is not configured, so the portal cannot be reached', true);
      if (!company.sol_user || !company.sol_password_sealed)
        return fail('the principal SOL user and password are not loaded', false);

      const login = await portal.login({
        ruc: company.ruc,
        user: company.sol_user,
        password: deps.secrets.open(company.sol_password_sealed),
      });
      if (!login.ok) return fail(login.message, login.retryable);
      const result =
        procedure === 'pse_authorization'
          ? await portal.authorizePse(login.value, deps.config.providerRuc)
          : await portal.linkOse(login.value, deps.config.providerRuc);
      if (!result.ok) return fail(result.message, result.retryable);
      await recordProcedure(deps.db, companyId, procedure, {
        state: 'done',
        last_error: null,
        done_at: new Date(),
        next_attempt_at: null,
      });
      return { outcome: 'done' };
    },
  };
}

export type CompanyProcedureActivities = ReturnType<typeof createCompanyProcedureActivities>;
