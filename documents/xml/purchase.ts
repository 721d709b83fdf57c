/**
 * Liquidación de compra (04): a UBL 2.1 Invoice whose supplier is the seller without RUC and whose customer is the
 * issuing company, with the place of the purchase (ValidaExprRegLiquidacion-2.0.1.xsl).
 */
import { el, opt, preAttrs, type Xml } from './canonical';
import { issuerParty, partyIdentification, rootNamespaces, signatureBlock } from './ubl';
import { allowanceCharge, documentLine, documentTaxTotal, monetaryTotal } from './sales-lines';
import { INVOICE_LINE, INVOICE_NS, invoiceHeader } from './invoice';
import { despatchReferences, orderReference } from './sales-common';
import type { SaleDocument } from '../sales/document';
import type { PurchasePlace } from '../sales/types';

const UBIGEO_ATTRS = preAttrs({ schemeAgencyName: 'PE:INEI', schemeName: 'Ubigeos' });
const PLACE_TYPE_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Tipo de dirección',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo60',
});
const COUNTRY_ATTRS = preAttrs({
  listAgencyName: 'United Nations Economic Commission for Europe',
  listID: 'ISO 3166-1',
  listName: 'Country',
});

function address(name: string, p: PurchasePlace, typeCode: boolean): Xml {
  return el(
    name,
    el('cbc:ID', UBIGEO_ATTRS, p.ubigeo),
    typeCode ? el('cbc:AddressTypeCode', PLACE_TYPE_ATTRS, p.tipo) : null,
    opt('cbc:CityName', p.provincia),
    opt('cbc:CountrySubentity', p.departamento),
    opt('cbc:District', p.distrito),
    el('cac:AddressLine', el('cbc:Line', p.direccion)),
    el('cac:Country', el('cbc:IdentificationCode', COUNTRY_ATTRS, 'PE')),
  );
}

export function buildPurchaseXml(doc: SaleDocument): string {
  const d = doc.input;
  const seller = d.vendedor!;
  const place = d.lugarOperacion!;
  const currency = d.tipoMoneda;
  const t = doc.totals;
  return el(
    'Invoice',
    rootNamespaces(INVOICE_NS),
    invoiceHeader(doc),
    orderReference(doc),
    despatchReferences(doc),
    signatureBlock(d.emisor),
    el(
      'cac:AccountingSupplierParty',
      el(
        'cac:Party',
        partyIdentification(seller.tipoDoc, seller.numDoc),
        el(
          'cac:PartyLegalEntity',
          el('cbc:RegistrationName', seller.nombre),
          address('cac:RegistrationAddress', seller.direccion, true),
        ),
      ),
    ),
    // The issuer buys: it is the customer of its own document.
    el('cac:AccountingCustomerParty', issuerParty(d.emisor)),
    el(
      'cac:DeliveryTerms',
      el(
        'cac:DeliveryLocation',
        el('cbc:LocationTypeCode', PLACE_TYPE_ATTRS, place.tipo),
        address('cac:Address', place, false),
      ),
    ),
    t.globalAdjustments.map((a) => allowanceCharge(a, currency)),
    documentTaxTotal(t, currency),
    monetaryTotal('cac:LegalMonetaryTotal', t, currency),
    t.lines.map((l, i) => documentLine(l, i, INVOICE_LINE, currency)),
  ).s;
}
