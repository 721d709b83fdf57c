/** Comunicación de baja (RA) and resumen de reversiones (RR): UBL 2.0 VoidedDocuments 1.0, one line per voided document. */
import { el } from './canonical';
import { documentHead, rootNamespaces, signatureBlock } from './ubl';
import { summaryId, summarySupplier } from './summary';
import type { VoidedInput } from '../summaries/schema';

const VOIDED_NS = 'urn:sunat:names:specification:ubl:peru:schema:xsd:VoidedDocuments-1';

export function buildVoidedXml(doc: VoidedInput): string {
  return el(
    'VoidedDocuments',
    rootNamespaces(VOIDED_NS),
    documentHead('2.0', '1.0', summaryId(doc.tipoDoc.toUpperCase(), doc.fechaEmision, doc.correlativo)),
    el('cbc:ReferenceDate', doc.fechaReferencia),
    el('cbc:IssueDate', doc.fechaEmision),
    signatureBlock(doc.emisor),
    summarySupplier(doc.emisor),
    doc.items.map((line, i) => {
      const [serie, numero] = line.serieNumero.split('-');
      return el(
        'sac:VoidedDocumentsLine',
        el('cbc:LineID', String(i + 1)),
        el('cbc:DocumentTypeCode', line.tipoDoc),
        el('sac:DocumentSerialID', serie),
        el('sac:DocumentNumberID', String(Number(numero))),
        el('sac:VoidReasonDescription', line.motivo),
      );
    }),
  ).s;
}
