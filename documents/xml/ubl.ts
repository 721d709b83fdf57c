/**
 * UBL pieces shared by the builders: namespaces, the signature placeholder, amounts, parties and the document head
 * (the sales documents' tax totals and lines are in sales-lines.ts).
 * Attribute values follow SUNAT's guides (the XSLs observe 4251/4252/4255 when agency/list names differ).
 */
import { el, frag, opt, preAttrs, type SerialisedAttrs, type Xml } from './canonical';
import { money, type Decimal } from '../decimal';
import type { Issuer, Customer } from '../input/parties';

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
