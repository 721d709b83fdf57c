/**
 * Nota de crédito (07, UBL 2.1 CreditNote) and nota de débito (08, UBL 2.1 DebitNote). They differ in the root, the
 * line and quantity names and the monetary total (DebitNote: RequestedMonetaryTotal); the rest reads the same.
 */
import { el } from './canonical';
import {
  currencyCode,
  customerParty,
  documentHead,
  legends,
  rootNamespaces,
  signatureBlock,
  supplierParty,
} from './ubl';
import { documentLine, documentTaxTotal, monetaryTotal } from './sales-lines';
import { billingReference, despatchReferences, discrepancy, orderReference, paymentTermsXml } from './sales-common';
import type { SaleDocument } from '../sales/document';

const NOTE_KINDS = {
  '07': {
    root: 'CreditNote',
    ns: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
    total: 'cac:LegalMonetaryTotal',
    line: { line: 'cac:CreditNoteLine', quantity: 'cbc:CreditedQuantity', allowanceFirst: false },
  },
  '08': {
    root: 'DebitNote',
    ns: 'urn:oasis:names:specification:ubl:schema:xsd:DebitNote-2',
    total: 'cac:RequestedMonetaryTotal',
    line: { line: 'cac:DebitNoteLine', quantity: 'cbc:DebitedQuantity', allowanceFirst: false },
  },
} as const;

export function buildNoteXml(doc: SaleDocument): string {
  const d = doc.input;
  const kind = NOTE_KINDS[d.tipoDoc as '07' | '08'];
  const currency = d.tipoMoneda;
  const t = doc.totals;
  return el(
    kind.root,
    rootNamespaces(kind.ns),
    documentHead('2.1', '2.0', doc.id),
    el('cbc:IssueDate', d.fechaEmision),
    d.horaEmision ? el('cbc:IssueTime', d.horaEmision) : null,
    legends(doc.legends),
    currencyCode(currency),
    discrepancy(doc),
    orderReference(doc),
    billingReference(doc),
    despatchReferences(doc),
    signatureBlock(d.emisor),
    supplierParty(d.emisor),
    customerParty(d.cliente!),
    paymentTermsXml(doc),
    documentTaxTotal(t, currency),
    monetaryTotal(kind.total, t, currency),
    t.lines.map((l, i) => documentLine(l, i, kind.line, currency)),
  ).s;
}
