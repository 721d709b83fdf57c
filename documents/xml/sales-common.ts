/** Header pieces that factura, boleta and both notes write the same way. */
import { el, frag, type Xml } from './canonical';
import { amount, documentTypeCode } from './ubl';
import type { SaleDocument } from '../sales/document';
import { sum } from '../decimal';

/** `cac:PaymentTerms`: FormaPago Contado, or Credito with the pending amount and one entry per cuota (Cuota001…). */
export function paymentTermsXml(doc: SaleDocument): Xml | null {
  const p = doc.payment;
  if (!p) return null;
  const currency = doc.input.tipoMoneda;
  if (p.kind === 'Contado') return el('cac:PaymentTerms', el('cbc:ID', 'FormaPago'), el('cbc:PaymentMeansID', 'Contado'));
  // A type-13 credit note restates what remains to be paid: the sum of its new cuotas.
  const pending = doc.input.tipoDoc === '07' ? sum(p.instalments.map((c) => c.monto)) : doc.totals.importeTotal;
  return frag(
    el('cac:PaymentTerms', el('cbc:ID', 'FormaPago'), el('cbc:PaymentMeansID', 'Credito'), amount('cbc:Amount', pending, currency)),
    p.instalments.map((c, i) =>
      el(
        'cac:PaymentTerms',
        el('cbc:ID', 'FormaPago'),
        el('cbc:PaymentMeansID', `Cuota${String(i + 1).padStart(3, '0')}`),
        amount('cbc:Amount', c.monto, currency),
        el('cbc:PaymentDueDate', c.fechaPago),
      ),
    ),
  );
}

/** Notes: the reason (catalog 09/10) and the modified document. */
export function discrepancyAndBilling(doc: SaleDocument): Xml {
  const ref = doc.input.documentoAfectado!;
  const reason = doc.input.motivo!;
  return frag(
    el('cac:DiscrepancyResponse', el('cbc:ReferenceID', ref.serieNumero), el('cbc:ResponseCode', reason.codigo), el('cbc:Description', reason.descripcion)),
    el('cac:BillingReference', el('cac:InvoiceDocumentReference', el('cbc:ID', ref.serieNumero), documentTypeCode(ref.tipoDoc))),
  );
}
