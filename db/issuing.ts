import type { Knex } from 'knex';
import type { Db } from './knex';
import type { CompanyRow } from './companies';
import { findCertificate, type CertificateRow } from './certificates';
import { HOLD, STATUS_CODES } from '../lifecycle/transitions';

/** The calling company and its account's plan balances, as the token's lookup reads them (db/tokens.ts). */
export interface IssuerAccount {
  company: CompanyRow;
  /** Plan 01 signatures left (decimal string, e.g. "12.500"). */
  quotaUnits: string;
  osePackageUnits: number;
}

/** What issuing needs to know about the calling company: the company, its certificate, its account's plan balances. */
export interface IssuerContext extends IssuerAccount {
  certificate: CertificateRow | null;
}

/** The issuer as read with its token, and its certificate when it has one of its own. */
export async function loadIssuerContext(db: Db, issuer: IssuerAccount): Promise<IssuerContext> {
  const { certificate_id } = issuer.company;
  return { ...issuer, certificate: certificate_id ? ((await findCertificate(db, certificate_id)) ?? null) : null };
}

export interface ProductionUse {
  accountId: string;
  companyId: string;
  /** Plan 01 signatures to consume, as a decimal string ("1", "0.5", "0"). */
  signatureUnits: string;
  /** Sends of the provider's OSE package to consume (0 or 1). */
  osePackageUnits: number;
  /** The certificate that signed, whose plan validity starts at its first production signature. */
  certificateId: string | null;
}

export type ConsumeOutcome =
  { ok: true } | { ok: false; lacking: 'signatures' | 'ose_package'; quotaUnits: string; osePackageUnits: number };

/**
 * Records one production signature inside the issuing transaction: the account's balances are decremented only when
 * they cover the cost (a conditional UPDATE, so concurrent issues never overdraw), the company's production movement
 * is counted and the certificate's first use stamped. On `ok: false` the caller rolls the transaction back.
 */
export async function consumeProductionUse(trx: Knex.Transaction, use: ProductionUse): Promise<ConsumeOutcome> {
  const { rows } = await trx.raw(
    `update accounts set quota_units = quota_units - ?::numeric, quota_used_units = quota_used_units + ?::numeric,
            ose_package_units = ose_package_units - ?
       where id = ? and quota_units >= ?::numeric and ose_package_units >= ?
     returning id`,
    [
      use.signatureUnits,
      use.signatureUnits,
      use.osePackageUnits,
      use.accountId,
      use.signatureUnits,
      use.osePackageUnits,
    ],
  );
  if (rows.length === 0) {
    const account = await trx('accounts').where({ id: use.accountId }).first('quota_units', 'ose_package_units');
    const quotaUnits = String(account.quota_units);
    const osePackageUnits = Number(account.ose_package_units);
    return {
      ok: false,
      lacking: Number(quotaUnits) < Number(use.signatureUnits) ? 'signatures' : 'ose_package',
      quotaUnits,
      osePackageUnits,
    };
  }
  await trx('companies').where({ id: use.companyId }).increment('production_documents', 1);
  if (use.certificateId)
    await trx('certificates')
      .where({ id: use.certificateId })
      .whereNull('first_used_at')
      .update({ first_used_at: trx.fn.now() });
  return { ok: true };
}

/** Adds (negative: removes) sends of the provider OSE package; null when the account does not exist. */
export async function addOsePackage(db: Db, accountId: string, units: number): Promise<number | null> {
  const [row] = await db('accounts')
    .where({ id: accountId })
    .increment('ose_package_units', units)
    .returning('ose_package_units');
  return row ? Number(row.ose_package_units) : null;
}

/**
 * A certificate of the service itself, created on first use and shared by every process: of concurrent creators
 * the first insert wins and everyone reads that one.
 */
export async function ensureServiceCertificate(
  db: Db,
  name: string,
  create: () => { certificatePem: string; privateKeySealed: string },
): Promise<{ certificatePem: string; privateKeySealed: string }> {
  let row = await db('service_certificates').where({ name }).first();
  if (!row) {
    const made = create();
    await db('service_certificates')
      .insert({ name, certificate_pem: made.certificatePem, private_key_sealed: made.privateKeySealed })
      .onConflict('name')
      .ignore();
    row = await db('service_certificates').where({ name }).first();
  }
  return { certificatePem: row.certificate_pem, privateKeySealed: row.private_key_sealed };
}

/** Undoes `releaseForSending` (HOLD) when the send signal could not be delivered, so `POST …/send` can be retried. */
export async function holdForSending(db: Db, id: string): Promise<void> {
  await db('documents')
    .where({ id, status: HOLD.from, send_attempts: 0 })
    .whereNull('result')
    .update({ status: HOLD.to, status_code: STATUS_CODES[HOLD.to], updated_at: db.fn.now() });
}

/** A company as the panel issues for it, without a token: the company and its account's balances, read now. */
export async function companyIssuer(db: Db, company: CompanyRow): Promise<IssuerAccount> {
  const account = await db('accounts').where({ id: company.account_id }).first('quota_units', 'ose_package_units');
  return { company, quotaUnits: String(account.quota_units), osePackageUnits: Number(account.ose_package_units) };
}
