import type { Config } from './config';
import type { SecretBox } from './secretbox';
import type { Db } from '../db/knex';
import { findCompanyById } from '../db/companies';
import { findCertificate } from '../db/certificates';
import { createSigner, generateTestCertificate, type Signer } from '../documents/signing';

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
