/**
 * Finding documents by what support staff and customers quote (`chasqui support find`, the console's search): the
 * forms a reference takes change apart from the repository.
 */
import type { Db } from './knex';
import type { ListedDocument } from './documents';
import { listDocuments, selectListed } from './document-lists';
import { isUuid } from '../core/ids';

/**
 * What support staff and customers quote: an external id, `RUC-TT-SERIE-NUMERO` (with or without `.xml`/`.zip`), or
 * `SERIE-NUMERO` (every company's, newest first: the caller lists the candidates when there are several).
 */
export async function findDocumentsByReference(db: Db, reference: string, limit = 20): Promise<ListedDocument[]> {
  const text = reference.trim().replace(/\.(xml|zip)$/i, '');
  // The longest reference (a summary's RUC-RC-YYYYMMDD-NNNNN) has 29 characters: anything far longer names nothing.
  if (text.length > 64) return [];
  if (isUuid(text)) return listDocuments(db, { ids: [text], limit: 1 });
  const full = /^(\d{11})-(\d{2})-([A-Za-z0-9]{4})-0*(\d{1,8})$/.exec(text);
  if (full)
    return listDocuments(db, {
      ruc: full[1],
      docType: full[2],
      series: full[3].toUpperCase(),
      number: Number(full[4]),
      limit,
    });
  const short = /^([A-Za-z0-9]{4})-0*(\d{1,8})$/.exec(text);
  if (short) return listDocuments(db, { series: short[1].toUpperCase(), number: Number(short[2]), limit });
  // Summaries and voids are named RUC-RC-YYYYMMDD-N.
  return selectListed(db).where('filename', text.toUpperCase()).orderBy('created_at', 'desc').limit(limit) as Promise<
    ListedDocument[]
  >;
}
