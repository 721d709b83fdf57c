/**
 * UBL 2.1 DespatchAdvice for the GRE 2.0 (SUNAT's guides for the guía de remisión remitente and transportista):
 * element order per the UBL schema, attribute values per the GRE XSLs (4251–4257 observe any other wording).
 */
import { el, opt, type Xml } from './canonical';
import { unitValue } from '../decimal';
import type { Customer } from '../input/parties';
import { documentHead, partyIdentification, rootNamespaces, signatureBlock } from './ubl';
import { MANIFEST_PROPERTIES, PORT_KINDS, RELATED_DOCUMENTS } from '../despatch/catalogs';
import type {
  Container,
  DespatchAddress,
  DespatchPayload,
  Driver,
  ManifestLine,
  Port,
  Vehicle,
} from '../despatch/types';

const DESPATCH_NS = 'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2';
const SUNAT_LIST = { listAgencyName: 'PE:SUNAT' };
const IDENTITY_SCHEME = {
  schemeAgencyName: 'PE:SUNAT',
  schemeName: 'Documento de Identidad',
  schemeURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo06',
};
const UNIT_ATTRS = {
  unitCodeListAgencyName: 'United Nations Economic Commission for Europe',
  unitCodeListID: 'UN/ECE rec 20',
};

/** `SERIE-NUMERO` as used in `cbc:ID` and the file name (SUNAT compares both as strings), correlativo as sent. */
export function despatchId(d: Pick<DespatchPayload, 'serie' | 'correlativo'>): string {
  return `${d.serie}-${d.correlativo}`;
}

type Named = Pick<Customer, 'tipoDoc' | 'numDoc' | 'nombre'>;

/** The content of a `cac:Party` (a `DespatchParty` is one itself; customer and supplier parties wrap one). */
function partyContent(p: Named): Xml[] {
  return [partyIdentification(p.tipoDoc, p.numDoc), el('cac:PartyLegalEntity', el('cbc:RegistrationName', p.nombre))];
}

function party(name: string, p: Named): Xml {
  return el(name, el('cac:Party', partyContent(p)));
}

function relatedDocument(r: DespatchPayload['documentosRelacionados'][number], guideIssuer: string): Xml {
  const known = RELATED_DOCUMENTS[r.tipo];
  const issuer = r.emisor ?? (known.issuer && !known.ownIssuerNotDefault ? guideIssuer : undefined);
  return el(
    'cac:AdditionalDocumentReference',
    el('cbc:ID', r.numero),
    el(
      'cbc:DocumentTypeCode',
      {
        ...SUNAT_LIST,
        listName: 'Documento relacionado al transporte',
        listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo61',
      },
      r.tipo,
    ),
    el('cbc:DocumentType', RELATED_DOCUMENTS[r.tipo].name),
    issuer ? el('cac:IssuerParty', partyIdentification('6', issuer)) : null,
  );
}

function address(name: string, a: DespatchAddress): Xml {
  return el(
    name,
    el('cbc:ID', { schemeAgencyName: 'PE:INEI', schemeName: 'Ubigeos' }, a.ubigeo),
    a.codLocal
      ? el('cbc:AddressTypeCode', { ...SUNAT_LIST, listID: a.ruc, listName: 'Establecimientos anexos' }, a.codLocal)
      : null,
    el('cac:AddressLine', el('cbc:Line', a.direccion)),
  );
}

function driver(d: Driver, index: number): Xml {
  return el(
    'cac:DriverPerson',
    el('cbc:ID', { schemeID: d.tipoDoc, ...IDENTITY_SCHEME }, d.numDoc),
    el('cbc:FirstName', d.nombres),
    el('cbc:FamilyName', d.apellidos),
    el('cbc:JobTitle', index === 0 ? 'Principal' : 'Secundario'),
    el('cac:IdentityDocumentReference', el('cbc:ID', d.licencia)),
  );
}

function vehicleCertificate(v: Vehicle): Xml | null {
  return v.tuce ? el('cac:ApplicableTransportMeans', el('cbc:RegistrationNationalityID', v.tuce)) : null;
}

/** The main vehicle, with the secondary ones (up to two) attached to it, then the containers with their seals. */
function transportUnit(list: readonly Vehicle[], containers: readonly Container[]): Xml | null {
  if (list.length === 0 && containers.length === 0) return null;
  const [main, ...secondary] = list;
  return el(
    'cac:TransportHandlingUnit',
    main
      ? el(
          'cac:TransportEquipment',
          el('cbc:ID', main.placa),
          vehicleCertificate(main),
          secondary.map((v) => el('cac:AttachedTransportEquipment', el('cbc:ID', v.placa), vehicleCertificate(v))),
        )
      : null,
    containers.map((c) => el('cac:Package', el('cbc:ID', c.numero), opt('cbc:TraceID', c.precinto))),
  );
}

function port(p: Port): Xml {
  const kind = PORT_KINDS[p.tipo];
  return el(
    'cac:FirstArrivalPortLocation',
    el(
      'cbc:ID',
      {
        schemeAgencyName: 'PE:SUNAT',
        schemeName: kind.name,
        schemeURI: `urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo${kind.catalog}`,
      },
      p.codigo,
    ),
    el('cbc:LocationTypeCode', p.tipo),
    el('cbc:Name', p.nombre),
  );
}

/** `cbc:SpecialInstructions` indicators of the GRE (only those the payload can set). */
function indicators(d: DespatchPayload): string[] {
  const e = d.envio;
  const out: string[] = [];
  if (e.transbordoProgramado) out.push('SUNAT_Envio_IndicadorTransbordoProgramado');
  if (e.vehiculoM1L) out.push('SUNAT_Envio_IndicadorTrasladoVehiculoM1L');
  if (e.retornoEnvasesVacios) out.push('SUNAT_Envio_IndicadorRetornoVehiculoEnvaseVacio');
  if (e.retornoVehiculoVacio) out.push('SUNAT_Envio_IndicadorRetornoVehiculoVacio');
  if (e.trasladoTotalDAMoDS) out.push('SUNAT_Envio_IndicadorTrasladoTotalDAMoDS');
  if (e.contenedorManifiestoCarga) out.push('SUNAT_Envio_IndicadorTrasladoContenedorManifiestoCarga');
  if (d.tipoDoc === '31' && d.pagadorFlete) {
    const payer = { remitente: 'Remitente', subcontratador: 'Subcontratador', tercero: 'Tercero' }[d.pagadorFlete.tipo];
    out.push(`SUNAT_Envio_IndicadorPagadorFlete_${payer}`);
  }
  return out;
}

function carrierParty(d: DespatchPayload): Xml | null {
  if (d.tipoDoc === '31') {
    // The carrier issues the guide; its MTC registration is the only carrier datum the 31 carries here.
    return d.emisor.registroMTC
      ? el('cac:CarrierParty', el('cac:PartyLegalEntity', el('cbc:CompanyID', d.emisor.registroMTC)))
      : null;
  }
  const t = d.envio.transportista;
  if (!t) return null;
  return el(
    'cac:CarrierParty',
    partyIdentification('6', t.ruc),
    el('cac:PartyLegalEntity', el('cbc:RegistrationName', t.razonSocial), opt('cbc:CompanyID', t.registroMTC)),
  );
}

function shipment(d: DespatchPayload): Xml {
  const e = d.envio;
  const sender = d.tipoDoc === '09';
  return el(
    'cac:Shipment',
    el('cbc:ID', 'SUNAT_Envio'),
    sender
      ? el(
          'cbc:HandlingCode',
          {
            ...SUNAT_LIST,
            listName: 'Motivo de traslado',
            listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo20',
          },
          e.motivo,
        )
      : null,
    sender && e.motivo === '13' ? opt('cbc:HandlingInstructions', e.descripcionMotivo) : null,
    e.pesoBruto === undefined
      ? null
      : el('cbc:GrossWeightMeasure', { unitCode: e.unidadPeso }, unitValue(e.pesoBruto, 3)),
    e.bultos ? el('cbc:TotalTransportHandlingUnitQuantity', String(e.bultos)) : null,
    indicators(d).map((i) => el('cbc:SpecialInstructions', i)),
    el(
      'cac:ShipmentStage',
      sender
        ? el(
            'cbc:TransportModeCode',
            {
              ...SUNAT_LIST,
              listName: 'Modalidad de traslado',
              listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo18',
            },
            e.modalidad,
          )
        : null,
      el('cac:TransitPeriod', el('cbc:StartDate', e.fechaInicio)),
      carrierParty(d),
      // Written whenever given: the 2024 rules do not read it, so it is safe on guides of either set.
      e.fechaEntregaTransportista
        ? el('cac:LoadingTransportEvent', el('cbc:OccurrenceDate', e.fechaEntregaTransportista))
        : null,
      e.conductores.map(driver),
    ),
    el(
      'cac:Delivery',
      address('cac:DeliveryAddress', e.llegada),
      el(
        'cac:Despatch',
        address('cac:DespatchAddress', e.partida),
        d.remitente ? el('cac:DespatchParty', partyContent(d.remitente)) : null,
      ),
    ),
    transportUnit(e.vehiculos, e.contenedores),
    e.puerto ? port(e.puerto) : null,
  );
}

const PROPERTY_ATTRS = {
  listAgencyName: 'PE:SUNAT',
  listName: 'Propiedad del item',
  listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo55',
};

/** The line's cargo-manifest data as catalog 55 properties 7024–7028. */
function manifestProperties(m: ManifestLine | undefined): Xml[] {
  if (!m) return [];
  const values: [keyof typeof MANIFEST_PROPERTIES, string | undefined][] = [
    ['documentoTransporte', m.documentoTransporte],
    ['detalle', m.detalle === undefined ? undefined : String(m.detalle)],
    ['contenedor', m.contenedor],
    ['precinto', m.precinto],
    ['contenedorVacio', m.contenedorVacio === undefined ? undefined : m.contenedorVacio ? '1' : '0'],
  ];
  return values
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const { code, name } = MANIFEST_PROPERTIES[key];
      return el(
        'cac:AdditionalItemProperty',
        el('cbc:Name', name),
        el('cbc:NameCode', PROPERTY_ATTRS, code),
        el('cbc:Value', value!),
      );
    });
}

function line(item: DespatchPayload['items'][number], index: number): Xml {
  return el(
    'cac:DespatchLine',
    el('cbc:ID', String(index + 1)),
    el('cbc:DeliveredQuantity', { unitCode: item.unidad, ...UNIT_ATTRS }, unitValue(item.cantidad)),
    el('cac:OrderLineReference', el('cbc:LineID', String(index + 1))),
    el(
      'cac:Item',
      el('cbc:Description', item.descripcion),
      item.codigo ? el('cac:SellersItemIdentification', el('cbc:ID', item.codigo)) : null,
      item.codigoSunat
        ? el(
            'cac:CommodityClassification',
            el(
              'cbc:ItemClassificationCode',
              { listAgencyName: 'GS1 US', listID: 'UNSPSC', listName: 'Item Classification' },
              item.codigoSunat,
            ),
          )
        : null,
      manifestProperties(item.manifiesto),
    ),
  );
}

export function buildDespatchXml(d: DespatchPayload): string {
  const payer = d.tipoDoc === '31' && d.pagadorFlete?.tipo === 'tercero' ? d.pagadorFlete : null;
  return el(
    'DespatchAdvice',
    rootNamespaces(DESPATCH_NS),
    documentHead('2.1', '2.0', despatchId(d)),
    el('cbc:IssueDate', d.fechaEmision),
    el('cbc:IssueTime', d.horaEmision),
    el(
      'cbc:DespatchAdviceTypeCode',
      { ...SUNAT_LIST, listName: 'Tipo de Documento', listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo01' },
      d.tipoDoc,
    ),
    opt('cbc:Note', d.observaciones),
    d.documentosRelacionados.map((r) => relatedDocument(r, d.emisor.ruc)),
    signatureBlock(d.emisor),
    el(
      'cac:DespatchSupplierParty',
      el(
        'cac:Party',
        partyIdentification('6', d.emisor.ruc),
        el('cac:PartyLegalEntity', el('cbc:RegistrationName', d.emisor.razonSocial)),
      ),
    ),
    party('cac:DeliveryCustomerParty', d.destinatario),
    d.comprador ? party('cac:BuyerCustomerParty', d.comprador) : null,
    d.proveedor ? party('cac:SellerSupplierParty', d.proveedor) : null,
    payer ? party('cac:OriginatorCustomerParty', payer) : null,
    shipment(d),
    // An appointment (92) lists no goods: SUNAT wants one line without quantity or item data (3629, 3630).
    d.items.length
      ? d.items.map(line)
      : el('cac:DespatchLine', el('cbc:ID', '1'), el('cac:OrderLineReference', el('cbc:LineID', '1')), el('cac:Item')),
  ).s;
}
