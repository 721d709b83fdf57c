/** Factura (01) and boleta (03): UBL 2.1 Invoice as in SUNAT's guide, element order enforced by UBL-Invoice-2.1.xsd. */
import { el, frag, type Xml } from './canonical';
import {
  amount,
  currencyCode,
  customerParty,
  documentHead,
  legends,
  partyIdentification,
  rootNamespaces,
  signatureBlock,
  supplierParty,
} from './ubl';
import { allowanceCharge, documentLine, documentTaxTotal, monetaryTotal } from './sales-lines';
import { despatchReferences, detractionXml, orderReference, paymentTermsXml } from './sales-common';
import { perceptionCharge, perceptionTerms, railPaymentMeans } from './operations';
import type { SaleDocument } from '../sales/document';

export const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const INVOICE_LINE = { line: 'cac:InvoiceLine', quantity: 'cbc:InvoicedQuantity', allowanceFirst: true };

/** What every UBL Invoice (01, 03, 04) starts with: head, dates, type and operation, legends, currency. */
export function invoiceHeader(doc: SaleDocument): Xml {
  const d = doc.input;
  return frag(
    documentHead('2.1', '2.0', doc.id),
    el('cbc:IssueDate', d.fechaEmision),
    d.horaEmision ? el('cbc:IssueTime', d.horaEmision) : null,
    d.fechaVencimiento ? el('cbc:DueDate', d.fechaVencimiento) : null,
    el(
      'cbc:InvoiceTypeCode',
      {
        listAgencyName: 'PE:SUNAT',
        listID: d.tipoOperacion,
        listName: 'Tipo de Documento',
        listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo01',
        name: 'Tipo de Operacion',
      },
      d.tipoDoc,
    ),
    legends(doc.legends),
    currencyCode(d.tipoMoneda),
  );
}

export function buildInvoiceXml(doc: SaleDocument): string {
  const d = doc.input;
  const currency = d.tipoMoneda;
  const t = doc.totals;
  return el(
    'Invoice',
    rootNamespaces(INVOICE_NS),
    invoiceHeader(doc),
    orderReference(doc),
    despatchReferences(doc),
    (d.anticipos ?? []).map((a, i) =>
      el(
        'cac:AdditionalDocumentReference',
        el('cbc:ID', a.serieNumero),
        el(
          'cbc:DocumentTypeCode',
          {
            listAgencyName: 'PE:SUNAT',
            listName: 'Documento Relacionado',
            listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo12',
          },
          a.tipoDoc,
        ),
        el('cbc:DocumentStatusCode', { listAgencyName: 'PE:SUNAT', listName: 'Anticipo' }, String(i + 1)),
        el('cac:IssuerParty', partyIdentification('6', d.emisor.ruc)),
      ),
    ),
    signatureBlock(d.emisor),
    supplierParty(d.emisor, d.transporteFerroviario?.agenteRuc),
    customerParty(d.cliente!),
    railPaymentMeans(d.transporteFerroviario),
    detractionXml(doc),
    paymentTermsXml(doc),
    perceptionTerms(doc.perception),
    (d.anticipos ?? []).map((a, i) =>
      el(
        'cac:PrepaidPayment',
        el('cbc:ID', { schemeName: 'Anticipo', schemeAgencyName: 'PE:SUNAT' }, String(i + 1)),
        amount('cbc:PaidAmount', a.monto, currency),
      ),
    ),
    t.globalAdjustments.map((a) => allowanceCharge(a, currency)),
    perceptionCharge(doc.perception),
    documentTaxTotal(t, currency),
    monetaryTotal('cac:LegalMonetaryTotal', t, currency),
    t.lines.map((l, i) => documentLine(l, i, INVOICE_LINE, currency)),
  ).s;
}
