import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/knex';
import type { CompanyRow } from '../../db/companies';
import { insertDocument, type DocumentRow } from '../../db/documents';
import { prepareDocument } from '../../documents';
import { signXml, type Signer } from '../../documents/signing';
import type { DocStatus } from '../../workflows/document-types';

export const FIXTURES = path.resolve(__dirname, '../fixtures/documents');

export function fixture(name: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
}

/**
 * Builds, signs and commits a document as `POST /v1/cpe` does (without the HTTP, the quota and the workflow start),
 * for suites that exercise delivery on their own terms.
 */
export async function commitSignedDocument(
  db: Db,
  company: Pick<CompanyRow, 'id' | 'account_id' | 'environment' | 'destination'>,
  payload: unknown,
  signer: Signer,
  options: { status?: DocStatus } = {},
): Promise<DocumentRow> {
  const prepared = prepareDocument(payload);
  const signed = signXml(prepared.xml, signer);
  return insertDocument(db, {
    account_id: company.account_id,
    company_id: company.id,
    ruc: prepared.ruc,
    doc_type: prepared.docType,
    series: prepared.series,
    number: prepared.number,
    filename: prepared.filename,
    issue_date: prepared.issueDate,
    currency: prepared.currency,
    environment: company.environment,
    destination: company.destination,
    signed_by: 'provider',
    status: options.status ?? 'queued',
    hash: signed.hash,
    xml: signed.xml,
    totals: prepared.totals,
    warnings: prepared.warnings,
  });
}
