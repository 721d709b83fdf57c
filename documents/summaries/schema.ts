/**
 * Summaries: `rc` (resumen diario of boletas and their notes, condition 1 add / 2 modify / 3 void), `ra` (comunicación
 * de baja of facturas and their notes) and `rr` (resumen de reversiones of retention, perception and liquidación docs).
 */
import Joi from 'joi';
import { amountSchema, codes, correlativoSchema, currencySchema, dateSchema } from '../input/fields';
import { identityFields, issuerSchema, textSchema } from '../input/parties';
import type { Decimal } from '../decimal';
import type { Currency } from '../input/fields';
import type { Issuer } from '../input/parties';

export const SUMMARY_DOC_TYPES = ['rc', 'ra', 'rr'] as const;
export type SummaryDocType = (typeof SUMMARY_DOC_TYPES)[number];

const serieNumero = (messageCode: string) =>
  Joi.string()
    .pattern(/^[A-Z0-9]{4}-\d{1,8}$/)
    .required()
    .error(codes({ 'string.pattern.base': `[SUNAT ${messageCode}] {#label} must be SERIE-NUMERO (B001-123)` }));

const header = {
  correlativo: correlativoSchema(
    5,
    "[SUNAT 1001] 'correlativo' must be the summary's sequence of the day, 1 to 99999: a string of 1 to 5 digits or a JSON integer, not zero",
  ).required(),
  /** Date the summary is generated (its IssueDate and the date in its ID). */
  fechaEmision: dateSchema.required(),
  /** Issue date of the documents it lists (ReferenceDate). */
  fechaReferencia: dateSchema.required(),
  emisor: issuerSchema.required(),
};

const rcLineTotals = Joi.object({
  gravadas: amountSchema,
  exoneradas: amountSchema,
  inafectas: amountSchema,
  exportacion: amountSchema,
  /** Free operations in one amount (InstructionID 05), for summaries of documents dated before `summary-v2`. */
  gratuitas: amountSchema,
  /** Free operations split as summary-v2 reports them (InstructionID 06–09); folded into 05 before that date. */
  gratuitasGravadas: amountSchema,
  gratuitasExoneradas: amountSchema,
  gratuitasInafectas: amountSchema,
  gratuitasExportacion: amountSchema,
  /** The IGV of the free taxed operations (tax 9996), written from `summary-v2`. */
  igvGratuitas: amountSchema,
  igv: amountSchema,
  isc: amountSchema,
  icbper: amountSchema,
  otrosTributos: amountSchema,
  otrosCargos: amountSchema,
  importeTotal: amountSchema,
}).required();

/** The most lines a daily summary carries (SummaryDocumentsLine), JSON or signed XML alike. */
export const MAX_SUMMARY_LINES = 500;

export const rcSchema = Joi.object({
  tipoDoc: Joi.string().valid('rc').required(),
  ...header,
  tipoMoneda: currencySchema.default('PEN'),
  items: Joi.array()
    .items(
      Joi.object({
        tipoDoc: Joi.string()
          .valid('03', '07', '08')
          .required()
          .error(codes({ 'any.only': '[SUNAT 2308] {#label} must be 03, 07 or 08 (boletas and their notes)' })),
        serieNumero: serieNumero('2512'),
        estado: Joi.string()
          .valid('1', '2', '3')
          .required()
          .error(codes({ 'any.only': '[SUNAT 2896] {#label} must be 1 (add), 2 (modify) or 3 (void) of catalog 19' })),
        /** `nombre` (the buyer's name) is written from `summary-v2`, and judged there when given (2022). */
        cliente: Joi.object({
          ...identityFields,
          nombre: textSchema(1500, { 'string.max': '[SUNAT 2022] {#label} must be at most 1500 characters' }),
        }),
        /** The IGV rate of the line's document (cbc:Percent of its IGV category); 18 when not given. */
        porcentajeIgv: Joi.number()
          .greater(0)
          .max(100)
          .error(
            codes(
              Object.fromEntries(
                ['number.base', 'number.greater', 'number.max'].map((code) => [
                  code,
                  "[SUNAT 3103] {#label} must be 18, the special rate of the documents' date or 4 (IVAP)",
                ]),
              ),
            ),
          ),
        documentoAfectado: Joi.object({
          tipoDoc: Joi.string()
            .valid('03')
            .required()
            .error(codes({ 'any.only': '[SUNAT 2399] {#label}: a note in a daily summary modifies a boleta (03)' })),
          serieNumero: serieNumero('2117'),
        }),
        totales: rcLineTotals,
      }),
    )
    .min(1)
    .max(MAX_SUMMARY_LINES)
    .required(),
});

export const voidedSchema = Joi.object({
  tipoDoc: Joi.string().valid('ra', 'rr').required(),
  ...header,
  items: Joi.array()
    .items(
      Joi.object({
        tipoDoc: Joi.string().required(),
        serieNumero: serieNumero('2310'),
        motivo: textSchema(100).required(),
      }),
    )
    .min(1)
    .required(),
});

export interface RcTotals {
  gravadas?: Decimal;
  exoneradas?: Decimal;
  inafectas?: Decimal;
  exportacion?: Decimal;
  gratuitas?: Decimal;
  gratuitasGravadas?: Decimal;
  gratuitasExoneradas?: Decimal;
  gratuitasInafectas?: Decimal;
  gratuitasExportacion?: Decimal;
  igvGratuitas?: Decimal;
  igv?: Decimal;
  isc?: Decimal;
  icbper?: Decimal;
  otrosTributos?: Decimal;
  otrosCargos?: Decimal;
  importeTotal?: Decimal;
}

export interface RcLine {
  tipoDoc: '03' | '07' | '08';
  serieNumero: string;
  estado: '1' | '2' | '3';
  cliente?: { tipoDoc: string; numDoc: string; nombre?: string };
  porcentajeIgv?: number;
  documentoAfectado?: { tipoDoc: '03'; serieNumero: string };
  totales: RcTotals;
}

interface SummaryHeader {
  correlativo: string | number;
  fechaEmision: string;
  fechaReferencia: string;
  emisor: Issuer;
}

export interface RcInput extends SummaryHeader {
  tipoDoc: 'rc';
  tipoMoneda: Currency;
  items: RcLine[];
}

export interface VoidedInput extends SummaryHeader {
  tipoDoc: 'ra' | 'rr';
  items: { tipoDoc: string; serieNumero: string; motivo: string }[];
}
