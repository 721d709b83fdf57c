import type { Config } from './config';
import type { SecretBox } from './secretbox';
import type { Db } from '../db/knex';
import { findCompanyById, type CompanyRow } from '../db/companies';
import type { NewDocument } from '../db/documents';
import type { PreparedDocument } from '../documents';
import { findCertificate } from '../db/certificates';
import { createSigner, generateTestCertificate, signBuiltXml, type Signer } from '../documents/signing';

/** The key that signs what chasqui itself generates for a company (its daily summaries, the ra of a void). */
export type CompanyKeys = (companyId: string) => Promise<{ signer: Signer; signedBy: string }>;

/**
 * The company's own (or assigned) certificate when it has one; otherwise, in demo, a test certificate made once per
 * process. A production company without a certificate cannot have a summary signed here: the error keeps its
 * receipts pending and is retried by the run.
 */
export function createCompanyKeys(deps: { db: Db; secrets: SecretBox; config: Config }): CompanyKeys {
  let demo: Signer | null = null;
  return async (companyId) => {
    const company = await findCompanyById(deps.db, companyId);
    if (!company) throw new Error(`company ${companyId} does not exist`);
    const certificate = company.certificate_id ? await findCertificate(deps.db, company.certificate_id) : undefined;
    if (certificate) {
      return {
        signer: createSigner({ certificatePem: certificate.certificate_pem, privateKeyPem: deps.secrets.open(certificate.private_key_sealed) }),
        signedBy: certificate.origin === 'own' ? 'own_certificate' : 'provider_certificate',
      };
    }
    if (company.environment !== '01') throw new Error(`company ${company.ruc} has no certificate to sign its daily summary`);
    demo ??= createSigner(generateTestCertificate({ ruc: deps.config.providerRuc, commonName: 'CHASQUI DEMO PROVIDER' }));
    return { signer: demo, signedBy: 'provider_certificate' };
  };
}

/** A document chasqui generates for a company (its rc, the ra of a void): signed with the company's key, as a row ready to store. */
export async function signGenerated(keys: CompanyKeys, company: CompanyRow, prepared: PreparedDocument, destination = company.destination): Promise<NewDocument> {
  const key = await keys(company.id);
  const signed = signBuiltXml(prepared.xml, key.signer);
  return {
    account_id: company.account_id,
    company_id: company.id,
    ruc: company.ruc,
    doc_type: prepared.docType,
    series: prepared.series,
    number: prepared.number,
    filename: prepared.filename,
    issue_date: prepared.issueDate,
    currency: prepared.currency,
    environment: company.environment,
    destination,
    signed_by: key.signedBy,
    status: 'queued',
    hash: signed.hash,
    xml: signed.xml,
    totals: prepared.totals,
    warnings: prepared.warnings,
  };
}
