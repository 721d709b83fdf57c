import type { Db } from './knex';

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

/** Gives a company a provider certificate (plan 02), letting go of the one it held; one transaction. */
export async function assignProviderCertificate(db: Db, company: { id: string; certificate_id: string | null }, values: CertificateInsert): Promise<CertificateRow> {
  return db.transaction(async (trx) => {
    const row = await insertCertificate(trx, values);
    await trx('companies').where({ id: company.id }).update({ certificate_id: row.id, updated_at: trx.fn.now() });
    if (company.certificate_id) await releaseCertificate(trx, company.certificate_id);
    return row;
  });
}
