/** Tax schemes and rates of catalogs 05 and 07; the dated ones (IGV's special rate, ICBPER) are the calendar's. */
import { GENERAL_IGV_RATE } from '../calendar/igv-rates';
import type { IgvAffectation } from '../sales/types';

/** Catalog 05: the tax scheme a line subtotal belongs to, with its UBL name and type code. */
export const TAX_SCHEMES = {
  '1000': { name: 'IGV', typeCode: 'VAT' },
  '1016': { name: 'IVAP', typeCode: 'VAT' },
  '2000': { name: 'ISC', typeCode: 'EXC' },
  '3000': { name: 'IR', typeCode: 'TOX' },
  '7152': { name: 'ICBPER', typeCode: 'OTH' },
  '9995': { name: 'EXP', typeCode: 'FRE' },
  '9996': { name: 'GRA', typeCode: 'FRE' },
  '9997': { name: 'EXO', typeCode: 'VAT' },
  '9998': { name: 'INA', typeCode: 'FRE' },
} as const;
export type TaxSchemeId = keyof typeof TAX_SCHEMES;

/** How a catalog 07 code is taxed. `free` lines are transfers without payment (outside the payable total). */
export interface Affectation {
  scheme: TaxSchemeId;
  /** UN/ECE 5305 tax category of the line. */
  category: 'S' | 'E' | 'O' | 'G';
  free: boolean;
  /** Whether IGV (or IVAP) is computed on the line. */
  taxed: boolean;
  /** Total bucket of the summary totals. */
  bucket: 'gravadas' | 'ivap' | 'exoneradas' | 'inafectas' | 'exportacion' | 'gratuitas';
}

export function affectationOf(code: IgvAffectation): Affectation {
  const n = Number(code);
  if (code === '10') return { scheme: '1000', category: 'S', free: false, taxed: true, bucket: 'gravadas' };
  if (n >= 11 && n <= 16) return { scheme: '9996', category: 'S', free: true, taxed: true, bucket: 'gratuitas' };
  if (code === '17') return { scheme: '1016', category: 'S', free: false, taxed: true, bucket: 'ivap' };
  if (code === '20') return { scheme: '9997', category: 'E', free: false, taxed: false, bucket: 'exoneradas' };
  if (code === '21') return { scheme: '9996', category: 'E', free: true, taxed: false, bucket: 'gratuitas' };
  if (code === '30') return { scheme: '9998', category: 'O', free: false, taxed: false, bucket: 'inafectas' };
  if (code === '40') return { scheme: '9995', category: 'G', free: false, taxed: false, bucket: 'exportacion' };
  return { scheme: '9996', category: 'O', free: true, taxed: false, bucket: 'gratuitas' };
}

/** The general IGV rate; the special rate of MYPE restaurants and hotels is the calendar's (igvRates of a date). */
export const IGV_RATE = GENERAL_IGV_RATE;
export const IVAP_RATE = 4;

/** A line's IGV or IVAP percent: IVAP's for 17, its own (else the general) when taxed, 0 when exonerated or unaffected. */
export function lineTaxRate(code: IgvAffectation, porcentajeIgv?: number): number {
  return code === '17' ? IVAP_RATE : affectationOf(code).taxed ? (porcentajeIgv ?? IGV_RATE) : 0;
}

/** ICBPER per bag by the issue date: the calendar's (documents/calendar/icbper.ts). */
export { icbperRate } from '../calendar/icbper';
