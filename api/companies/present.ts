import type { Db } from '../../db/knex';
import type { CompanyRow } from '../../db/companies';
import { findCertificates, type CertificateRow } from '../../db/certificates';
import {
  isApplicable,
  listProcedures,
  PROCEDURES,
  type ProcedureName,
  type ProcedureRow,
  type ProcedureState,
} from '../../db/procedures';
import { WEBHOOK_EVENT } from '../../workflows/webhook-types';

export { WEBHOOK_EVENT };

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export interface TaxProcedure {
  state: ProcedureState;
  attempts: number;
  last_error: string | null;
  updated_at: string | null;
  done_at: string | null;
  next_attempt_at: string | null;
}

function presentProcedure(row: ProcedureRow | undefined, applicable: boolean): TaxProcedure {
  // What applies is decided by the company's current signing and destination; the row says what the workflow did.
  let state: ProcedureState = row?.state ?? 'pending';
  if (!applicable) state = 'not_applicable';
  else if (state === 'not_applicable') state = 'pending';
  return {
    state,
    attempts: row?.attempts ?? 0,
    last_error: row?.last_error ?? null,
    updated_at: iso(row?.updated_at),
    done_at: iso(row?.done_at),
    next_attempt_at: applicable ? iso(row?.next_attempt_at) : null,
  };
}

/** The company record of list and get (spec 2.1 plus what the spec leaves out; see docs/companies.md). */
export function presentCompany(
  company: CompanyRow,
  certificate: CertificateRow | undefined,
  procedures: ProcedureRow[],
) {
  const ownCertificate = certificate?.origin === 'own';
  const byName = new Map(procedures.map((p) => [p.procedure, p]));
  const taxProcedures = Object.fromEntries(
    PROCEDURES.map((name) => [name, presentProcedure(byName.get(name), isApplicable(name, company, ownCertificate))]),
  ) as Record<ProcedureName, TaxProcedure>;
  return {
    ruc: company.ruc,
    business_name: company.business_name,
    plan_type: company.plan_type,
    environment: company.environment,
    environment_name: company.environment === '02' ? 'production' : 'demo',
    sending: company.sending_mode,
    receipts: company.receipts_mode,
    response: company.response_mode,
    destination: company.destination,
    signing: company.signing === 'provider' && ownCertificate ? 'own_certificate' : company.signing,
    certificate: certificate
      ? {
          origin: certificate.origin,
          subject: certificate.subject,
          issuer: certificate.issuer,
          serial_number: certificate.serial_number,
          valid_from: iso(certificate.not_before),
          valid_to: iso(certificate.not_after),
          uploaded_at: iso(certificate.created_at),
        }
      : null,
    sol_credentials: company.sol_user
      ? {
          sol_user: company.sol_user,
          secondary_user: company.sol_secondary_user,
          updated_at: iso(company.sol_updated_at),
        }
      : null,
    ose_credentials: company.ose_user
      ? { url: company.ose_url, user: company.ose_user, updated_at: iso(company.ose_updated_at) }
      : null,
    gre_credentials: company.gre_client_id
      ? { client_id: company.gre_client_id, updated_at: iso(company.gre_updated_at) }
      : null,
    webhook: company.webhook_url
      ? { url: company.webhook_url, event: WEBHOOK_EVENT, updated_at: iso(company.webhook_updated_at) }
      : null,
    production_documents: company.production_documents,
    registers: {
      igv_special_rate: company.register_igv_special_rate,
      product_code_required: company.register_product_code,
    },
    active: company.active,
    created_at: iso(company.created_at),
    updated_at: iso(company.updated_at),
    tax_procedures: taxProcedures,
  };
}

export type CompanyRecord = ReturnType<typeof presentCompany>;

/** Records for several companies with two more queries in all (certificates, procedures). */
export async function presentCompanies(db: Db, companies: CompanyRow[]): Promise<CompanyRecord[]> {
  const certificateIds = companies.map((c) => c.certificate_id).filter((id): id is string => id !== null);
  const [certificates, procedures] = await Promise.all([
    findCertificates(db, certificateIds),
    listProcedures(
      db,
      companies.map((c) => c.id),
    ),
  ]);
  const certificateById = new Map(certificates.map((c) => [c.id, c]));
  return companies.map((company) =>
    presentCompany(
      company,
      company.certificate_id ? certificateById.get(company.certificate_id) : undefined,
      procedures.filter((p) => p.company_id === company.id),
    ),
  );
}
