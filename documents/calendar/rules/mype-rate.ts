/**
 * The special IGV rate of MYPE restaurants and hotels, step by step (documents/calendar/igv-rates.ts holds the rate
 * of each step). chasqui answers a rate not in force with 3103 where SUNAT's sheets answer 3291 and 3462.
 */
import { defineRule } from '../rule';
import { NOTE_LINE_RATE_ROWS, RATE_3103 } from './sources';

const SALES_TYPES = ['01', '03', '07', '08'] as const;

// Factura2_0 fields 46/47, ERROR: "por la tasa vigente al IGV (18.00 o 10.50) a la fecha de emisión … Dado que la
// tasa vigente del IGV es 10.5% y 18%"; every taxed line at "una tasa vigente". 8 % IGV + 2.5 % IPM (Ley 32387).
// The notes' rows: the total at "la tasa vigente … (18.00, 10.50 o 10.00)" (3291), and 4439 for 10 or 10.5 off the
// register.
export const MYPE_RATE_2026 = defineRule({
  id: 'mype-rate-2026',
  effective: '2026-01-01',
  docTypes: SALES_TYPES,
  summary:
    "Special IGV rate of MYPE restaurants and hotels on SUNAT's register (padrón, ind_padron 01): 10.5 " +
    '(8 IGV + 2.5 IPM) instead of 10; an issuer off the register is observed (4439)',
  source:
    'SUNAT Validacionesv20260212 Factura2_0 fields 46/47 (ERROR "tasa vigente … 18.00 o 10.50"; OBSERV 4439 ' +
    'ind_padron 01); Ley 32387 (IPM 2.5 in 2026), Ley 31556',
  confidence: 'sure',
  dated: 'Ley 32387 (IPM 2.5 % from 2026-01-01); SUNAT Validacionesv20260212 Factura2_0 fields 46/47',
  answers: {
    rate: {
      code: '3103',
      instead: RATE_3103,
      rows: [
        {
          file: 'Factura2_0',
          row: 313,
          code: '3291',
          severity: 'ERROR',
          condition: 'tasa vigente al IGV (18.00 o 10.50)',
        },
        { file: 'Factura2_0', row: 314, code: '3462', severity: 'ERROR', condition: 'diferente tasa de tributo' },
        { file: 'NotaCredito2_0', row: 298, code: '3291', severity: 'ERROR', condition: '(18.00, 10.50 o 10.00)' },
        { file: 'NotaDebito2_0', row: 296, code: '3291', severity: 'ERROR', condition: '(18.00, 10.50 o 10.00)' },
        ...NOTE_LINE_RATE_ROWS,
      ],
    },
    offRegister: {
      code: '4439',
      rows: [
        { file: 'Factura2_0', row: 315, severity: 'OBSERV', condition: 'es igual a 10.5, no existe ind_padron' },
        { file: 'NotaCredito2_0', row: 302, severity: 'OBSERV', condition: 'es igual a 10 o 10.5' },
        { file: 'NotaDebito2_0', row: 300, severity: 'OBSERV', condition: 'es igual a 10 o 10.5' },
      ],
    },
  },
});

export const MYPE_RATE_2027 = defineRule({
  id: 'mype-rate-2027',
  effective: '2027-01-01',
  docTypes: SALES_TYPES,
  summary: 'Special IGV rate of MYPE restaurants and hotels: 15 (12 IGV + 3 IPM) instead of 10.5',
  source:
    'Ley 31556 as extended (12 % IGV in 2027) and Ley 32387 (IPM 3 in 2027), as one secondary source adds them up; ' +
    'not yet in a SUNAT sheet',
  confidence: 'reported',
  dated: 'Ley 31556 as extended (12 % IGV in 2027) and Ley 32387 (IPM 3 % in 2027), added up by one secondary source',
  answers: {
    rate: {
      code: '3103',
      instead: RATE_3103,
      rows: [
        { file: 'revisions', row: 22, code: '3462', severity: 'ERROR', condition: '18.00 o 15.00' },
        ...NOTE_LINE_RATE_ROWS,
      ],
    },
  },
});

export const MYPE_RATE_END = defineRule({
  id: 'mype-rate-end',
  effective: '2028-01-01',
  docTypes: SALES_TYPES,
  summary: 'The special MYPE rate ends: 18 for everyone',
  source: 'Ley 31556, extended in December 2024 (reported as Ley 32219); larepublica.pe 2024-12-27, gestion.pe',
  confidence: 'sure',
  dated: 'Ley 31556 as extended in December 2024: the special rate ends on 2027-12-31',
  answers: {
    rate: {
      code: '3103',
      instead: RATE_3103,
      rows: [
        { file: 'revisions', row: 23, code: '3462', severity: 'ERROR', condition: 'fecha de emisión: 18.00' },
        ...NOTE_LINE_RATE_ROWS,
      ],
    },
  },
});
