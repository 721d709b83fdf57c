/** Header pieces that factura, boleta and both notes write the same way. */
import { el, frag, preAttrs, type Xml } from './canonical';
import { amount, documentTypeCode } from './ubl';
import type { SaleDocument } from '../sales/document';
import { sum, unitValue } from '../decimal';

const MEANS_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Medio de pago',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo59',
});
const DETRACTION_CODE_ATTRS = preAttrs({
  schemeAgencyName: 'PE:SUNAT',
  schemeName: 'Codigo de detraccion',
  schemeURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo54',
});

/** The detracción: where the customer deposits it (cac:PaymentMeans), and what and how much (cac:PaymentTerms). */
export function detractionXml(doc: SaleDocument): Xml | null {
  const d = doc.detraction;
  if (!d) return null;
  return frag(
    el(
      'cac:PaymentMeans',
      el('cbc:ID', 'Detraccion'),
      el('cbc:PaymentMeansCode', MEANS_ATTRS, d.means),
      el('cac:PayeeFinancialAccount', el('cbc:ID', d.account)),
    ),
    el(
      'cac:PaymentTerms',
      el('cbc:ID', 'Detraccion'),
      el('cbc:PaymentMeansID', DETRACTION_CODE_ATTRS, d.code),
      el('cbc:PaymentPercent', unitValue(d.percent, 2)),
      amount('cbc:Amount', d.amount, 'PEN'),
    ),
  );
}

/** `cac:PaymentTerms`: FormaPago Contado, or Credito with the pending amount and one entry per cuota (Cuota001…). */
export function paymentTermsXml(doc: SaleDocument): Xml | null {
  const p = doc.payment;
  if (!p) return null;
  const currency = doc.input.tipoMoneda;
  if (p.kind === 'Contado')
    return el('cac:PaymentTerms', el('cbc:ID', 'FormaPago'), el('cbc:PaymentMeansID', 'Contado'));
  // A type-13 credit note restates what remains to be paid: the sum of its new cuotas.
  const pending = doc.input.tipoDoc === '07' ? sum(p.instalments.map((c) => c.monto)) : doc.pending;
  return frag(
    el(
      'cac:PaymentTerms',
      el('cbc:ID', 'FormaPago'),
      el('cbc:PaymentMeansID', 'Credito'),
      amount('cbc:Amount', pending, currency),
    ),
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

/** Notes: the reason (catalog 09/10), and the modified document when the note names one. */
export function discrepancy(doc: SaleDocument): Xml {
  const ref = doc.input.documentoAfectado;
  const reason = doc.input.motivo!;
  return el(
    'cac:DiscrepancyResponse',
    ref ? el('cbc:ReferenceID', ref.serieNumero) : null,
    el('cbc:ResponseCode', reason.codigo),
    el('cbc:Description', reason.descripcion),
  );
}

/** Notes: the modified document; none for the reasons SUNAT lets leave it out (documents/sales/rules.ts, 2524). */
export function billingReference(doc: SaleDocument): Xml | null {
  const ref = doc.input.documentoAfectado;
  if (!ref) return null;
  return el(
    'cac:BillingReference',
    el('cac:InvoiceDocumentReference', el('cbc:ID', ref.serieNumero), documentTypeCode(ref.tipoDoc)),
  );
}

/** The customer's purchase order and the dispatch guides of the goods, where the document names them. */
export function orderReference(doc: SaleDocument): Xml | null {
  return doc.input.ordenCompra ? el('cac:OrderReference', el('cbc:ID', doc.input.ordenCompra)) : null;
}

export function despatchReferences(doc: SaleDocument): Xml {
  return frag(
    (doc.input.guias ?? []).map((g) =>
      el('cac:DespatchDocumentReference', el('cbc:ID', g.serieNumero), documentTypeCode(g.tipoDoc)),
    ),
  );
}
