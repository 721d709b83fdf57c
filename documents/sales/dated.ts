/**
 * The sales rules SUNAT dates (documents/calendar): each asks the calendar with the document's fechaEmision, so a
 * document issued before a rule is judged by the old one whenever it is sent. Before a rule bites, from
 * `ruleWarnDays` days ahead, a document it would refuse carries a warning naming the code and the date.
 */
import { addDays, DEFAULT_CALENDAR, type RuleCalendar, type RuleId } from '../calendar';
import { Decimal, money } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import { IGV_RATE, IGV_REDUCED_RATE, IGV_REDUCED_RATE_2027 } from '../tax/rates';
import type { PrepareOptions } from '../types';
import type { SaleDocument } from './document';
import type { SaleInput } from './types';

/** What the sale rules found: issues refuse the document, warnings travel with its 202. */
export interface RuleReport {
  issues: ValidationIssue[];
  warnings: string[];
}

/** Catalog 07 codes of unaffected (inafecta) operations, the only lines of a debit note of reason 13 (3507). */
const UNAFFECTED = new Set(['30', '31', '32', '33', '34', '35', '36', '37']);

export interface DatedRules {
  calendar: RuleCalendar;
  date: string;
  /** Whether rule `id` judges this document. */
  inForce(id: RuleId): boolean;
  /** Whether rule `id` starts within the warning window of this document's date (and does not judge it yet). */
  approaching(id: RuleId): boolean;
}

export function datedRules(date: string, options: PrepareOptions): DatedRules {
  const calendar = options.calendar ?? DEFAULT_CALENDAR;
  const horizon = addDays(date, options.ruleWarnDays ?? 0);
  return {
    calendar,
    date,
    inForce: (id) => calendar.inForce(id, date),
    approaching: (id) => !calendar.inForce(id, date) && calendar.effective(id) <= horizon,
  };
}

/** The reduced IGV rate of MYPE restaurants and lodging (Ley 31556 as extended) on a date: 10, then 14, then none. */
export function reducedIgvRate(rules: DatedRules): number | null {
  if (rules.inForce('mype-rate-end')) return null;
  return rules.inForce('mype-rate-2027') ? IGV_REDUCED_RATE_2027 : IGV_REDUCED_RATE;
}

/** The IGV rates a document of that date may use, in words for 3103. */
export function allowedRatesText(rules: DatedRules): string {
  const reduced = reducedIgvRate(rules);
  return `${IGV_RATE}${reduced ? `, or ${reduced} (the reduced MYPE rate of Ley 31556)` : ' (the reduced MYPE rate of Ley 31556 has ended)'}`;
}

function productCode(input: SaleInput, rules: DatedRules, report: RuleReport): void {
  const rule = rules.calendar.rule('product-code-required');
  if (!rule.docTypes.includes(input.tipoDoc)) return;
  const missing = input.items.flatMap((item, i) => (item.codigoSunat ? [] : [i]));
  if (!missing.length) return;
  if (rules.inForce(rule.id)) {
    for (const i of missing) {
      report.issues.push(
        issue(
          'SUNAT',
          '3496',
          `items[${i}].codigoSunat (SUNAT's product code, catalog 25) is required on every line of documents issued from ${rule.effective}`,
          `items[${i}].codigoSunat`,
        ),
      );
    }
  } else if (rules.approaching(rule.id)) {
    const lines = missing.map((i) => `items[${i}]`).join(', ');
    report.warnings.push(
      `[SUNAT 3496] from ${rule.effective} SUNAT refuses lines without codigoSunat (catalog 25); this document's ${lines} ${missing.length > 1 ? 'have' : 'has'} none`,
    );
  }
}

function mypeRate(input: SaleInput, rules: DatedRules, report: RuleReport): void {
  const reducedLine = input.items.findIndex(
    (item) => Number(item.afectacionIgv) <= 16 && item.porcentajeIgv !== undefined && item.porcentajeIgv !== IGV_RATE,
  );
  if (reducedLine < 0) return;
  const rate = input.items[reducedLine].porcentajeIgv;
  const next = rules.approaching('mype-rate-end')
    ? 'mype-rate-end'
    : rules.approaching('mype-rate-2027')
      ? 'mype-rate-2027'
      : null;
  if (!next || rate !== reducedIgvRate(rules)) return;
  const effective = rules.calendar.effective(next);
  const then = next === 'mype-rate-end' ? `${IGV_RATE} only` : `${IGV_RATE} or ${IGV_REDUCED_RATE_2027}`;
  report.warnings.push(
    `[SUNAT 3103] porcentajeIgv ${rate} is the reduced MYPE rate until ${addDays(effective, -1)}; documents issued from ${effective} use ${then}`,
  );
}

function debitNote13(input: SaleInput, rules: DatedRules, report: RuleReport): void {
  if (input.tipoDoc !== '08' || input.motivo?.codigo !== '13') return;
  const rule = rules.calendar.rule('debit-note-13');
  if (!rules.inForce(rule.id)) {
    report.issues.push(
      issue(
        'SUNAT',
        '2172',
        `debit note reason 13 (catalog 10) is accepted on debit notes issued from ${rule.effective}; this one is dated ${rules.date}`,
        'motivo.codigo',
      ),
    );
    return;
  }
  input.items.forEach((item, i) => {
    if (!UNAFFECTED.has(item.afectacionIgv)) {
      report.issues.push(
        issue(
          'SUNAT',
          '3507',
          `a debit note of reason 13 covers unaffected (inafecta) operations only: afectacionIgv 30–37, not ${item.afectacionIgv}`,
          `items[${i}].afectacionIgv`,
        ),
      );
    }
  });
}

function creditNoteCeiling(
  input: SaleInput,
  doc: SaleDocument,
  rules: DatedRules,
  options: PrepareOptions,
  report: RuleReport,
): void {
  const ref = options.referenced;
  if (input.tipoDoc !== '07' || !ref || !rules.inForce('credit-note-ceiling')) return;
  const held = ref.totals.PayableAmount;
  if (held === undefined || doc.totals.importeTotal.lte(new Decimal(held))) return;
  const onReceipt = input.documentoAfectado?.tipoDoc === '03';
  report.issues.push(
    issue(
      'SUNAT',
      onReceipt ? '3503' : '3286',
      `the credit note's total (${money(doc.totals.importeTotal)}) exceeds that of ${ref.serieNumero} it modifies (${held})`,
      'documentoAfectado',
    ),
  );
}

/** Every dated rule of a sales document, by its fechaEmision. */
export function datedSaleRules(
  input: SaleInput,
  doc: SaleDocument,
  rules: DatedRules,
  options: PrepareOptions,
): RuleReport {
  const report: RuleReport = { issues: [], warnings: [] };
  productCode(input, rules, report);
  mypeRate(input, rules, report);
  debitNote13(input, rules, report);
  creditNoteCeiling(input, doc, rules, options, report);
  return report;
}
