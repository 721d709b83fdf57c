/**
 * The IGV rates by issue date, as data: the one table the sales rules, the totals (through the rate they accept), the
 * XML, the printed document, the simulator and `chasqui validate` read. Dates are the calendar rules' (moved by
 * CHASQUI_RULE_DATES, a reported one switched off with `id=off`); the special rate of each step is set by
 * CHASQUI_IGV_RATES, so a law that changes it needs no release.
 *
 * SUNAT Validacionesv20260212, Factura2_0 fields 46/47 (and the same rows of Boleta2_0): ERROR "por la tasa vigente al
 * IGV (18.00 o 10.50) a la fecha de emisión … Dado que la tasa vigente
 * del IGV es 10.5% y 18%"; ERROR "Todas las líneas afectas al IGV deben tener la misma tasa vigente"; OBSERV 4439 "Si
 * la Tasa del IGV … es igual a 10.5, no existe ind_padron igual a '01' … para el Número de RUC del Emisor".
 * The general rate stays 18 while Ley 32387 moves points of it to the municipal tax (IPM 2.5 in 2026, +0.5 a year).
 * A credit or debit note may also carry the rate of the document it modifies: NotaCredito2_0 row 298 and
 * NotaDebito2_0 row 296, ERROR 3291 "la tasa vigente al IGV a la fecha de emisión (18.00, 10.50 o 10.00) … Dado que la
 * tasa del IGV del 'Documento que se modifica' es 10%, 10.5% o 18%"; their 4439 rows observe "10 o 10.5". The sheets
 * are silent on 2027: a note then keeps every earlier special rate, as a note of January 2027 on a December 2026
 * invoice needs.
 */
import { MYPE_RATE_2026, MYPE_RATE_2027, MYPE_RATE_END, type RuleId } from './rules';

/** A step of the special rate: a calendar rule's id, the key CHASQUI_IGV_RATES sets its value with. */
export type SpecialRateRule = (typeof SPECIAL_RATE_STEPS)[number];

/** The special rate of each step, as SUNAT writes it (cbc:Percent 10.50); null: no special rate from that step. */
export type IgvRates = Record<SpecialRateRule, number | null>;

/** The general rate: IGV + IPM together, 18 by law whatever the split (Ley 32387), so not a setting. */
export const GENERAL_IGV_RATE = 18;

export const DEFAULT_IGV_RATES: Readonly<IgvRates> = {
  [MYPE_RATE_2026.id]: 10.5,
  [MYPE_RATE_2027.id]: 15,
  [MYPE_RATE_END.id]: null,
};

/** The special rate before its first step (Ley 31556: 8 % IGV + 2 % IPM); history, not settable. */
export const SPECIAL_RATE_BEFORE_2026 = 10;

/** The steps of the special rate, in date order; each applies from its rule's date (documents/calendar/rules/mype-rate.ts). */
export const SPECIAL_RATE_STEPS = [MYPE_RATE_2026.id, MYPE_RATE_2027.id, MYPE_RATE_END.id] as const;

/** The rule of the special rate as a whole: the document types it applies to, what a rate refusal names before its first step. */
export const SPECIAL_RATE_RULE: SpecialRateRule = SPECIAL_RATE_STEPS[0];

export class IgvRatesError extends Error {}

const RATE = /^\d{1,2}(\.\d{1,2})?$/;

/**
 * Parses `mype-rate-2027=14,mype-rate-end=none` (CHASQUI_IGV_RATES): the special rate of a step, a percent with at
 * most two decimals, above 0 and below 100, or `none`. Throws naming the key or the value, so a typo stops start-up.
 */
export function parseIgvRates(text: string): Partial<IgvRates> {
  const rates: Partial<IgvRates> = {};
  const keys = Object.keys(DEFAULT_IGV_RATES) as SpecialRateRule[];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim() as SpecialRateRule;
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (!keys.includes(key)) throw new IgvRatesError(`unknown rate '${key}' (known: ${keys.join(', ')})`);
    if (value === 'none') rates[key] = null;
    else if (RATE.test(value) && Number(value) > 0) rates[key] = Number(value);
    else
      throw new IgvRatesError(
        `rate '${key}' needs a percent such as 10.5 (two decimals at most) or none, got '${value}'`,
      );
  }
  return rates;
}

/** What a document of one date (and type) may carry: the general rate and the special rate in force (null when none). */
export interface RatesOn {
  general: number;
  special: number | null;
  /** The step that set `special` (null before the first), for messages. */
  step: RuleId | null;
  /** A note's: the special rates of earlier dates, those of the documents it may modify; empty for other types. */
  earlier: readonly number[];
}

/** Document types that carry the rate of the document they modify (credit and debit notes). */
export const NOTE_TYPES: readonly string[] = ['07', '08'];

/** The rates a document of that date may carry (3103): the general one, the special one in force, a note's earlier ones. */
export function allowedRates(rates: RatesOn): number[] {
  return [rates.general, ...(rates.special === null ? [] : [rates.special]), ...rates.earlier];
}

/** The special rates of that date a line may carry, each observed from an issuer off SUNAT's register (4439). */
export function specialRates(rates: RatesOn): number[] {
  return allowedRates(rates).filter((rate) => rate !== rates.general);
}

/** Whether `rate` (a number, or a cbc:Percent's text) is one of them. */
export function isAllowedRate(rate: number | string, rates: RatesOn): boolean {
  if (typeof rate === 'string' && !/^\d+(\.\d+)?$/.test(rate)) return false;
  return allowedRates(rates).includes(Number(rate));
}

/** The rates in words, for 3103: `18, or 10.5 (the special rate of MYPE restaurants and hotels)`. */
export function ratesText(rates: RatesOn): string {
  const text =
    rates.special === null
      ? `${rates.general} (the special rate of MYPE restaurants and hotels has ended)`
      : `${rates.general}, or ${rates.special} (the special rate of MYPE restaurants and hotels)`;
  return rates.earlier.length
    ? `${text}, or ${rates.earlier.join(' or ')} (an earlier special rate, that of the document the note modifies)`
    : text;
}
