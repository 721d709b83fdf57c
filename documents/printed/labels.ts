/** Names the printed representation shows for SUNAT's codes, and the formatting of amounts read from the XML. */
import type { Element } from '@xmldom/xmldom';
import { at, text } from '../xml/read';
import type { PrintedParty } from './model';

/** Catalog 01: what the box says and the heading's "REPRESENTACIÓN IMPRESA DE LA …" (a new document type adds a line). */
export const TITLES: Record<string, { title: string; heading: string }> = {
  '01': { title: 'FACTURA ELECTRÓNICA', heading: 'REPRESENTACIÓN IMPRESA DE LA FACTURA ELECTRÓNICA' },
  '03': { title: 'BOLETA DE VENTA ELECTRÓNICA', heading: 'REPRESENTACIÓN IMPRESA DE LA BOLETA DE VENTA ELECTRÓNICA' },
  '04': {
    title: 'LIQUIDACIÓN DE COMPRA ELECTRÓNICA',
    heading: 'REPRESENTACIÓN IMPRESA DE LA LIQUIDACIÓN DE COMPRA ELECTRÓNICA',
  },
  '07': { title: 'NOTA DE CRÉDITO ELECTRÓNICA', heading: 'REPRESENTACIÓN IMPRESA DE LA NOTA DE CRÉDITO ELECTRÓNICA' },
  '08': { title: 'NOTA DE DÉBITO ELECTRÓNICA', heading: 'REPRESENTACIÓN IMPRESA DE LA NOTA DE DÉBITO ELECTRÓNICA' },
  '09': {
    title: 'GUÍA DE REMISIÓN REMITENTE ELECTRÓNICA',
    heading: 'REPRESENTACIÓN IMPRESA DE LA GUÍA DE REMISIÓN REMITENTE ELECTRÓNICA',
  },
  '31': {
    title: 'GUÍA DE REMISIÓN TRANSPORTISTA ELECTRÓNICA',
    heading: 'REPRESENTACIÓN IMPRESA DE LA GUÍA DE REMISIÓN TRANSPORTISTA ELECTRÓNICA',
  },
  '20': {
    title: 'COMPROBANTE DE RETENCIÓN ELECTRÓNICO',
    heading: 'REPRESENTACIÓN IMPRESA DEL COMPROBANTE DE RETENCIÓN ELECTRÓNICO',
  },
  '40': {
    title: 'COMPROBANTE DE PERCEPCIÓN ELECTRÓNICO',
    heading: 'REPRESENTACIÓN IMPRESA DEL COMPROBANTE DE PERCEPCIÓN ELECTRÓNICO',
  },
};

/**
 * The types chasqui prints (a reader exists for them: the liquidación de compra is an Invoice too). Summaries and voids
 * have no printed representation; retention and perception (20, 40) have no reader yet.
 */
export const PRINTABLE_TYPES: ReadonlySet<string> = new Set(['01', '03', '04', '07', '08', '09', '31']);

/** The guides (GRE remitente and transportista): printed without a total, with the QR link their CDR carries. */
export const DESPATCH_TYPES: ReadonlySet<string> = new Set(['09', '31']);

/** Catalog 06, as printed before the number. */
const IDENTITY_LABELS: Record<string, string> = {
  '0': 'DOC. TRIB. NO DOM. SIN RUC',
  '1': 'DNI',
  '4': 'CARNÉ DE EXTRANJERÍA',
  '6': 'RUC',
  '7': 'PASAPORTE',
  A: 'CÉD. DIPLOMÁTICA',
  B: 'DOC. IDENT. PAÍS RESIDENCIA',
  C: 'TIN',
  D: 'IN',
  E: 'TAM',
  F: 'PTP',
  G: 'SALVOCONDUCTO',
  '-': 'VARIOS',
};

export const CURRENCY_LABELS: Record<string, string> = {
  PEN: 'SOLES (PEN)',
  USD: 'DÓLARES AMERICANOS (USD)',
  EUR: 'EUROS (EUR)',
};

/** Catalog 51 (operation types chasqui builds; others print their code). */
export const OPERATION_TYPES: Record<string, string> = {
  '0101': 'Venta interna',
  '0112': 'Venta interna - sustenta gastos deducibles persona natural',
  '0113': 'Venta interna - NRUS',
  '0200': 'Exportación de bienes',
  '0201': 'Exportación de servicios - prestación en el país',
  '0202': 'Exportación de servicios - hospedaje no domiciliado',
  '0203': 'Exportación de servicios - transporte de navieras',
  '0204': 'Exportación de servicios - a naves y aeronaves de bandera extranjera',
  '0205': 'Exportación de servicios - paquete turístico',
  '0206': 'Exportación de servicios - complementarios al transporte de carga',
  '0207': 'Exportación de servicios - suministro de energía eléctrica a ZED',
  '0208': 'Exportación de servicios - prestación parcialmente en el extranjero',
  '0401': 'Ventas no domiciliados que no califican como exportación',
  '1001': 'Operación sujeta a detracción',
  '1002': 'Operación sujeta a detracción - recursos hidrobiológicos',
  '1003': 'Operación sujeta a detracción - servicio de transporte de pasajeros',
  '1004': 'Operación sujeta a detracción - servicio de transporte de carga',
  '2001': 'Operación sujeta a percepción',
};

/** `2798.84` → `2,798.84`: digits grouped on the text as signed (no number conversion). */
export function formatAmount(value: string): string {
  const [whole, fraction] = value.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** `S/ 2,798.84` (PEN) or `USD 1,000.00`: the currency sign before the amount as signed. */
export const formatMoney = (currency: string, value: string): string =>
  `${currency === 'PEN' ? 'S/' : currency} ${formatAmount(value)}`;

/** `15/03/2024` from `2024-03-15`. */
export const formatDate = (iso: string): string => iso.split('-').reverse().join('/');

/** A party the XML does not carry (an issuer's XML signed elsewhere may lack parts): printed blank, not a failure. */
export const NO_PARTY: PrintedParty = { idLabel: null, idNumber: null, name: '' };

/** A UBL party (`cac:Party`) as printed: identity document, legal name, trade name, address lines joined. */
export function readParty(party: Element | null): PrintedParty | null {
  if (!party) return null;
  const id = at(party, 'cac:PartyIdentification', 'cbc:ID');
  const scheme = id?.getAttribute('schemeID') ?? '';
  const name =
    text(at(party, 'cac:PartyLegalEntity', 'cbc:RegistrationName')) ??
    text(at(party, 'cac:PartyName', 'cbc:Name')) ??
    '';
  const address = at(party, 'cac:PartyLegalEntity', 'cac:RegistrationAddress');
  const place = [
    text(at(address, 'cbc:District')),
    text(at(address, 'cbc:CityName')),
    text(at(address, 'cbc:CountrySubentity')),
  ].filter(Boolean);
  const line = text(at(address, 'cac:AddressLine', 'cbc:Line'));
  return {
    idLabel: id ? (IDENTITY_LABELS[scheme] ?? (scheme || null)) : null,
    idNumber: text(id),
    name,
    tradeName: text(at(party, 'cac:PartyName', 'cbc:Name')),
    address: [line, [...new Set(place)].join(' - ')].filter(Boolean).join(', ') || null,
  };
}

/** The signature's DigestValue (the "hash" SUNAT asks printed representations to show). */
export function digestValue(root: Element): string {
  const nodes = root.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'DigestValue');
  return text(nodes.item(0) as Element | null) ?? '';
}
