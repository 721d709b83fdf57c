import { createHash } from 'node:crypto';
import { ApiError } from '../errors';
import type { CompanyRow } from '../../db/companies';
import type { Db } from '../../db/knex';
import { findNumberHolder, type DocumentRow } from '../../db/documents';
import { DocumentValidationError, type PreparedDocument } from '../../documents';
import { issue } from '../../documents/errors';
import { toValidationResponse } from '../../documents/validation-response';
import { isRejected } from '../../lifecycle/transitions';

/** SHA-256 of the request body as received: what tells a byte-identical repeat from another document. */
export function payloadHash(rawBody: string): string {
  return createHash('sha256').update(rawBody).digest('hex');
}

/**
 * One series-number is one document, per RUC and environment, across accounts (docs/issuing.md). Returns the
 * document to answer as a replay when the same company sends the very same bytes again; throws the 422 of spec 7.2
 * with SUNAT's code otherwise: 1032 when the number's document was rejected or voided (SUNAT never takes such a
 * number again), 1033 when it is held by another document. Nothing has been signed or charged at this point.
 */
export async function checkNumber(
  db: Db,
  company: CompanyRow,
  document: Pick<PreparedDocument, 'docType' | 'series' | 'number'>,
  hash: string,
  startedAt: number,
): Promise<DocumentRow | null> {
  const holder = await findNumberHolder(db, {
    ruc: company.ruc,
    environment: company.environment,
    doc_type: document.docType,
    series: document.series,
    number: document.number,
  });
  if (!holder) return null;
  const own = holder.company_id === company.id;
  if (own && holder.payload_hash === hash) return holder;
  const burnt = isRejected(holder.status) || holder.voided;
  const id = `${document.series}-${document.number}`;
  const problem = burnt
    ? issue(
        'SUNAT',
        '1032',
        `${id} was already issued and its document was ${holder.voided ? 'voided' : 'rejected'}: SUNAT never takes a number again; use the next correlativo`,
        'correlativo',
      )
    : issue(
        'SUNAT',
        '1033',
        `${id} is already registered with other data${own ? '' : ' (issued from another account of the same RUC)'}: one number is one document; use the next correlativo`,
        'correlativo',
      );
  // The holder is named only to its own company: another account's document is not this caller's to read.
  const body = {
    ...toValidationResponse(new DocumentValidationError([problem]), startedAt),
    ...(own ? { external_id: holder.id } : {}),
  };
  throw new ApiError(422, 'The document was not issued', { body });
}
