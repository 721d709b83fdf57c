/**
 * The amounts of the sales documents (factura, boleta, notes, liquidación de compra): tax totals per tribute of
 * catalog 05, allowances and charges of catalog 53, the monetary total and the document lines, each as SUNAT's
 * guides spell its attributes.
 */
import { el, preAttrs, type SerialisedAttrs, type Xml } from './canonical';
import { money, unitValue, type Decimal } from '../decimal';
import type { DocumentTotals, LineAdjustment, LineTotals, SubtotalTotals } from '../tax/totals';
import { TAX_SCHEMES } from '../tax/rates';
import { gtinScheme } from '../catalogs/gtin';
import { freightDelivery, itemProperties } from './operations';
import { amount, currencyAttrs } from './ubl';

const REASON_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Cargo/descuento',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo53',
});
const UNSPSC_ATTRS = preAttrs({ listAgencyName: 'GS1 US', listID: 'UNSPSC', listName: 'Item Classification' });
const BAG_ATTRS = preAttrs({ unitCode: 'NIU' });

/** `cac:TaxScheme` of each tribute of catalog 05, written once. */
const TAX_SCHEME_XML = Object.fromEntries(
  Object.entries(TAX_SCHEMES).map(([id, s]) => [
    id,
    el(
      'cac:TaxScheme',
      el('cbc:ID', { schemeAgencyName: 'PE:SUNAT', schemeID: 'UN/ECE 5153', schemeName: 'Codigo de tributos' }, id),
      el('cbc:Name', s.name),
      el('cbc:TaxTypeCode', s.typeCode),
    ),
  ]),
) as Record<keyof typeof TAX_SCHEMES, Xml>;

function taxScheme(id: keyof typeof TAX_SCHEMES): Xml {
  return TAX_SCHEME_XML[id];
}

const CATEGORY_ATTRS = preAttrs({
  schemeAgencyName: 'United Nations Economic Commission for Europe',
  schemeID: 'UN/ECE 5305',
  schemeName: 'Tax Category Identifier',
});
const EXEMPTION_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Afectacion del IGV',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo07',
});
const QUANTITY_ATTRS = new Map<string, SerialisedAttrs>();
const PRICE_TYPE = {
  paid: el(
    'cbc:PriceTypeCode',
    {
      listAgencyName: 'PE:SUNAT',
      listName: 'Tipo de Precio',
      listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo16',
    },
    '01',
  ),
  free: el(
    'cbc:PriceTypeCode',
    {
      listAgencyName: 'PE:SUNAT',
      listName: 'Tipo de Precio',
      listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo16',
    },
    '02',
  ),
};

function quantityAttrs(unit: string): SerialisedAttrs {
  let attrs = QUANTITY_ATTRS.get(unit);
  if (!attrs) {
    attrs = preAttrs({
      unitCode: unit,
      unitCodeListAgencyName: 'United Nations Economic Commission for Europe',
      unitCodeListID: 'UN/ECE rec 20',
    });
    QUANTITY_ATTRS.set(unit, attrs);
  }
  return attrs;
}
const HEADER_CATEGORY: Partial<Record<keyof typeof TAX_SCHEMES, string>> = {
  '1000': 'S',
  '1016': 'S',
  '2000': 'S',
  '3000': 'S',
  '9995': 'G',
  '9996': 'Z',
  '9997': 'E',
  '9998': 'O',
};

function headerSubtotal(s: SubtotalTotals, currency: string): Xml {
  const category = HEADER_CATEGORY[s.scheme];
  return el(
    'cac:TaxSubtotal',
    s.scheme === '7152' ? null : amount('cbc:TaxableAmount', s.taxable, currency),
    amount('cbc:TaxAmount', s.amount, currency),
    el('cac:TaxCategory', category ? el('cbc:ID', CATEGORY_ATTRS, category) : null, taxScheme(s.scheme)),
  );
}

export function documentTaxTotal(totals: DocumentTotals, currency: string): Xml {
  return el(
    'cac:TaxTotal',
    amount('cbc:TaxAmount', totals.totalImpuestos, currency),
    totals.subtotals.map((s) => headerSubtotal(s, currency)),
  );
}

/** A discount (ChargeIndicator false) or charge of catalog 53, at line or document level. */
export function allowanceCharge(a: LineAdjustment, currency: string): Xml {
  const factor = a.base.isZero() ? null : a.amount.div(a.base).toDecimalPlaces(5);
  return el(
    'cac:AllowanceCharge',
    el('cbc:ChargeIndicator', a.charge ? 'true' : 'false'),
    el('cbc:AllowanceChargeReasonCode', REASON_ATTRS, a.code),
    factor ? el('cbc:MultiplierFactorNumeric', unitValue(factor, 5)) : null,
    amount('cbc:Amount', a.amount, currency),
    amount('cbc:BaseAmount', a.base, currency),
  );
}

/** The monetary total (LegalMonetaryTotal or RequestedMonetaryTotal); optional amounts appear only when not zero. */
export function monetaryTotal(name: string, totals: DocumentTotals, currency: string): Xml {
  const nonZero = (n: string, v: Decimal) => (v.isZero() ? null : amount(n, v, currency));
  return el(
    name,
    amount('cbc:LineExtensionAmount', totals.valorVenta, currency),
    amount('cbc:TaxInclusiveAmount', totals.precioVenta, currency),
    nonZero('cbc:AllowanceTotalAmount', totals.descuentos),
    nonZero('cbc:ChargeTotalAmount', totals.cargos),
    nonZero('cbc:PrepaidAmount', totals.anticipos),
    amount('cbc:PayableAmount', totals.importeTotal, currency),
  );
}

/** A line subtotal of a tribute charged as a percent of its base (ISC, income tax withheld), category S. */
function percentSubtotal(
  scheme: '2000' | '3000',
  base: Decimal,
  tax: Decimal,
  percent: Decimal,
  currency: string,
  tier: Xml | null = null,
): Xml {
  return el(
    'cac:TaxSubtotal',
    amount('cbc:TaxableAmount', base, currency),
    amount('cbc:TaxAmount', tax, currency),
    el(
      'cac:TaxCategory',
      el('cbc:ID', CATEGORY_ATTRS, 'S'),
      el('cbc:Percent', unitValue(percent)),
      tier,
      taxScheme(scheme),
    ),
  );
}

function lineTaxTotal(l: LineTotals, currency: string): Xml {
  const it = l.item;
  const subtotals: Xml[] = [];
  if (it.isc)
    subtotals.push(
      percentSubtotal('2000', l.iscBase, l.isc, it.isc.tasa, currency, el('cbc:TierRange', it.isc.sistema)),
    );
  subtotals.push(
    el(
      'cac:TaxSubtotal',
      amount('cbc:TaxableAmount', l.affectation.taxed ? l.igvBase : l.lineExtension, currency),
      amount('cbc:TaxAmount', l.igv, currency),
      el(
        'cac:TaxCategory',
        el('cbc:ID', CATEGORY_ATTRS, l.affectation.category),
        el('cbc:Percent', l.rate.toFixed(2)),
        el('cbc:TaxExemptionReasonCode', EXEMPTION_ATTRS, it.afectacionIgv),
        taxScheme(l.affectation.scheme),
      ),
    ),
  );
  if (it.icbper) {
    subtotals.push(
      el(
        'cac:TaxSubtotal',
        amount('cbc:TaxAmount', l.icbper, currency),
        el('cbc:BaseUnitMeasure', BAG_ATTRS, it.cantidad.toFixed(0)),
        el('cac:TaxCategory', el('cbc:PerUnitAmount', currencyAttrs(currency), money(l.icbperRate)), taxScheme('7152')),
      ),
    );
  }
  // Liquidación de compra: the income tax withheld; no TaxExemptionReasonCode (3050).
  if (it.retencionRenta)
    subtotals.push(percentSubtotal('3000', l.lineExtension, l.ir, it.retencionRenta.porcentaje, currency));
  return el('cac:TaxTotal', amount('cbc:TaxAmount', l.taxAmount, currency), subtotals);
}

/**
 * One document line. Invoice lines carry their AllowanceCharge before TaxTotal, credit and debit note lines after it
 * (UBL 2.1 schemas).
 */
export function documentLine(
  l: LineTotals,
  index: number,
  names: { line: string; quantity: string; allowanceFirst: boolean },
  currency: string,
): Xml {
  const it = l.item;
  const adjustments = l.adjustments.map((a) => allowanceCharge(a, currency));
  return el(
    names.line,
    el('cbc:ID', String(index + 1)),
    el(names.quantity, quantityAttrs(it.unidad), unitValue(it.cantidad)),
    amount('cbc:LineExtensionAmount', l.lineExtension, currency),
    el(
      'cac:PricingReference',
      el(
        'cac:AlternativeConditionPrice',
        el('cbc:PriceAmount', currencyAttrs(currency), unitValue(l.referencePrice)),
        l.affectation.free ? PRICE_TYPE.free : PRICE_TYPE.paid,
      ),
    ),
    freightDelivery(it.transporte),
    names.allowanceFirst ? adjustments : null,
    lineTaxTotal(l, currency),
    names.allowanceFirst ? null : adjustments,
    el(
      'cac:Item',
      el('cbc:Description', it.descripcion),
      it.codigo ? el('cac:SellersItemIdentification', el('cbc:ID', it.codigo)) : null,
      it.gtin ? el('cac:StandardItemIdentification', el('cbc:ID', { schemeID: gtinScheme(it.gtin) }, it.gtin)) : null,
      it.codigoSunat
        ? el('cac:CommodityClassification', el('cbc:ItemClassificationCode', UNSPSC_ATTRS, it.codigoSunat))
        : null,
      itemProperties(it.propiedades),
    ),
    el('cac:Price', el('cbc:PriceAmount', currencyAttrs(currency), unitValue(l.priceAmount))),
  );
}
