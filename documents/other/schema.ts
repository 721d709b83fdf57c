/**
 * The "otros CPE": comprobante de retención (20) and comprobante de percepción (40). Both list payments of earlier
 * documents and the amount withheld (retención: the buyer, a retention agent, keeps part of what it pays its supplier)
 * or collected on top (percepción: the seller, a perception agent, charges its customer more), at the rate of a
 * regime. SUNAT's schemas UBLPE-Retention-1.0 / UBLPE-Perception-1.0 and rules ValidaExprRegRetencion-1.0.3 /
 * ValidaExprRegPercepcion-1.0.2.
 */
import Joi from 'joi';
import { amountSchema, codes, currencySchema, dateField, dateSchema, decimalSchema, timeSchema } from '../input/fields';
import { identityFields, issuerSchema, textSchema, type Customer, type Issuer } from '../input/parties';
import type { Decimal } from '../decimal';
import type { Currency } from '../input/fields';

export type OtherDocType = '20' | '40';

/** Catalog 23 (retention regimes) and 22 (perception regimes): code → rate in percent. */
export const REGIMES: Readonly<Record<OtherDocType, Readonly<Record<string, string>>>> = {
  '20': { '01': '3', '02': '6' },
  '40': { '01': '2', '02': '1', '03': '0.5' },
};

/**
 * Documents a line may list: retención (SUNAT 2692) 01 factura, 07 nota de crédito, 08 nota de débito, 12 ticket;
 * percepción adds 03 boleta. A credit note is listed without payment: it reduces what its document owes, and SUNAT
 * leaves its lines out of the totals.
 */
const PAID_TYPES: Readonly<Record<OtherDocType, readonly string[]>> = {
  '20': ['01', '07', '08', '12'],
  '40': ['01', '03', '07', '08', '12'],
};
export const CREDIT_NOTE = '07';

/** The most documents a retención or percepción lists, JSON or signed XML alike. */
export const MAX_OTHER_LINES = 500;

/** Series of a paid document as SUNAT's XSL accepts them (electronic F/B, printed 4 digits, E001/EB01 issued in SOL). */
const PAID_SERIES: Readonly<Record<OtherDocType, RegExp>> = {
  '20': /^(E001|[FR][A-Z0-9]{3}|\d{4})-(?!0+$)\d{1,8}$/,
  '40': /^(E001|EB01|[FBP][A-Z0-9]{3}|\d{4})-(?!0+$)\d{1,8}$/,
};

const creditNoteForbidden = Joi.forbidden().error(
  codes({ 'any.unknown': '{#label} is not allowed: a credit note (07) is listed without payment' }),
);

function lineSchema(type: OtherDocType) {
  const paid = type === '20' ? 'pago' : 'cobro';
  return Joi.object({
    documento: Joi.object({
      tipoDoc: Joi.string()
        .valid(...PAID_TYPES[type])
        .required()
        .error(
          codes({ 'any.only': `[SUNAT 2692] {#label} must be one of ${PAID_TYPES[type].join(', ')} (catalog 01)` }),
        ),
      serieNumero: Joi.string()
        .pattern(PAID_SERIES[type])
        .required()
        .error(
          codes({
            'string.pattern.base': '[SUNAT 2694] {#label} must be the paid document as SERIE-NUMERO (F001-123)',
          }),
        ),
      fechaEmision: dateSchema.required(),
      tipoMoneda: currencySchema.required(),
      /** The paid document's total, in its currency. */
      importeTotal: decimalSchema(
        { positive: true, maxDecimals: 2 },
        { 'decimal.positive': '[SUNAT 2696] {#label} must be greater than 0' },
      ).required(),
    }).required(),
    [paid]: Joi.object({
      /** The payment's number among the payments of that document (1, 2, …). */
      numero: Joi.number().integer().min(1).max(999999999).default(1),
      fecha: dateField({ 'any.required': '[SUNAT 2737] {#label} is required' }).required(),
      /** What was paid (retención) or collected (percepción), in the document's currency. */
      importe: decimalSchema(
        { positive: true, maxDecimals: 2 },
        { 'decimal.positive': '[SUNAT 2736] {#label} must be greater than 0' },
      ).required(),
    }).when('documento.tipoDoc', { is: CREDIT_NOTE, then: creditNoteForbidden, otherwise: Joi.required() }),
    /** Exchange rate of the payment date, required when the document is not in soles. */
    tipoCambio: Joi.object({
      factor: decimalSchema(
        { positive: true, maxDecimals: 6 },
        { 'decimal.positive': '[SUNAT 2716] {#label} must be greater than 0' },
      ).required(),
      fecha: dateSchema.required(),
    }).when('documento.tipoDoc', { is: CREDIT_NOTE, then: creditNoteForbidden }),
  });
}

function otherSchema(type: OtherDocType) {
  const party = type === '20' ? 'proveedor' : 'cliente';
  const regimes = Object.entries(REGIMES[type])
    .map(([c, r]) => `${c} (${r} %)`)
    .join(', ');
  return Joi.object({
    tipoDoc: Joi.string().valid(type).required(),
    serie: Joi.string()
      .pattern(type === '20' ? /^R[A-Z0-9]{3}$/ : /^P[A-Z0-9]{3}$/)
      .required()
      .error(
        codes({
          'string.pattern.base': `[SUNAT 1001] {#label} must be ${type === '20' ? 'R' : 'P'} and 3 letters or digits`,
        }),
      ),
    correlativo: Joi.alternatives(Joi.string().pattern(/^\d{1,8}$/), Joi.number().integer().min(1).max(99999999))
      .required()
      .error(codes({ 'alternatives.match': '[SUNAT 1001] {#label} must be a number of 1 to 8 digits' })),
    fechaEmision: dateSchema.required(),
    horaEmision: timeSchema,
    emisor: issuerSchema.required(),
    [party]: Joi.object({
      ...identityFields,
      nombre: textSchema(1500, { 'any.required': '[SUNAT 2134] {#label} is required' }).required(),
    }).required(),
    regimen: Joi.string()
      .valid(...Object.keys(REGIMES[type]))
      .required()
      .error(
        codes({
          'any.only': `[SUNAT ${type === '20' ? '2618' : '2602'}] {#label} must be a regime of catalog ${type === '20' ? '23' : '22'}: ${regimes}`,
        }),
      ),
    observacion: textSchema(250),
    items: Joi.array().items(lineSchema(type)).min(1).max(MAX_OTHER_LINES).required(),
    /** Totals the integrator computed, checked against chasqui's to the cent. */
    totales: Joi.object({ importe: amountSchema, neto: amountSchema }),
  });
}

export const retentionSchema = otherSchema('20');
export const perceptionSchema = otherSchema('40');

export interface OtherLine {
  documento: {
    tipoDoc: string;
    serieNumero: string;
    fechaEmision: string;
    tipoMoneda: Currency;
    importeTotal: Decimal;
  };
  pago?: { numero: number; fecha: string; importe: Decimal };
  cobro?: { numero: number; fecha: string; importe: Decimal };
  tipoCambio?: { factor: Decimal; fecha: string };
}

/** A validated 20 or 40 payload. */
export interface OtherInput {
  tipoDoc: OtherDocType;
  serie: string;
  correlativo: string | number;
  fechaEmision: string;
  horaEmision?: string;
  emisor: Issuer;
  proveedor?: Pick<Customer, 'tipoDoc' | 'numDoc' | 'nombre'>;
  cliente?: Pick<Customer, 'tipoDoc' | 'numDoc' | 'nombre'>;
  regimen: string;
  observacion?: string;
  items: OtherLine[];
  totales?: { importe?: Decimal; neto?: Decimal };
}
