/**
 * Where each dated rule comes from: the rows of SUNAT's validation sheets it applies (sunat/rules/, the workbook of
 * 2026-02-12 and `revisions` for what later revisions and SUNAT's GRE XSL add) and the source of its date. Data only:
 * test/documents/rule-citations.test.ts holds every citation against the carried sheets and the calendar (codes,
 * severity, condition, date, confidence), and `chasqui rules --json` shows it.
 */
import type { Confidence } from './rules';

export interface SheetRowCitation {
  /** A file of sunat/rules/ without `.csv`: a sheet (`Factura2_0`, …) or `revisions`. */
  file: string;
  row: number;
  code: string;
  severity: 'ERROR' | 'OBSERV';
  /** Words of the row's condition, as the sheet writes them. */
  condition: string;
}

export interface RuleCitation {
  rows: readonly SheetRowCitation[];
  /** Where the rule's date comes from. */
  date: string;
  /** sure: SUNAT's own files or the law; reported: an implementer's reading of SUNAT's changes. */
  reading: Confidence;
  /** Codes chasqui answers with that no cited row carries, each with why. */
  divergences?: Readonly<Record<string, string>>;
}

const PRODUCT_CODE_FORMAT = 'Si el tag existe, el formato del Tag UBL es diferente a numérico de 8 dígitos';
const PRODUCT_CODE_LIST =
  "Si el tag existe, el valor del Tag UBL es diferente de 8 ceros ('00000000') y diferente de 8 nueves ('99999999'), y no se encuentra en el listado";
const REVISION_2026 =
  "SUNAT 'Reglas de validación' 2026-04-24 (Control de Cambios), moved to 2027-01-01 by the revision of 2026-07-24, as eriquegasparcarlos/esolutions-xml reads them (docs/sunat-changes-2026-08.md)";
const RATE_3103 =
  'chasqui answers a rate not in force on the issue date with 3103; the sheet checks the IGV total against "la tasa vigente" (3291) and the lines\' rate (3462), which is what SUNAT itself answers';

/**
 * The notes' rows of the IGV rate (fields 46/47 of NotaCredito2_0 and NotaDebito2_0): the total at "la tasa vigente
 * … (18.00, 10.50 o 10.00)" (3291), every taxed line at one rate "que corresponda con una tasa vigente" (3462), and
 * 4439 for 10 or 10.5 off the register. The notes' sheets name 10 beside 10.5 because a note takes the rate of the
 * document it modifies.
 */
const NOTE_RATE_ROWS: readonly SheetRowCitation[] = [
  { file: 'NotaCredito2_0', row: 298, code: '3291', severity: 'ERROR', condition: '(18.00, 10.50 o 10.00)' },
  { file: 'NotaCredito2_0', row: 301, code: '3462', severity: 'ERROR', condition: 'diferente tasa de tributo' },
  { file: 'NotaCredito2_0', row: 302, code: '4439', severity: 'OBSERV', condition: 'es igual a 10 o 10.5' },
  { file: 'NotaDebito2_0', row: 296, code: '3291', severity: 'ERROR', condition: '(18.00, 10.50 o 10.00)' },
  { file: 'NotaDebito2_0', row: 299, code: '3462', severity: 'ERROR', condition: 'diferente tasa de tributo' },
  { file: 'NotaDebito2_0', row: 300, code: '4439', severity: 'OBSERV', condition: 'es igual a 10 o 10.5' },
];

/** By rule id (documents/calendar/rules.ts). */
export const CITATIONS: Readonly<Record<string, RuleCitation>> = {
  'summary-igv-percent': {
    rows: [{ file: 'revisions', row: 20, code: '2992', severity: 'ERROR', condition: "'Código de tributo' es '1000'" }],
    date: 'greenter issue #266 and discussion #265: a real ticket answered 2992 in February 2026',
    reading: 'reported',
  },
  'gre-loading-date': {
    rows: [
      { file: 'revisions', row: 1, code: '3617', severity: 'ERROR', condition: "modalidad de traslado es '01'" },
      { file: 'revisions', row: 2, code: '3619', severity: 'ERROR', condition: 'diferente de YYYY-MM-DD' },
      { file: 'revisions', row: 3, code: '3618', severity: 'ERROR', condition: 'menor a la fecha de emisión' },
    ],
    date: 'first refusals in production on 2026-06-01: greenter issue #269, lycet issue #650, greenter PR #272',
    reading: 'sure',
  },
  'product-code-valid': {
    rows: [
      { file: 'NotaCredito2_0', row: 127, code: '3496', severity: 'OBSERV', condition: PRODUCT_CODE_FORMAT },
      { file: 'NotaCredito2_0', row: 128, code: '3496', severity: 'OBSERV', condition: PRODUCT_CODE_LIST },
      {
        file: 'NotaCredito2_0',
        row: 129,
        code: '4332',
        severity: 'OBSERV',
        condition: 'no se encuentra en el listado',
      },
      { file: 'NotaDebito2_0', row: 119, code: '3496', severity: 'OBSERV', condition: PRODUCT_CODE_FORMAT },
      { file: 'NotaDebito2_0', row: 120, code: '3496', severity: 'OBSERV', condition: PRODUCT_CODE_LIST },
      { file: 'Factura2_0', row: 119, code: '3496', severity: 'OBSERV', condition: PRODUCT_CODE_FORMAT },
      { file: 'Factura2_0', row: 120, code: '3496', severity: 'OBSERV', condition: PRODUCT_CODE_LIST },
      { file: 'Factura2_0', row: 122, code: '4337', severity: 'OBSERV', condition: "termina en 6 ceros ('000000')" },
      { file: 'revisions', row: 6, code: '3496', severity: 'ERROR', condition: PRODUCT_CODE_FORMAT },
      { file: 'revisions', row: 7, code: '3496', severity: 'ERROR', condition: PRODUCT_CODE_LIST },
    ],
    date: REVISION_2026,
    reading: 'reported',
  },
  'summary-v2': {
    rows: [
      { file: 'revisions', row: 15, code: '2256', severity: 'ERROR', condition: "'06' (gravadas)" },
      { file: 'revisions', row: 16, code: '2992', severity: 'ERROR', condition: 'no existe el Tag UBL' },
      { file: 'revisions', row: 17, code: '3504', severity: 'ERROR', condition: 'no es una tasa vigente' },
      { file: 'revisions', row: 18, code: '3102', severity: 'ERROR', condition: 'decimal positivo' },
      { file: 'revisions', row: 19, code: '2022', severity: 'ERROR', condition: 'alfanumérico de 3 hasta 1000' },
    ],
    date: REVISION_2026,
    reading: 'reported',
  },
  'debit-note-13': {
    rows: [
      { file: 'revisions', row: 9, code: '2524', severity: 'ERROR', condition: "diferente de '13'" },
      { file: 'revisions', row: 10, code: '3507', severity: 'ERROR', condition: 'no es inafecta' },
      { file: 'revisions', row: 11, code: '3194', severity: 'ERROR', condition: 'Si existe más de un tag' },
    ],
    date: REVISION_2026,
    reading: 'reported',
  },
  'credit-note-ceiling': {
    rows: [
      { file: 'revisions', row: 12, code: '3261', severity: 'ERROR', condition: 'más de un tag' },
      { file: 'revisions', row: 13, code: '3503', severity: 'ERROR', condition: "modifica' es '03'" },
      { file: 'revisions', row: 14, code: '3286', severity: 'ERROR', condition: "modifica' es '01'" },
      { file: 'NotaCredito2_0', row: 85, code: '3286', severity: 'ERROR', condition: "diferente de '10'" },
      { file: 'NotaCredito2_0', row: 86, code: '4028', severity: 'OBSERV', condition: "modifica' es '03'" },
    ],
    date: REVISION_2026,
    reading: 'reported',
  },
  'mype-rate-2026': {
    rows: [
      {
        file: 'Factura2_0',
        row: 313,
        code: '3291',
        severity: 'ERROR',
        condition: 'tasa vigente al IGV (18.00 o 10.50)',
      },
      { file: 'Factura2_0', row: 314, code: '3462', severity: 'ERROR', condition: 'diferente tasa de tributo' },
      {
        file: 'Factura2_0',
        row: 315,
        code: '4439',
        severity: 'OBSERV',
        condition: 'es igual a 10.5, no existe ind_padron',
      },
      ...NOTE_RATE_ROWS,
    ],
    date: 'Ley 32387 (IPM 2.5 % from 2026-01-01); SUNAT Validacionesv20260212 Factura2_0 fields 46/47',
    reading: 'sure',
    divergences: { '3103': RATE_3103 },
  },
  'mype-rate-2027': {
    rows: [
      { file: 'revisions', row: 22, code: '3462', severity: 'ERROR', condition: '18.00 o 15.00' },
      ...NOTE_RATE_ROWS.filter((r) => r.code === '3462'),
    ],
    date: 'Ley 31556 as extended (12 % IGV in 2027) and Ley 32387 (IPM 3 % in 2027), added up by one secondary source',
    reading: 'reported',
    divergences: { '3103': RATE_3103 },
  },
  'mype-rate-end': {
    rows: [
      { file: 'revisions', row: 23, code: '3462', severity: 'ERROR', condition: 'fecha de emisión: 18.00' },
      ...NOTE_RATE_ROWS.filter((r) => r.code === '3462'),
    ],
    date: 'Ley 31556 as extended in December 2024: the special rate ends on 2027-12-31',
    reading: 'sure',
    divergences: { '3103': RATE_3103 },
  },
  'detraction-codes-2026': {
    rows: [
      { file: 'Factura2_0', row: 492, code: '3033', severity: 'ERROR', condition: 'diferente al listado' },
      { file: 'NotaDebito2_0', row: 404, code: '3033', severity: 'ERROR', condition: 'diferente al listado' },
      { file: 'revisions', row: 21, code: '3033', severity: 'ERROR', condition: "'038', '042', '043', '046' y '047'" },
    ],
    date: 'reported by one implementer, unverified (sunat/SOURCES.md, Rules after June 2024)',
    reading: 'reported',
  },
};
