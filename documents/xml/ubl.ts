/**
 * UBL pieces shared by the builders: namespaces, the signature placeholder, parties, tax totals and document lines.
 * Attribute values follow SUNAT's guides (the XSLs observe 4251/4252/4255 when agency/list names differ).
 */
import { el, frag, opt, preAttrs, type SerialisedAttrs, type Xml } from './canonical';
import { money, unitValue, type Decimal } from '../decimal';
import type { Issuer, Customer } from '../input/parties';
import type { DocumentTotals, LineAdjustment, LineTotals, SubtotalTotals } from '../tax/totals';
import { TAX_SCHEMES } from '../tax/rates';
import { gtinScheme } from '../catalogs/gtin';
import { freightDelivery, itemProperties } from './operations';

export const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  sac: 'urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1',
};

/** Root attributes: the document's default namespace plus the prefixes every SUNAT document uses. */
export function rootNamespaces(defaultNs: string): Record<string, string> {
  return {
    xmlns: defaultNs,
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
    'xmlns:ds': NS.ds,
    'xmlns:ext': NS.ext,
    'xmlns:sac': NS.sac,
  };
}

/** The empty first extension the signer fills with `ds:Signature`. */
export const SIGNATURE_PLACEHOLDER = el('ext:UBLExtensions', el('ext:UBLExtension', el('ext:ExtensionContent')));

/** The `Id` the signer gives `ds:Signature`; `cac:Signature` points at it. */
export const SIGNATURE_ID = 'SignatureSP';

export function signatureBlock(issuer: Pick<Issuer, 'ruc' | 'razonSocial'>): Xml {
  return el(
    'cac:Signature',
    el('cbc:ID', SIGNATURE_ID),
    el(
      'cac:SignatoryParty',
      el('cac:PartyIdentification', el('cbc:ID', issuer.ruc)),
      el('cac:PartyName', el('cbc:Name', issuer.razonSocial)),
    ),
    el('cac:DigitalSignatureAttachment', el('cac:ExternalReference', el('cbc:URI', `#${SIGNATURE_ID}`))),
  );
}

/** Attribute sets written on every line, serialised once. */
const CURRENCY_ATTRS = new Map<string, SerialisedAttrs>();
export function currencyAttrs(currency: string): SerialisedAttrs {
  let attrs = CURRENCY_ATTRS.get(currency);
  if (!attrs) CURRENCY_ATTRS.set(currency, (attrs = preAttrs({ currencyID: currency })));
  return attrs;
}

export function amount(name: string, value: Decimal, currency: string): Xml {
  return el(name, currencyAttrs(currency), money(value));
}

const IDENTITY_ATTRS = {
  schemeAgencyName: 'PE:SUNAT',
  schemeName: 'Documento de Identidad',
  schemeURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo06',
};

const IDENTITY_ATTRS_BY_TYPE = new Map<string, SerialisedAttrs>();

export function partyIdentification(docType: string, number: string): Xml {
  let attrs = IDENTITY_ATTRS_BY_TYPE.get(docType);
  if (!attrs) IDENTITY_ATTRS_BY_TYPE.set(docType, (attrs = preAttrs({ schemeID: docType, ...IDENTITY_ATTRS })));
  return el('cac:PartyIdentification', el('cbc:ID', attrs, number));
}

interface AddressFields {
  ubigeo?: string;
  codLocal?: string;
  urbanizacion?: string;
  provincia?: string;
  departamento?: string;
  distrito?: string;
  direccion?: string;
  codigoPais: string;
}

const UBIGEO_ATTRS = preAttrs({ schemeAgencyName: 'PE:INEI', schemeName: 'Ubigeos' });
const ANNEX_ATTRS = preAttrs({ listAgencyName: 'PE:SUNAT', listName: 'Establecimientos anexos' });
const COUNTRY_ATTRS = preAttrs({
  listAgencyName: 'United Nations Economic Commission for Europe',
  listID: 'ISO 3166-1',
  listName: 'Country',
});
const CURRENCY_CODE_ATTRS = preAttrs({
  listAgencyName: 'United Nations Economic Commission for Europe',
  listID: 'ISO 4217 Alpha',
  listName: 'Currency',
});
const REASON_ATTRS = preAttrs({
  listAgencyName: 'PE:SUNAT',
  listName: 'Cargo/descuento',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo53',
});
const UNSPSC_ATTRS = preAttrs({ listAgencyName: 'GS1 US', listID: 'UNSPSC', listName: 'Item Classification' });
const BAG_ATTRS = preAttrs({ unitCode: 'NIU' });

/** `cac:RegistrationAddress`; the issuer's carries its annex code (AddressTypeCode, SUNAT 3030). */
function registrationAddress(a: AddressFields): Xml {
  return el(
    'cac:RegistrationAddress',
    opt('cbc:ID', a.ubigeo, UBIGEO_ATTRS),
    opt('cbc:AddressTypeCode', a.codLocal, ANNEX_ATTRS),
    opt('cbc:CitySubdivisionName', a.urbanizacion),
    opt('cbc:CityName', a.provincia),
    opt('cbc:CountrySubentity', a.departamento),
    opt('cbc:District', a.distrito),
    a.direccion ? el('cac:AddressLine', el('cbc:Line', a.direccion)) : null,
    el('cac:Country', el('cbc:IdentificationCode', COUNTRY_ATTRS, a.codigoPais)),
  );
}

function party(
  docType: string,
  number: string,
  legalName: string,
  address: AddressFields | undefined,
  tradeName?: string,
  agentRuc?: string,
): Xml {
  return el(
    'cac:Party',
    partyIdentification(docType, number),
    tradeName ? el('cac:PartyName', el('cbc:Name', tradeName)) : null,
    el('cac:PartyLegalEntity', el('cbc:RegistrationName', legalName), address ? registrationAddress(address) : null),
    agentRuc ? el('cac:AgentParty', partyIdentification('6', agentRuc)) : null,
  );
}

/** The issuer's `cac:Party`; `agentRuc` is the travel agent who sold a rail ticket (operation 0302). */
export function issuerParty(issuer: Issuer, agentRuc?: string): Xml {
  return party('6', issuer.ruc, issuer.razonSocial, issuer.establecimiento, issuer.nombreComercial, agentRuc);
}

export function supplierParty(issuer: Issuer, agentRuc?: string): Xml {
  return el('cac:AccountingSupplierParty', issuerParty(issuer, agentRuc));
}

export function customerParty(customer: Customer): Xml {
  return el(
    'cac:AccountingCustomerParty',
    party(customer.tipoDoc, customer.numDoc || '-', customer.nombre, customer.address),
  );
}

/** The start every document shares: the signature placeholder, the UBL and SUNAT customization versions, the ID. */
export function documentHead(ublVersion: '2.0' | '2.1', customization: string, id: string): Xml {
  return frag(
    SIGNATURE_PLACEHOLDER,
    el('cbc:UBLVersionID', ublVersion),
    el('cbc:CustomizationID', customization),
    el('cbc:ID', id),
  );
}

export function documentTypeCode(code: string, name = 'Tipo de Documento'): Xml {
  return el(
    'cbc:DocumentTypeCode',
    { listAgencyName: 'PE:SUNAT', listName: name, listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo01' },
    code,
  );
}

export function currencyCode(currency: string): Xml {
  return el('cbc:DocumentCurrencyCode', CURRENCY_CODE_ATTRS, currency);
}

export function legends(notes: readonly { codigo: string; valor: string }[]): Xml {
  return frag(notes.map((n) => el('cbc:Note', { languageLocaleID: n.codigo }, n.valor)));
}

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
