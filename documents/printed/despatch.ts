/**
 * Despatch guides (09 remitente, 31 transportista) read back from their signed XML: a layout of their own (transport
 * data instead of prices) whose QR is the link SUNAT returns in the CDR, not content chasqui composes.
 */
import type { Element } from '@xmldom/xmldom';
import { all, at, text } from '../xml/read';
import { digestValue, formatDate, NO_PARTY, readParty, TITLES } from './labels';
import type { Column, Fact, PrintedDocument, PrintedQr, Section } from './model';

/** Catalog 20, with SUNAT's names. */
const TRANSFER_REASONS: Record<string, string> = {
  '01': 'Venta',
  '02': 'Compra',
  '03': 'Venta con entrega a terceros',
  '04': 'Traslado entre establecimientos de la misma empresa',
  '05': 'Consignación',
  '06': 'Devolución',
  '07': 'Recojo de bienes transformados',
  '08': 'Importación',
  '09': 'Exportación',
  '13': 'Otros',
  '14': 'Venta sujeta a confirmación del comprador',
  '17': 'Traslado de bienes para transformación',
  '18': 'Traslado emisor itinerante CP',
  '19': 'Traslado de mercancía extranjera',
};
const TRANSPORT_MODES: Record<string, string> = { '01': 'Transporte público', '02': 'Transporte privado' };
/** `cbc:SpecialInstructions` indicators, as a reader of the guide says them. */
const INDICATORS: Record<string, string> = {
  SUNAT_Envio_IndicadorTransbordoProgramado: 'Transbordo programado',
  SUNAT_Envio_IndicadorTrasladoVehiculoM1L: 'Traslado en vehículos de categoría M1 o L',
  SUNAT_Envio_IndicadorRetornoVehiculoEnvaseVacio: 'Retorno del vehículo con envases o embalajes vacíos',
  SUNAT_Envio_IndicadorRetornoVehiculoVacio: 'Retorno del vehículo vacío',
  SUNAT_Envio_IndicadorPagadorFlete_Remitente: 'Pagador del flete: remitente',
  SUNAT_Envio_IndicadorPagadorFlete_Subcontratador: 'Pagador del flete: subcontratador',
  SUNAT_Envio_IndicadorPagadorFlete_Tercero: 'Pagador del flete: tercero',
  SUNAT_Envio_IndicadorTrasladoTotalDAMoDS: 'Traslado total de la DAM o DS',
  SUNAT_Envio_IndicadorTrasladoContenedorManifiestoCarga: 'Traslado de contenedores del manifiesto de carga',
};
const PORT_KINDS: Record<string, string> = { '1': 'Puerto', '2': 'Aeropuerto' };

const COLUMNS: Column[] = [
  { header: 'N°', width: 0.06, align: 'right', ticket: 'hide' },
  { header: 'Código', width: 0.14, align: 'left', ticket: 'detail' },
  { header: 'Descripción', width: 0.56, align: 'left', ticket: 'main' },
  { header: 'Unid.', width: 0.1, align: 'center', ticket: 'detail' },
  { header: 'Cantidad', width: 0.14, align: 'right', ticket: 'detail' },
];

export const isDespatchRoot = (localName: string): boolean => localName === 'DespatchAdvice';

function place(address: Element | null): string {
  const line = text(at(address, 'cac:AddressLine', 'cbc:Line')) ?? '';
  const ubigeo = text(at(address, 'cbc:ID'));
  return ubigeo ? `${line} (ubigeo ${ubigeo})` : line;
}

function transportFacts(shipment: Element | null): Fact[] {
  const stage = at(shipment, 'cac:ShipmentStage');
  const out: Fact[] = [];
  const carrier = at(stage, 'cac:CarrierParty');
  const carrierRuc = text(at(carrier, 'cac:PartyIdentification', 'cbc:ID'));
  if (carrier) {
    const name = text(at(carrier, 'cac:PartyLegalEntity', 'cbc:RegistrationName'));
    const mtc = text(at(carrier, 'cac:PartyLegalEntity', 'cbc:CompanyID'));
    // A 31's carrier is its issuer: the guide then carries only its MTC registration.
    if (!carrierRuc && !name) out.push({ label: 'Registro MTC', value: mtc ?? '' });
    else
      out.push({
        label: 'Transportista',
        value: [carrierRuc && `RUC ${carrierRuc}`, name, mtc && `MTC ${mtc}`].filter(Boolean).join(' - '),
      });
  }
  const unit = at(shipment, 'cac:TransportHandlingUnit');
  const plates = [
    text(at(unit, 'cac:TransportEquipment', 'cbc:ID')),
    ...all(at(unit, 'cac:TransportEquipment'), 'cac:AttachedTransportEquipment').map((v) => text(at(v, 'cbc:ID'))),
  ];
  if (plates[0]) out.push({ label: 'Vehículos', value: plates.filter(Boolean).join(', ') });
  const containers = all(unit, 'cac:Package').map((p) =>
    [text(at(p, 'cbc:ID')), text(at(p, 'cbc:TraceID')) && `precinto ${text(at(p, 'cbc:TraceID'))}`]
      .filter(Boolean)
      .join(' '),
  );
  if (containers.length) out.push({ label: 'Contenedores', value: containers.join(', ') });
  const port = at(shipment, 'cac:FirstArrivalPortLocation');
  if (port) {
    const kind = PORT_KINDS[text(at(port, 'cbc:LocationTypeCode')) ?? ''] ?? 'Puerto';
    out.push({
      label: kind,
      value: [text(at(port, 'cbc:ID')), text(at(port, 'cbc:Name'))].filter(Boolean).join(' - '),
    });
  }
  for (const driver of all(stage, 'cac:DriverPerson')) {
    const name = [text(at(driver, 'cbc:FirstName')), text(at(driver, 'cbc:FamilyName'))].filter(Boolean).join(' ');
    const licence = text(at(driver, 'cac:IdentityDocumentReference', 'cbc:ID'));
    out.push({
      label: `Conductor ${(text(at(driver, 'cbc:JobTitle')) ?? '').toLowerCase()}`.trim(),
      value: [name, `doc. ${text(at(driver, 'cbc:ID')) ?? ''}`, licence && `licencia ${licence}`]
        .filter(Boolean)
        .join(', '),
    });
  }
  return out;
}

/** The guide's facts at the top: its dates, the reason and mode of the transfer, weight and packages. */
function despatchFacts(root: Element, issueDate: string): Fact[] {
  const shipment = at(root, 'cac:Shipment');
  const stage = at(shipment, 'cac:ShipmentStage');
  const facts: Fact[] = [{ label: 'Fecha de emisión', value: formatDate(issueDate) }];
  const time = text(at(root, 'cbc:IssueTime'));
  if (time) facts.push({ label: 'Hora de emisión', value: time });
  const start = text(at(stage, 'cac:TransitPeriod', 'cbc:StartDate'));
  if (start) facts.push({ label: 'Inicio del traslado', value: formatDate(start) });
  const handover = text(at(stage, 'cac:LoadingTransportEvent', 'cbc:OccurrenceDate'));
  if (handover) facts.push({ label: 'Entrega al transportista', value: formatDate(handover) });
  const reason = text(at(shipment, 'cbc:HandlingCode'));
  if (reason) {
    const detail = text(at(shipment, 'cbc:HandlingInstructions'));
    facts.push({
      label: 'Motivo de traslado',
      value: `${reason} ${TRANSFER_REASONS[reason] ?? ''}${detail ? ` - ${detail}` : ''}`.trim(),
    });
  }
  const mode = text(at(stage, 'cbc:TransportModeCode'));
  if (mode) facts.push({ label: 'Modalidad', value: TRANSPORT_MODES[mode] ?? mode });
  const weight = at(shipment, 'cbc:GrossWeightMeasure');
  if (weight)
    facts.push({ label: 'Peso bruto total', value: `${text(weight)} ${weight.getAttribute('unitCode') ?? ''}`.trim() });
  const packages = text(at(shipment, 'cbc:TotalTransportHandlingUnitQuantity'));
  if (packages) facts.push({ label: 'Número de bultos', value: packages });
  return facts;
}

/** The transfer (where from, where to, how) and the documents related to it. */
function despatchSections(root: Element): Section[] {
  const shipment = at(root, 'cac:Shipment');
  const sections: Section[] = [
    {
      title: 'Traslado',
      facts: [
        {
          label: 'Punto de partida',
          value: place(at(shipment, 'cac:Delivery', 'cac:Despatch', 'cac:DespatchAddress')),
        },
        { label: 'Punto de llegada', value: place(at(shipment, 'cac:Delivery', 'cac:DeliveryAddress')) },
        ...transportFacts(shipment),
      ],
      notes: all(shipment, 'cbc:SpecialInstructions').map((i) => INDICATORS[text(i) ?? ''] ?? text(i) ?? ''),
    },
  ];
  const sender = readParty(at(shipment, 'cac:Delivery', 'cac:Despatch', 'cac:DespatchParty'));
  const related = all(root, 'cac:AdditionalDocumentReference');
  if (related.length || sender) {
    sections.push({
      title: 'Documentos relacionados',
      facts: [
        ...(sender
          ? [{ label: 'Remitente', value: `${sender.idLabel ?? ''} ${sender.idNumber ?? ''} - ${sender.name}`.trim() }]
          : []),
        ...related.map((d) => ({
          label: text(at(d, 'cbc:DocumentType')) ?? text(at(d, 'cbc:DocumentTypeCode')) ?? 'Documento',
          value: text(at(d, 'cbc:ID')) ?? '',
        })),
      ],
    });
  }
  return sections;
}

/** `cdr`: the link SUNAT's CDR carries for the QR (DocumentReference/DocumentDescription); null while there is no CDR. */
export function readDespatch(root: Element, cdr: { link: string | null } | null): PrintedDocument {
  const docType = text(at(root, 'cbc:DespatchAdviceTypeCode')) ?? '09';
  const issueDate = text(at(root, 'cbc:IssueDate')) ?? '';
  const note = text(at(root, 'cbc:Note'));
  const qr: PrintedQr = cdr?.link
    ? { kind: 'link', text: cdr.link }
    : cdr
      ? {
          kind: 'pending',
          text: 'La constancia de SUNAT (CDR) de esta guía no trae el enlace del código QR: consulte la guía en SUNAT por su número.',
        }
      : {
          kind: 'pending',
          text: 'Guía pendiente de la constancia de SUNAT (CDR): el código QR se imprime cuando SUNAT la entrega.',
        };
  return {
    docType,
    ...(TITLES[docType] ?? TITLES['09']),
    id: text(at(root, 'cbc:ID')) ?? '',
    issuer: readParty(at(root, 'cac:DespatchSupplierParty', 'cac:Party')) ?? NO_PARTY,
    counterpart: (() => {
      const party = readParty(at(root, 'cac:DeliveryCustomerParty', 'cac:Party'));
      return party ? { label: 'Destinatario', party } : null;
    })(),
    facts: despatchFacts(root, issueDate),
    table: {
      columns: COLUMNS,
      rows: all(root, 'cac:DespatchLine').map((line) => {
        const quantity = at(line, 'cbc:DeliveredQuantity');
        return [
          text(at(line, 'cbc:ID')) ?? '',
          text(at(line, 'cac:Item', 'cac:SellersItemIdentification', 'cbc:ID')) ?? '',
          text(at(line, 'cac:Item', 'cbc:Description')) ?? '',
          quantity?.getAttribute('unitCode') ?? '',
          text(quantity) ?? '',
        ];
      }),
    },
    amounts: [],
    amountInWords: null,
    legends: note ? [`Observaciones: ${note}`] : [],
    sections: despatchSections(root),
    hash: digestValue(root),
    qr,
    issueDate,
  };
}
