import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/knex';
import type { CompanyRow } from '../../db/companies';
import { insertDocument, type DocumentRow } from '../../db/documents';
import { prepareDocument } from '../../documents';
import type { Signer } from '../../documents/signing';
import { signGenerated } from '../../core/signing-keys';
import type { DocStatus } from '../../workflows/document-types';

export const FIXTURES = path.resolve(__dirname, '../fixtures/documents');

export function fixture(name: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
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
