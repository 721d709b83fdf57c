import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/knex';
import { insertCompany, type CompanyRow } from '../../db/companies';
import { createAccount } from '../../db/accounts';
import { insertDocument, type DocumentRow } from '../../db/documents';
import { DocumentValidationError, formatIssue, prepareDocument, type PrepareOptions } from '../../documents';
import type { Signer } from '../../documents/signing';
import { signGenerated } from '../../keys/signing-keys';
import type { DocStatus } from '../../workflows/document-types';

export const FIXTURES = path.resolve(__dirname, '../fixtures/documents');

/** The 422's errors as the API shows them (`[SUNAT 2524] … @path`), or [] when the document was built. */
export function errors(payload: unknown, options: PrepareOptions = {}): string[] {
  try {
    prepareDocument(payload, options);
    return [];
  } catch (err) {
    if (!(err instanceof DocumentValidationError)) throw err;
    return err.issues.map((i) => `${formatIssue(i)} @${i.path}`);
  }
}

export function fixture(name: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
}

/**
 * A company holding a fixed RUC (the one a test certificate and fixtures are made for), in an account of its own; any
 * company left with that RUC by an earlier test is removed first.
 */
export async function companyWithRuc(db: Db, ruc: string, businessName: string): Promise<CompanyRow> {
  const { account } = await createAccount(db, { name: businessName, quotaUnits: 0 });
  await db('companies').where({ ruc }).delete();
  return (
    await insertCompany(db, {
      account_id: account.id,
      ruc,
      business_name: businessName,
      plan_type: '01',
      environment: '01',
    })
  ).company;
}

/**
 * Builds, signs and commits a document as chasqui does for what it generates itself (`signGenerated`), with a given
 * signer instead of the company's key, for suites that exercise delivery without the HTTP, quota and workflow start.
 */
export async function commitSignedDocument(
  db: Db,
  company: CompanyRow,
  payload: unknown,
  signer: Signer,
  options: { status?: DocStatus } = {},
): Promise<DocumentRow> {
  const keys = async () => ({ signer, signedBy: 'provider_certificate' as const, certificateId: null });
  const row = await signGenerated(keys, company, prepareDocument(payload));
  return insertDocument(db, { ...row, status: options.status ?? row.status });
}
