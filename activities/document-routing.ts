/**
 * Where a document goes and as whom: the authority's endpoints, the SOL, OSE or GRE credentials, the company's own OSE
 * address checked public. Changes when the authority's services or the companies' credentials change.
 */
import type { ActivityDeps } from './deps';
import {
  resolveEndpoints,
  type AuthorityResult,
  type GreCredentials,
  type ResolvedEndpoints,
  type SolCredentials,
} from '../authority';
import { connectionFailure } from '../authority/classify';
import type { CompanyRow } from '../db/companies';
import type { DocumentRow } from '../db/documents';
import { checkPublicHttpsUrl } from '../core/net-guard';

const SUMMARY_TYPES = new Set(['rc', 'ra', 'rr']);
/** Retención, percepción and their reversals go to SUNAT's "otros CPE" billService (greenter sends RR there too). */
const OTHER_CPE_TYPES = new Set(['20', '40', 'rr']);
const GRE_TYPES = new Set(['09', '31']);
/** SUNAT's CDR query (billConsultService getStatusCdr) answers for invoices and their notes only. */
const QUERYABLE_TYPES = new Set(['01', '07', '08']);

/** The SUNAT beta's well-known test user, used in demo when a company has loaded no SOL credentials. */
const DEMO_SOL = { solUser: 'MODDATOS', solPassword: 'moddatos' };

export type Route = { endpoints: ResolvedEndpoints; creds: SolCredentials; gre: GreCredentials | null };

/** Daily summaries and voids (rc, ra, rr): sent with sendSummary, answered with a ticket. */
export const isSummaryType = (docType: string): boolean => SUMMARY_TYPES.has(docType);

/** Guías de remisión (09, 31): SUNAT's GRE REST API, answered with a ticket. */
export const isGreType = (docType: string): boolean => GRE_TYPES.has(docType);

/**
 * The SOL user a company's documents go to SUNAT with (WS-Security and the GRE token alike): spec 1, with its own
 * certificate the secondary user; otherwise the secondary when loaded, the principal when not; in demo SUNAT beta's
 * MODDATOS when it loaded none. Null when none applies. The company checks ask with the same user.
 */
export function sendingSolUser(
  company: CompanyRow,
  environment: string,
  ownCertificate: boolean,
  secrets: ActivityDeps['secrets'],
): { solUser: string; solPassword: string } | null {
  const demo = environment === '01' ? DEMO_SOL : null;
  const principal =
    company.sol_user && company.sol_password_sealed
      ? { solUser: company.sol_user, solPassword: secrets.open(company.sol_password_sealed) }
      : null;
  const secondary =
    company.sol_secondary_user && company.sol_secondary_password_sealed
      ? { solUser: company.sol_secondary_user, solPassword: secrets.open(company.sol_secondary_password_sealed) }
      : null;
  return ownCertificate ? (secondary ?? demo) : (secondary ?? principal ?? demo);
}

/**
 * A company's own OSE is an address the integrator chose: public at configuration, and still public now. Every
 * call to it connects to the addresses this check approved (a name that resolves elsewhere later is not followed).
 */
export async function oseTarget(
  deps: ActivityDeps,
  doc: DocumentRow,
  company: CompanyRow,
): Promise<{ ok: true; addresses?: string[] } | { ok: false; refused: AuthorityResult }> {
  if (doc.destination !== 'own_ose' || !company.ose_url) return { ok: true };
  const target = await checkPublicHttpsUrl(company.ose_url, { allowPrivate: deps.config.webhookAllowPrivate });
  if (target.ok) return { ok: true, addresses: target.addresses };
  return {
    ok: false,
    refused: connectionFailure(
      'TARGET_REFUSED',
      `the OSE URL ${target.message}; chasqui sends once it points to a public address`,
    ),
  };
}

/** Where the document goes and as whom; a value explaining why not when the company is not ready to send. */
export function route(deps: ActivityDeps, doc: DocumentRow, company: CompanyRow): Route | AuthorityResult {
  let endpoints: ResolvedEndpoints;
  try {
    endpoints = resolveEndpoints(
      {
        environment: doc.environment as '01' | '02',
        destination: doc.destination as CompanyRow['destination'],
        oseUrl: company.ose_url,
      },
      deps.config.authority,
    );
  } catch (err) {
    return connectionFailure('NO_ENDPOINT', (err as Error).message);
  }
  const sol = sendingSolUser(company, doc.environment, doc.signed_by === 'own_certificate', deps.secrets);
  const creds = sendingCredentials(deps, doc, company, sol);
  if (!creds) {
    const missing =
      doc.signed_by === 'own_certificate' && doc.destination === 'tax_authority'
        ? 'its secondary SOL user (it signs with its own certificate): PATCH sol-credentials with secondary_user and secondary_password'
        : `credentials for ${doc.destination}`;
    return connectionFailure(
      'NO_CREDENTIALS',
      `company ${doc.ruc} has no ${missing}; chasqui sends on its next retry once they are loaded`,
    );
  }
  let greCreds: GreCredentials | null = null;
  if (isGreType(doc.doc_type)) {
    if (!company.gre_client_id || !company.gre_client_secret_sealed || !sol) {
      return connectionFailure(
        'NO_GRE_CREDENTIALS',
        `company ${doc.ruc} has no GRE API credentials (PATCH /v1/companies/${doc.ruc}/gre-credentials)`,
      );
    }
    greCreds = {
      ruc: doc.ruc,
      ...sol,
      clientId: company.gre_client_id,
      clientSecret: deps.secrets.open(company.gre_client_secret_sealed),
    };
  }
  return { endpoints, creds, gre: greCreds };
}

/** The WS-Security user by destination: the company's own OSE user, the provider's OSE user, or the SOL user. */
function sendingCredentials(
  deps: ActivityDeps,
  doc: DocumentRow,
  company: CompanyRow,
  sol: { solUser: string; solPassword: string } | null,
): SolCredentials | null {
  if (doc.destination === 'own_ose') {
    if (!company.ose_user || !company.ose_password_sealed) return null;
    return { ruc: doc.ruc, solUser: company.ose_user, solPassword: deps.secrets.open(company.ose_password_sealed) };
  }
  if (doc.destination === 'provider_ose' && deps.config.providerOseCredentials) {
    const provider = deps.config.providerOseCredentials;
    return { ruc: doc.ruc, solUser: provider.user, solPassword: provider.password };
  }
  return sol ? { ruc: doc.ruc, ...sol } : null;
}

/** The real state can be asked for: SUNAT's billConsultService, for invoices and their notes (not an OSE, not the beta). */
export function queryable(doc: DocumentRow, endpoints: ResolvedEndpoints | null): boolean {
  return !!endpoints?.billConsultService && doc.destination === 'tax_authority' && QUERYABLE_TYPES.has(doc.doc_type);
}

export function billServiceOf(doc: DocumentRow, endpoints: ResolvedEndpoints): string {
  return OTHER_CPE_TYPES.has(doc.doc_type) ? endpoints.otherCpeService : endpoints.billService;
}
