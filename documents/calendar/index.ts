/**
 * The rule calendar: the one question every consumer (validation, builders, the printed document, the simulator,
 * `chasqui validate`, the company checks) asks about SUNAT's dated rules: is rule X in force for a document issued
 * on date D? Pure: the dates come from RULES, moved by the overrides it is given (CHASQUI_RULE_DATES, read by
 * core/config).
 */
import type { DocType } from '../doc-type';
import {
  DEFAULT_IGV_RATES,
  GENERAL_IGV_RATE,
  NOTE_TYPES,
  SPECIAL_RATE_BEFORE_2026,
  SPECIAL_RATE_STEPS,
  type IgvRates,
  type RatesOn,
} from './igv-rates';
import { shippedProductCodes, type ProductCodeListing } from './product-codes';
import { RULES, type RuleDefinition, type RuleId } from './rules';

export * from './rules';
export { citationOf, type Confidence, type DatedRule, type RuleAnswer, type RuleCitation } from './rule';
export {
  allowedRates,
  DEFAULT_IGV_RATES,
  GENERAL_IGV_RATE,
  IgvRatesError,
  isAllowedRate,
  NOTE_TYPES,
  parseIgvRates,
  ratesText,
  SPECIAL_RATE_RULE,
  specialRates,
  SPECIAL_RATE_STEPS,
  type IgvRates,
  type RatesOn,
} from './igv-rates';
export {
  isProductCodeListed,
  parseProductCodes,
  productCodeProblems,
  ProductCodesError,
  shippedProductCodes,
  type ProductCodeListing,
  type ProductCodeProblem,
} from './product-codes';

/** `off`: a reported rule the operator switched off (CHASQUI_RULE_DATES `id=off`); it judges no document. */
export type RuleStatus = 'in force' | 'upcoming' | 'off';

/** A rule as this calendar has it: its effective date (moved or not) and whether it is switched off. */
export interface CalendarRule extends RuleDefinition {
  off: boolean;
}

/** A rule's override: a new date, or `off`. */
export type RuleOverride = string;

export class RuleDatesError extends Error {}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2027-02-30 is not). */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

/**
 * How many days after the day SUNAT receives it a document may be dated: ERROR 2329 "mayor a dos días de la fecha de
 * envío" (Factura2_0 row 14, NotaCredito2_0 and NotaDebito2_0 row 16, the boleta's and the guide's XSL).
 */
export const ISSUE_DATE_LEAD_DAYS = 2;

/** `date` moved by `days` calendar days (dates are Lima dates; no time zone enters). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (both YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function isRuleId(id: string): id is RuleId {
  return RULES.some((rule) => rule.id === id);
}

/**
 * Parses `id=YYYY-MM-DD,id=off` (CHASQUI_RULE_DATES). Throws RuleDatesError naming the unknown id, the bad date, or a
 * rule read in SUNAT's own files (confidence sure) switched off: such a rule is moved, not ignored. So a typo stops
 * start-up instead of leaving a rule on its old date.
 */
export function parseRuleDates(text: string): Partial<Record<RuleId, RuleOverride>> {
  const dates: Partial<Record<RuleId, RuleOverride>> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const id = (eq < 0 ? part : part.slice(0, eq)).trim();
    const date = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (id === 'product-code-required')
      throw new RuleDatesError(
        "rule 'product-code-required' is now 'product-code-valid': SUNAT judges a product code only when a line has one",
      );
    if (!isRuleId(id)) throw new RuleDatesError(`unknown rule '${id}' (known: ${RULES.map((r) => r.id).join(', ')})`);
    const reported = RULES.find((r) => r.id === id)!.confidence === 'reported';
    if (date === 'off' && !reported)
      throw new RuleDatesError(
        `rule '${id}' is read in SUNAT's own files or the law (confidence sure): move its date instead of switching it off`,
      );
    if (date !== 'off' && !isCalendarDate(date))
      throw new RuleDatesError(`rule '${id}' needs a date YYYY-MM-DD${reported ? ' or off' : ''}, got '${date}'`);
    dates[id] = date;
  }
  return dates;
}

export class RuleCalendar {
  private readonly byId: ReadonlyMap<RuleId, CalendarRule>;
  readonly rates: Readonly<IgvRates>;

  /**
   * `overrides`: CHASQUI_RULE_DATES parsed; `rates`: CHASQUI_IGV_RATES parsed, over DEFAULT_IGV_RATES;
   * `productCodes`: the operator's catalog 25 (CHASQUI_PRODUCT_CODES), else the one chasqui carries.
   */
  constructor(
    readonly overrides: Partial<Record<RuleId, RuleOverride>> = {},
    rates: Partial<IgvRates> = {},
    readonly productCodes?: ProductCodeListing,
  ) {
    this.byId = new Map(
      RULES.map((rule) => {
        const override = overrides[rule.id];
        const off = override === 'off';
        return [rule.id, { ...rule, effective: override && !off ? override : rule.effective, off }];
      }),
    );
    this.rates = { ...DEFAULT_IGV_RATES, ...rates };
  }

  /** Catalog 25 as this calendar judges product codes with (read on first use when it is the one carried). */
  productCodeListing(): ProductCodeListing {
    return this.productCodes ?? shippedProductCodes();
  }

  /** Every rule with its effective date as this calendar has it, earliest first. */
  list(): CalendarRule[] {
    return [...this.byId.values()].sort((a, b) => a.effective.localeCompare(b.effective) || a.id.localeCompare(b.id));
  }

  rule(id: RuleId): CalendarRule {
    return this.byId.get(id)!;
  }

  effective(id: RuleId): string {
    return this.rule(id).effective;
  }

  /** Whether a document issued on `issueDate` (YYYY-MM-DD, Lima) is judged by rule `id` (never when it is off). */
  inForce(id: RuleId, issueDate: string): boolean {
    const rule = this.rule(id);
    return !rule.off && issueDate >= rule.effective;
  }

  status(id: RuleId, at: string): RuleStatus {
    if (this.rule(id).off) return 'off';
    return this.inForce(id, at) ? 'in force' : 'upcoming';
  }

  /** Rules not yet in force on `at` that start within `days` days, for the given document type when one is named. */
  upcoming(at: string, days: number, docType?: DocType): CalendarRule[] {
    const horizon = addDays(at, days);
    return this.list().filter(
      (r) => !r.off && r.effective > at && r.effective <= horizon && (!docType || r.docTypes.includes(docType)),
    );
  }

  /**
   * The IGV rates a document issued on `issueDate` may carry: the general one and the special step in force; a note
   * (`docType` 07 or 08) also the special rates of the steps before it (documents/calendar/igv-rates.ts).
   */
  igvRates(issueDate: string, docType?: string): RatesOn {
    // The steps follow one another in law: the last one in force wins, wherever CHASQUI_RULE_DATES put its date.
    const past = SPECIAL_RATE_STEPS.filter((id) => this.inForce(id, issueDate));
    const step = past.at(-1);
    const special = step ? this.rates[step] : SPECIAL_RATE_BEFORE_2026;
    const earlier =
      step && docType && NOTE_TYPES.includes(docType)
        ? [SPECIAL_RATE_BEFORE_2026, ...past.slice(0, -1).map((id) => this.rates[id])]
        : [];
    const distinct = [...new Set(earlier)].filter(
      (rate): rate is number => rate !== null && rate !== special && rate !== GENERAL_IGV_RATE,
    );
    return { general: GENERAL_IGV_RATE, special, step: step ?? null, earlier: distinct };
  }
}

/** SUNAT's dates as chasqui ships them, for callers that were given no calendar. */
export const DEFAULT_CALENDAR = new RuleCalendar();
