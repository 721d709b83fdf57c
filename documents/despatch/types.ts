/** A dispatch guide (GRE 09, 31) as its schema validated it, and what its rules report. */
import type { Decimal } from '../decimal';
import type { Customer, Issuer } from '../input/parties';
import type { PORT_KINDS } from './catalogs';

export interface DespatchAddress {
  ubigeo: string;
  direccion: string;
  /** Annex code of an establishment (needed for reason 04) and the RUC that owns it. */
  codLocal?: string;
  ruc?: string;
}

export interface Driver {
  tipoDoc: string;
  numDoc: string;
  nombres: string;
  apellidos: string;
  licencia: string;
}

export interface Vehicle {
  placa: string;
  /** Certificate of the vehicle (TUCE or CHV), when it has one; GRE 31 only. */
  tuce?: string;
}

export interface Carrier {
  ruc: string;
  razonSocial: string;
  registroMTC?: string;
}

export interface RelatedDocument {
  tipo: string;
  numero: string;
  /** RUC of whoever issued the related document, when it is not the guide's issuer. */
  emisor?: string;
}

/** A line carried under a cargo manifest (91): its transport document and detail, and its container. */
export interface ManifestLine {
  documentoTransporte?: string;
  detalle?: number;
  contenedor?: string;
  precinto?: string;
  contenedorVacio?: boolean;
}

export interface DespatchItem {
  descripcion: string;
  cantidad: Decimal;
  unidad: string;
  codigo?: string;
  codigoSunat?: string;
  manifiesto?: ManifestLine;
}

export interface Port {
  tipo: keyof typeof PORT_KINDS;
  codigo: string;
  nombre: string;
}

/** A container (`cac:TransportHandlingUnit/cac:Package`) and its seals, comma-separated (`cbc:TraceID`). */
export interface Container {
  numero: string;
  precinto?: string;
}

export interface Shipment {
  motivo?: string;
  descripcionMotivo?: string;
  modalidad?: '01' | '02';
  fechaInicio: string;
  /** When the goods are handed to the carrier (`LoadingTransportEvent/OccurrenceDate`); required for public transport
   * from rule `gre-loading-date` on. */
  fechaEntregaTransportista?: string;
  /** Required, except with a port terminal's appointment (92), which carries no goods data (3625). */
  pesoBruto?: Decimal;
  unidadPeso: 'KGM' | 'TNE';
  bultos?: number;
  partida: DespatchAddress;
  llegada: DespatchAddress;
  transportista?: Carrier;
  conductores: Driver[];
  vehiculos: Vehicle[];
  /** Transport in an M1 or L category vehicle (cars, motorcycles): no carrier, driver or plate needed. */
  vehiculoM1L: boolean;
  transbordoProgramado: boolean;
  retornoVehiculoVacio: boolean;
  retornoEnvasesVacios: boolean;
  /** Foreign goods (motivo 19): the port or airport they come through. */
  puerto?: Port;
  contenedores: Container[];
  /** SUNAT_Envio_IndicadorTrasladoTotalDAMoDS: everything the DAM or DS declares goes in this one guide. */
  trasladoTotalDAMoDS: boolean;
  /** SUNAT_Envio_IndicadorTrasladoContenedorManifiestoCarga: whole containers of a cargo manifest (91). */
  contenedorManifiestoCarga: boolean;
}

export interface DespatchPayload {
  tipoDoc: '09' | '31';
  serie: string;
  correlativo: string;
  fechaEmision: string;
  horaEmision: string;
  observaciones?: string;
  emisor: Issuer & { registroMTC?: string };
  destinatario: Customer;
  remitente?: Customer;
  proveedor?: Customer;
  comprador?: Customer;
  /** Who pays the freight (31); a third party is identified like a customer. */
  pagadorFlete?: { tipo: 'remitente' | 'subcontratador' } | (Customer & { tipo: 'tercero' });
  documentosRelacionados: RelatedDocument[];
  envio: Shipment;
  items: DespatchItem[];
}

/** What a rule reports: a blocking finding (an issue of the 422) and an observation (a warning). */
export type Fail = (code: string | null, message: string, path: string | null) => void;
export type Observe = (code: string, message: string) => void;
