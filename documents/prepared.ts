/** The one assembly of a PreparedDocument from an issued document's header (sales, retención/percepción, guides). */
import type { DocType, PreparedDocument } from './types';

/** What every numbered document carries in its header, as the payload names it. */
export interface NumberedHeader {
  tipoDoc: DocType;
  emisor: { ruc: string };
  serie: string;
  fechaEmision: string;
}

/** `number` is the correlative, `id` the `SERIE-NUMERO` the file name ends with. */
export function preparedDocument(
  header: NumberedHeader,
  numbered: { number: number; id: string },
  content: Pick<PreparedDocument, 'currency' | 'xml' | 'totals' | 'warnings' | 'buyerEmail'>,
): PreparedDocument {
  return {
    docType: header.tipoDoc,
    ruc: header.emisor.ruc,
    series: header.serie,
    number: numbered.number,
    filename: `${header.emisor.ruc}-${header.tipoDoc}-${numbered.id}`,
    issueDate: header.fechaEmision,
    ...content,
  };
}
