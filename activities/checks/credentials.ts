import { sendingSolUser } from '../documents';
import { getStatusCdr, resolveEndpoints, type AuthorityResult, type ResolvedEndpoints } from '../../authority';
import { authorityCalls } from '../../core/metrics';
import type { CompanyRow } from '../../db/companies';
import type { CheckId, CheckResult } from '../../db/company-checks';
import { credentialsStatus } from '../../lifecycle/checks';
import { codesDoing } from '../../documents/sunat-codes';
import { carried, result, type CheckContext, type CheckedCompany } from './context';
import { message } from '../../lifecycle/messages';

/** SUNAT's answers to credentials it does not accept, from the one catalog of its return codes. */
const CREDENTIAL_CODES = new Set(codesDoing('credentials'));

type SolUser = NonNullable<ReturnType<typeof sendingSolUser>>;
export type CredentialCheckId = 'sol_credentials' | 'gre_credentials';

/** The credentials checks of a run: the results known without SUNAT, and the one SUNAT call still `due` (if any). */
export interface CredentialPlan {
  results: CheckResult[];
  due: (() => Promise<CheckResult>) | null;
  asked: CredentialCheckId | null;
}

interface Candidate {
  id: CredentialCheckId;
  ask: () => Promise<CheckResult>;
  changedAt: Date | null;
}

function endpointsOf({ config }: CheckContext, company: CompanyRow): ResolvedEndpoints | null {
  try {
    return resolveEndpoints(
      { environment: company.environment, destination: company.destination, oseUrl: company.ose_url },
      config.authority,
    );
  } catch {
    return null;
  }
}

/** What the authority's answer says of the credentials: refused → fail with SUNAT's words; unreachable → unknown. */
function judgeAnswer(
  id: CredentialCheckId,
  answer: AuthorityResult,
  asker: { user: string; client?: string; ruc: string },
): CheckResult {
  const asked = { asked_at: new Date().toISOString(), user: asker.user, code: answer.code };
  // SOL is refused with the catalog's credential codes; a GRE token request by a rejection.
  const status = credentialsStatus(answer, id === 'gre_credentials' ? null : CREDENTIAL_CODES);
  const said = {
    unknown: message('check.credentials.unreachable', { code: answer.code, message: answer.message }),
    fail: message('check.credentials.refused', { ...asker, code: answer.code, message: answer.message }),
    ok: message('check.credentials.accepted', asker),
  }[status];
  return result(id, status, said, asked);
}

async function askSol(
  { callOptions }: CheckContext,
  company: CompanyRow,
  endpoints: ResolvedEndpoints,
  sol: SolUser,
): Promise<CheckResult> {
  // A number no company issues: SUNAT authenticates the caller, then answers "not found" (0011); nothing changes.
  const answer = await getStatusCdr(
    endpoints.billConsultService!,
    { ruc: company.ruc, ...sol },
    { ruc: company.ruc, type: '01', series: 'F999', number: '99999999' },
    callOptions,
  );
  authorityCalls.inc({ operation: 'check', classification: answer.origin ?? 'answered' });
  return judgeAnswer('sol_credentials', answer, { user: sol.solUser, ruc: company.ruc });
}

async function askGre(
  { gre, secrets, callOptions }: CheckContext,
  company: CompanyRow,
  endpoints: ResolvedEndpoints,
  sol: SolUser,
  clientId: string,
  secretSealed: string,
): Promise<CheckResult> {
  const creds = { ruc: company.ruc, ...sol, clientId, clientSecret: secrets.open(secretSealed) };
  const outcome = await gre.requestToken({ auth: endpoints.greAuth, api: endpoints.greApi }, creds, callOptions);
  const answer: AuthorityResult | null = outcome.ok ? null : outcome.result;
  authorityCalls.inc({ operation: 'check', classification: answer?.origin ?? 'answered' });
  const asker = { user: sol.solUser, client: clientId, ruc: company.ruc };
  const checked = answer
    ? judgeAnswer('gre_credentials', answer, asker)
    : result('gre_credentials', 'ok', message('check.credentials.accepted', asker), {
        asked_at: new Date().toISOString(),
        user: sol.solUser,
        code: null,
      });
  return { ...checked, fields: { ...checked.fields, client_id: clientId } };
}

/** The credentials checks that apply: a candidate SUNAT call each, or `unknown` with the fix when one cannot be asked. */
function candidates(
  ctx: CheckContext,
  { company, own }: Pick<CheckedCompany, 'company' | 'own'>,
): { results: CheckResult[]; asks: Candidate[] } {
  const endpoints = endpointsOf(ctx, company);
  const results: CheckResult[] = [];
  const asks: Candidate[] = [];
  const sol = sendingSolUser(company, company.environment, own, ctx.secrets);
  // Only SUNAT's consult service answers a harmless question; an OSE has none, SUNAT beta neither.
  if (company.destination === 'tax_authority' && endpoints?.billConsultService) {
    if (!sol) {
      results.push(
        result('sol_credentials', 'unknown', message('check.credentials.no_sol', { ruc: company.ruc, own })),
      );
    } else {
      asks.push({
        id: 'sol_credentials',
        ask: () => askSol(ctx, company, endpoints, sol),
        changedAt: company.sol_updated_at,
      });
    }
  }
  const { gre_client_id: clientId, gre_client_secret_sealed: secretSealed } = company;
  if (clientId && secretSealed && endpoints) {
    if (!sol) {
      results.push(
        result('gre_credentials', 'unknown', message('check.credentials.gre_needs_sol', { ruc: company.ruc })),
      );
    } else {
      asks.push({
        id: 'gre_credentials',
        ask: () => askGre(ctx, company, endpoints, sol, clientId, secretSealed),
        changedAt: company.gre_updated_at,
      });
    }
  }
  return { results, asks };
}

/**
 * The credentials checks and the one SUNAT call of this run: when both apply, the one never asked or whose credentials
 * changed since it was asked goes first, else the one asked longest ago; the other keeps its last answer.
 */
export function planCredentialChecks(
  ctx: CheckContext,
  subject: Pick<CheckedCompany, 'company' | 'own' | 'previous'>,
): CredentialPlan {
  const { previous } = subject;
  const { results, asks } = candidates(ctx, subject);
  const askedAt = (id: CheckId) => {
    const at = previous.get(id)?.fields.asked_at;
    return typeof at === 'string' ? Date.parse(at) : null;
  };
  const stale = (c: Candidate) => {
    const at = askedAt(c.id);
    return at === null || (c.changedAt !== null && new Date(c.changedAt).getTime() > at);
  };
  const chosen = asks.find(stale) ?? [...asks].sort((a, b) => (askedAt(a.id) ?? 0) - (askedAt(b.id) ?? 0))[0] ?? null;
  for (const c of asks) {
    if (c === chosen) continue;
    const row = previous.get(c.id);
    results.push(row ? carried(row) : result(c.id, 'unknown', message('check.credentials.not_asked')));
  }
  return { results, due: chosen?.ask ?? null, asked: chosen?.id ?? null };
}
