/**
 * The sale payload as joi leaves it (defaults applied, amounts as Decimal): its types and the code lists they are made
 * of. Types only and no schema, so the schemas (schema.ts, operations.ts, purchase.ts), the rules and the arithmetic
 * (tax/) import them without importing each other.
 */
import type { Decimal } from '../decimal';
import type { Currency } from '../input/fields';
import type { Customer, Issuer } from '../input/parties';

export const SALE_DOC_TYPES = ['01', '03', '07', '08'] as const;
export type SaleDocType = (typeof SALE_DOC_TYPES)[number];

/** Catalog 07, grouped by how each code is taxed. */
export const IGV_AFFECTATIONS = [
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '20',
  '21',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '40',
] as const;
export type IgvAffectation = (typeof IGV_AFFECTATIONS)[number];

/** Catalog 08: ISC systems (01 al valor, 02 monto fijo, 03 precio de venta al público). */
export const ISC_SYSTEMS = ['01', '02', '03'] as const;

/** Catalog 60: the kind of place (01 punto de venta, 02 producción, 03 extracción, 04 explotación, 05 ninguno). */
export const PLACE_TYPES = ['01', '02', '03', '04', '05'] as const;

export interface PerceptionInput {
  codigo: string;
  porcentaje?: Decimal;
  baseImponible?: Decimal;
}

export interface ItemProperty {
  codigo: string;
  valor?: string;
  fecha?: string;
  fechaFin?: string;
  hora?: string;
  dias?: number;
  cantidad?: Decimal;
}

/** An address of a freight's origin or destination. */
export interface FreightPlace {
  ubigeo: string;
  direccion: string;
}

export interface Freight {
  origen: FreightPlace;
  destino: FreightPlace;
  detalle: string;
  valorReferencialServicio: Decimal;
  valorReferencialCargaEfectiva: Decimal;
  valorReferencialCargaUtil: Decimal;
}

export interface RailService {
  agenteRuc: string;
  medioPago: string;
  idPago: string;
}

/** Where a liquidación de compra's operation took place, or its seller lives. */
export interface PurchasePlace {
  tipo: (typeof PLACE_TYPES)[number];
  ubigeo: string;
  direccion: string;
  departamento?: string;
  provincia?: string;
  distrito?: string;
}

export interface Seller {
  tipoDoc: string;
  numDoc: string;
  nombre: string;
  direccion: PurchasePlace;
}

export interface Adjustment {
  codigo: string;
  monto: Decimal;
}

export interface SaleItem {
  codigo?: string;
  codigoSunat?: string;
  /** GS1 code (GTIN-8, -12, -13 or -14), written as cac:StandardItemIdentification/cbc:ID with its schemeID. */
  gtin?: string;
  descripcion: string;
  cantidad: Decimal;
  unidad: string;
  valorUnitario: Decimal;
  afectacionIgv: IgvAffectation;
  porcentajeIgv?: number;
  isc?: { sistema: (typeof ISC_SYSTEMS)[number]; tasa: Decimal; precioSugerido?: Decimal };
  icbper: boolean;
  retencionRenta?: { porcentaje: Decimal };
  descuentos?: Adjustment[];
  cargos?: Adjustment[];
  propiedades?: ItemProperty[];
  transporte?: Freight;
}

export interface Instalment {
  monto: Decimal;
  fechaPago: string;
}

export type ClientTotals = Partial<
  Record<
    | 'gravadas'
    | 'exoneradas'
    | 'inafectas'
    | 'exportacion'
    | 'gratuitas'
    | 'ivap'
    | 'igv'
    | 'isc'
    | 'icbper'
    | 'totalImpuestos'
    | 'valorVenta'
    | 'precioVenta'
    | 'descuentos'
    | 'cargos'
    | 'anticipos'
    | 'importeTotal',
    Decimal
  >
>;

/** The payload after joi: defaults applied, amounts as Decimal. A liquidación de compra (04) has a seller, not a customer. */
export interface SaleInput {
  tipoDoc: SaleDocType | '04';
  serie: string;
  correlativo: string | number;
  fechaEmision: string;
  horaEmision?: string;
  fechaVencimiento?: string;
  tipoMoneda: Currency;
  tipoOperacion: string;
  formaPago?: 'Contado' | 'Credito' | { tipo: 'Contado' | 'Credito'; cuotas?: Instalment[] };
  emisor: Issuer;
  cliente?: Customer;
  vendedor?: Seller;
  lugarOperacion?: PurchasePlace;
  items: SaleItem[];
  descuentos?: Adjustment[];
  cargos?: Adjustment[];
  anticipos?: { tipoDoc: '02' | '03'; serieNumero: string; monto: Decimal; baseImponible?: Decimal }[];
  documentoAfectado?: { tipoDoc: '01' | '03'; serieNumero: string };
  motivo?: { codigo: string; descripcion: string };
  detraccion?: { codigo: string; porcentaje?: Decimal; cuenta: string; medioPago: string };
  percepcion?: PerceptionInput;
  transporteFerroviario?: RailService;
  ordenCompra?: string;
  guias?: { tipoDoc: '09' | '31'; serieNumero: string }[];
  leyendas?: { codigo: string; valor: string }[];
  totales?: ClientTotals;
}
