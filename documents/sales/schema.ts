/**
 * Structure of the sales documents (01 factura, 03 boleta, 07 nota de crédito, 08 nota de débito): spec 2.3 plus what
 * real documents need. Compiled once at module load; domain rules that look across fields live in `rules.ts`.
 */
import Joi from 'joi';
import { amountSchema, codes, currencySchema, dateField, dateSchema, decimalSchema, timeSchema } from '../input/fields';
import { customerSchema, issuerSchema, textSchema } from '../input/parties';
import type { Decimal } from '../decimal';
import type { Currency } from '../input/fields';
import type { Customer, Issuer } from '../input/parties';

export const SALE_DOC_TYPES = ['01', '03', '07', '08'] as const;
export type SaleDocType = (typeof SALE_DOC_TYPES)[number];

/** Catalog 07, grouped by how each code is taxed. */
export const IGV_AFFECTATIONS = [
  '10', '11', '12', '13', '14', '15', '16', '17', '20', '21', '30', '31', '32', '33', '34', '35', '36', '37', '40',
] as const;
export type IgvAffectation = (typeof IGV_AFFECTATIONS)[number];

/** Catalog 08: ISC systems (01 al valor, 02 monto fijo, 03 precio de venta al público). */
export const ISC_SYSTEMS = ['01', '02', '03'] as const;
/** Catalog 09 (credit note reasons) and 10 (debit note reasons). */
export const CREDIT_NOTE_REASONS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13'] as const;
export const DEBIT_NOTE_REASONS = ['01', '02', '03', '11', '12'] as const;
/** Catalog 51 operation types this library builds (the detracción/percepción ones need data it does not model yet). */
export const OPERATION_TYPES = ['0101', '0112', '0113', '0200', '0201', '0202', '0203', '0204', '0205', '0206', '0207', '0208', '0401'] as const;

const adjustmentSchema = (allowed: readonly string[]) =>
  Joi.object({
    codigo: Joi.string()
      .valid(...allowed)
      .required()
      .error(codes({ 'any.only': `[SUNAT 3071] {#label} must be one of ${allowed.join(', ')} (catalog 53)` })),
    monto: amountSchema.required(),
  });

const itemSchema = Joi.object({
  codigo: textSchema(30),
  codigoSunat: Joi.string()
    .pattern(/^\d{8}$/)
    .error(codes({ 'string.pattern.base': '[SUNAT 4332] {#label} must be an 8-digit UNSPSC code (catalog 25)' })),
  descripcion: textSchema(500, { 'any.required': '[SUNAT 2026] {#label} is required' }).required(),
  cantidad: decimalSchema({ positive: true, maxDecimals: 10 }, { 'decimal.positive': '[SUNAT 2024] {#label} must be greater than 0' }).required(),
  unidad: Joi.string()
    .pattern(/^[A-Z0-9]{1,3}$/)
    .default('NIU')
    .error(codes({ 'string.pattern.base': '[SUNAT 2936] {#label} must be a unit code of catalog 03 (e.g. NIU, ZZ, KGM)' })),
  valorUnitario: decimalSchema({ maxDecimals: 10 }).required(),
  afectacionIgv: Joi.string()
    .valid(...IGV_AFFECTATIONS)
    .default('10')
    .error(codes({ 'any.only': '[SUNAT 2040] {#label} must be a code of catalog 07 (10–17, 20, 21, 30–37, 40)' })),
  porcentajeIgv: Joi.number()
    .valid(18, 10, 4, 0)
    .error(codes({ 'any.only': '[SUNAT 3103] {#label} must be 18 (or 10 for the reduced MYPE rate; 4 for IVAP)' })),
  isc: Joi.object({
    sistema: Joi.string()
      .valid(...ISC_SYSTEMS)
      .required()
      .error(codes({ 'any.only': '[SUNAT 2373] {#label} must be an ISC system of catalog 08 (01, 02, 03)' })),
    /** Percent for systems 01 and 03; amount per unit for system 02. */
    tasa: decimalSchema({ positive: true, maxDecimals: 10 }).required(),
    /** System 03: the suggested retail price per unit the rate applies to. */
    precioSugerido: decimalSchema({ positive: true, maxDecimals: 10 }),
  }),
  /** The line sells plastic bags: ICBPER is charged per bag and `cantidad` is the bag count. */
  icbper: Joi.boolean().default(false),
  descuentos: Joi.array().items(adjustmentSchema(['00', '01'])),
  cargos: Joi.array().items(adjustmentSchema(['47', '48'])),
});

const instalmentSchema = Joi.object({
  monto: decimalSchema({ positive: true, maxDecimals: 2 }, { 'any.required': '[SUNAT 3254] {#label} is required' }).required(),
  fechaPago: dateField({ 'any.required': '[SUNAT 3256] {#label} is required' }).required(),
});

const paymentSchema = Joi.alternatives(
  Joi.string().valid('Contado', 'Credito'),
  Joi.object({
    tipo: Joi.string().valid('Contado', 'Credito').required(),
    cuotas: Joi.array().items(instalmentSchema).max(999),
  }),
).error(codes({ 'alternatives.match': '[SUNAT 3246] {#label} must be "Contado", "Credito" or an object with tipo and cuotas' }));

export const saleSchema = Joi.object({
  tipoDoc: Joi.string().valid(...SALE_DOC_TYPES).required(),
  serie: Joi.string()
    .pattern(/^[A-Z][A-Z0-9]{3}$/)
    .required()
    .error(codes({ 'string.pattern.base': '[SUNAT 1001] {#label} must be 4 characters: a letter, then 3 letters or digits' })),
  correlativo: Joi.alternatives(Joi.string().pattern(/^\d{1,8}$/), Joi.number().integer().min(1).max(99999999))
    .required()
    .error(codes({ 'alternatives.match': '[SUNAT 1001] {#label} must be a number of 1 to 8 digits' })),
  fechaEmision: dateSchema.required(),
  horaEmision: timeSchema,
  fechaVencimiento: dateSchema,
  tipoMoneda: currencySchema.required(),
  tipoOperacion: Joi.string()
    .valid(...OPERATION_TYPES)
    .default('0101')
    .error(codes({ 'any.only': '[SUNAT 3206] {#label} must be an operation type of catalog 51 that chasqui builds' })),
  formaPago: paymentSchema,
  emisor: issuerSchema.required(),
  cliente: customerSchema.required(),
  items: Joi.array().items(itemSchema).min(1).required().error(codes({ 'array.min': '[SUNAT 2023] {#label} needs at least one line' })),
  descuentos: Joi.array().items(adjustmentSchema(['02', '03'])),
  cargos: Joi.array().items(adjustmentSchema(['49', '50'])),
  anticipos: Joi.array().items(
    Joi.object({
      tipoDoc: Joi.string().valid('02', '03').required().error(codes({ 'any.only': '[SUNAT 2505] {#label} must be 02 (factura) or 03 (boleta) of catalog 12' })),
      serieNumero: Joi.string()
        .pattern(/^[FB][A-Z0-9]{3}-\d{1,8}$/)
        .required()
        .error(codes({ 'string.pattern.base': '[SUNAT 2521] {#label} must be the prepaid document as SERIE-NUMERO' })),
      /** What the customer paid in advance, taxes included. */
      monto: decimalSchema({ positive: true, maxDecimals: 2 }).required(),
      /** Taxable value of the prepayment; by default `monto` without the IGV at the document rate. */
      baseImponible: decimalSchema({ positive: true, maxDecimals: 2 }),
    }),
  ),
  documentoAfectado: Joi.object({
    tipoDoc: Joi.string().valid('01', '03').required().error(codes({ 'any.only': '[SUNAT 2116] {#label} must be 01 (factura) or 03 (boleta)' })),
    serieNumero: Joi.string()
      .pattern(/^[FB][A-Z0-9]{3}-\d{1,8}$/)
      .required()
      .error(codes({ 'string.pattern.base': '[SUNAT 2117] {#label} must be the modified document as SERIE-NUMERO (F001-123)' })),
  }),
  motivo: Joi.object({
    codigo: Joi.string().required(),
    descripcion: textSchema(250, { 'any.required': '[SUNAT 2136] {#label} (the reason in words) is required' }).required(),
  }),
  leyendas: Joi.array().items(
    Joi.object({
      codigo: Joi.string().pattern(/^\d{4}$/).required(),
      valor: textSchema(200).required(),
    }),
  ),
  /** Totals the integrator computed; each is checked against chasqui's own computation. */
  totales: Joi.object({
    gravadas: amountSchema,
    exoneradas: amountSchema,
    inafectas: amountSchema,
    exportacion: amountSchema,
    gratuitas: amountSchema,
    ivap: amountSchema,
    igv: amountSchema,
    isc: amountSchema,
    icbper: amountSchema,
    totalImpuestos: amountSchema,
    valorVenta: amountSchema,
    precioVenta: amountSchema,
    descuentos: amountSchema,
    cargos: amountSchema,
    anticipos: amountSchema,
    importeTotal: amountSchema,
  }),
});

export interface Adjustment {
  codigo: string;
  monto: Decimal;
}

export interface SaleItem {
  codigo?: string;
  codigoSunat?: string;
  descripcion: string;
  cantidad: Decimal;
  unidad: string;
  valorUnitario: Decimal;
  afectacionIgv: IgvAffectation;
  porcentajeIgv?: number;
  isc?: { sistema: (typeof ISC_SYSTEMS)[number]; tasa: Decimal; precioSugerido?: Decimal };
  icbper: boolean;
  descuentos?: Adjustment[];
  cargos?: Adjustment[];
}

export interface Instalment {
  monto: Decimal;
  fechaPago: string;
}

export type ClientTotals = Partial<Record<
  | 'gravadas' | 'exoneradas' | 'inafectas' | 'exportacion' | 'gratuitas' | 'ivap' | 'igv' | 'isc' | 'icbper'
  | 'totalImpuestos' | 'valorVenta' | 'precioVenta' | 'descuentos' | 'cargos' | 'anticipos' | 'importeTotal',
  Decimal
>>;

/** The payload after joi: defaults applied, amounts as Decimal. */
export interface SaleInput {
  tipoDoc: SaleDocType;
  serie: string;
  correlativo: string | number;
  fechaEmision: string;
  horaEmision?: string;
  fechaVencimiento?: string;
  tipoMoneda: Currency;
  tipoOperacion: string;
  formaPago?: 'Contado' | 'Credito' | { tipo: 'Contado' | 'Credito'; cuotas?: Instalment[] };
  emisor: Issuer;
  cliente: Customer;
  items: SaleItem[];
  descuentos?: Adjustment[];
  cargos?: Adjustment[];
  anticipos?: { tipoDoc: '02' | '03'; serieNumero: string; monto: Decimal; baseImponible?: Decimal }[];
  documentoAfectado?: { tipoDoc: '01' | '03'; serieNumero: string };
  motivo?: { codigo: string; descripcion: string };
  leyendas?: { codigo: string; valor: string }[];
  totales?: ClientTotals;
}
