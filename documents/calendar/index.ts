/**
 * The rule calendar: the one question every consumer (validation, builders, the printed document, the simulator,
 * `chasqui validate`, the company checks) asks about SUNAT's dated rules: is rule X in force for a document issued
 * on date D? Pure: the dates come from RULES, moved by the overrides it is given (CHASQUI_RULE_DATES, read by
 * core/config).
 */
import type { DocType } from '../doc-type';
import { RULES, type RuleDefinition, type RuleId } from './rules';

export { RULES, type Confidence, type RuleDefinition, type RuleId } from './rules';

export type RuleStatus = 'in force' | 'upcoming';

export class RuleDatesError extends Error {}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2027-02-30 is not). */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** `date` moved by `days` calendar days (dates are Lima dates; no time zone enters). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function isRuleId(id: string): id is RuleId {
  return RULES.some((rule) => rule.id === id);
}

/**
 * Parses `id=YYYY-MM-DD,id=YYYY-MM-DD` (CHASQUI_RULE_DATES). Throws RuleDatesError naming the unknown id or the bad
 * date, so a typo stops start-up instead of leaving a rule on its old date.
 */
export function parseRuleDates(text: string): Partial<Record<RuleId, string>> {
  const dates: Partial<Record<RuleId, string>> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const id = (eq < 0 ? part : part.slice(0, eq)).trim();
    const date = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (!isRuleId(id)) throw new RuleDatesError(`unknown rule '${id}' (known: ${RULES.map((r) => r.id).join(', ')})`);
    if (!isCalendarDate(date)) throw new RuleDatesError(`rule '${id}' needs a date YYYY-MM-DD, got '${date}'`);
    dates[id] = date;
  }
  return dates;
}

export class RuleCalendar {
  private readonly byId: ReadonlyMap<RuleId, RuleDefinition>;

  constructor(readonly overrides: Partial<Record<RuleId, string>> = {}) {
    this.byId = new Map(RULES.map((rule) => [rule.id, { ...rule, effective: overrides[rule.id] ?? rule.effective }]));
  }

  /** Every rule with its effective date as this calendar has it, earliest first. */
  list(): RuleDefinition[] {
    return [...this.byId.values()].sort((a, b) => a.effective.localeCompare(b.effective) || a.id.localeCompare(b.id));
  }

  rule(id: RuleId): RuleDefinition {
    return this.byId.get(id)!;
  }

  effective(id: RuleId): string {
    return this.rule(id).effective;
  }

  /** Whether a document issued on `issueDate` (YYYY-MM-DD, Lima) is judged by rule `id`. */
  inForce(id: RuleId, issueDate: string): boolean {
    return issueDate >= this.effective(id);
  }

  status(id: RuleId, at: string): RuleStatus {
    return this.inForce(id, at) ? 'in force' : 'upcoming';
  }

  /** Rules not yet in force on `at` that start within `days` days, for the given document type when one is named. */
  upcoming(at: string, days: number, docType?: DocType): RuleDefinition[] {
    const horizon = addDays(at, days);
    return this.list().filter(
      (r) => r.effective > at && r.effective <= horizon && (!docType || r.docTypes.includes(docType)),
    );
  }
}

/** SUNAT's dates as chasqui ships them, for callers that were given no calendar. */
export const DEFAULT_CALENDAR = new RuleCalendar();
