import type { Db } from './knex';
import { updateCompany, type CompanyRow } from './companies';
import type { Certificate } from '../documents/signing';

export interface CertificateRow {
  id: string;
  account_id: string;
  origin: 'own' | 'provider';
  subject: string;
  issuer: string;
  serial_number: string;
  ruc: string | null;
  not_before: Date;
  not_after: Date;
  certificate_pem: string;
  private_key_sealed: string;
  first_used_at: Date | null;
  created_at: Date;
}

export type CertificateInsert = Omit<CertificateRow, 'id' | 'first_used_at' | 'created_at'>;

export function findCertificate(db: Db, id: string): Promise<CertificateRow | undefined> {
  return db<CertificateRow>('certificates').where({ id }).first();
}

export function findCertificates(db: Db, ids: string[]): Promise<CertificateRow[]> {
  return ids.length ? db<CertificateRow>('certificates').whereIn('id', ids) : Promise.resolve([]);
}

export async function insertCertificate(db: Db, values: CertificateInsert): Promise<CertificateRow> {
  const [row] = await db<CertificateRow>('certificates').insert(values).returning('*');
  return row as CertificateRow;
}

/**
 * Lets go of a certificate a company no longer holds: an own certificate (and its sealed key) is deleted. A provider
 * certificate (plan 02) belongs to the service's pool and is left alone: dropping the company's reference frees it.
 */
export async function releaseCertificate(db: Db, id: string): Promise<void> {
  await db('certificates').where({ id, origin: 'own' }).delete();
}

/** The row for a certificate read from a PFX; the private key arrives already sealed. */
export function certificateValues(
  accountId: string,
  origin: CertificateRow['origin'],
  certificate: Certificate,
  privateKeySealed: string,
): CertificateInsert {
  return {
    account_id: accountId,
    origin,
    subject: certificate.subject,
    issuer: certificate.issuer,
    serial_number: certificate.serialNumber,
    ruc: certificate.ruc ?? null,
    not_before: certificate.notBefore,
    not_after: certificate.notAfter,
    certificate_pem: certificate.certificatePem,
    private_key_sealed: privateKeySealed,
  };
}

/**
 * Gives a company a certificate (its own upload, or a provider certificate for plan 02) and lets go of the one it
 * held, in one transaction.
 */
export async function assignCertificate(
  db: Db,
  company: { id: string; certificate_id: string | null },
  values: CertificateInsert,
): Promise<{ certificate: CertificateRow; company: CompanyRow }> {
  return db.transaction(async (trx) => {
    const certificate = await insertCertificate(trx, values);
    const changed = await updateCompany(trx, company.id, { certificate_id: certificate.id });
    if (company.certificate_id) await releaseCertificate(trx, company.certificate_id);
    return { certificate, company: changed };
  });
}
