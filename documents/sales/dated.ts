/**
 * The sales rules SUNAT dates (documents/calendar): each asks the calendar with the document's fechaEmision, so a
 * document issued before a rule is judged by the old one whenever it is sent. Before a rule bites, from
 * `ruleWarnDays` days ahead, a document it would refuse carries a warning naming the code and the date.
 */
import {
  addDays,
  CREDIT_NOTE_CEILING,
  DEBIT_NOTE_13,
  DEFAULT_CALENDAR,
  isUnaffectedReason,
  MYPE_RATE_2026,
  PRODUCT_CODE_VALID,
  isAllowedRate,
  productCodeProblems,
  ratesText,
  SPECIAL_RATE_RULE,
  SPECIAL_RATE_STEPS,
  specialRates,
  type RatesOn,
  type RuleCalendar,
  type RuleId,
} from '../calendar';
import { Decimal, money } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import type { PrepareOptions } from '../types';
import type { SaleDocument } from './document';
import type { SaleInput } from './types';

/** What the sale rules found: issues refuse the document, warnings travel with its 202. */
export interface RuleReport {
  issues: ValidationIssue[];
  warnings: string[];
}

export interface DatedRules {
  calendar: RuleCalendar;
  date: string;
  /** Whether rule `id` judges this document. */
  inForce(id: RuleId): boolean;
  /** Whether rule `id` starts within the warning window of this document's date (and does not judge it yet). */
  approaching(id: RuleId): boolean;
  /** The IGV rates of this document's date (documents/calendar/igv-rates.ts). */
  rates: RatesOn;
}

/** `docType`: a note's rates include the earlier special rates (documents/calendar/igv-rates.ts). */
export function datedRules(date: string, options: PrepareOptions, docType?: string): DatedRules {
  const calendar = options.calendar ?? DEFAULT_CALENDAR;
  const horizon = addDays(date, options.ruleWarnDays ?? 0);
  return {
    calendar,
    date,
    inForce: (id) => calendar.inForce(id, date),
    approaching: (id) => !calendar.inForce(id, date) && !calendar.rule(id).off && calendar.effective(id) <= horizon,
    rates: calendar.igvRates(date, docType),
  };
}

/** Whether `rate` is an IGV rate a document of that date may carry (MYPE_RATE_2026.answers.rate). */
export function isIgvRateInForce(rate: number, rules: DatedRules): boolean {
  return isAllowedRate(rate, rules.rates);
}

/** The IGV rates a document of that date may use, in words for the refusal of another. */
export function allowedRatesText(rules: DatedRules): string {
  return ratesText(rules.rates);
}

/** Where the 4331 row is: Factura2_0 row 118 (and the boleta's, the same sheet); the notes' and 04's sheets have none. */
const OBLIGED_CODE_TYPES = new Set(['01', '03']);

/**
 * SUNAT's product code rows (documents/calendar/product-codes.ts), judged only on lines that carry a code: one not of
 * 8 digits, neither listed nor reserved (4332) or above class level (4337) is observed before `product-code-valid`
 * and refused (3496) from it; the reserved values are only observed, and on a liquidación de compra everything is. An
 * issuer on the register of those obliged to send a code (ind_padron 12) is observed (4331) for a line with neither
 * the code nor a GTIN (Factura2_0 field 28: "Si 'Número de RUC' del emisor es obligado a enviar Código de producto
 * … y no existe el Tag UBL y no existe el 'Código de producto GTIN'").
 */
function productCode(input: SaleInput, rules: DatedRules, options: PrepareOptions, report: RuleReport): void {
  const rule = rules.calendar.rule(PRODUCT_CODE_VALID.id);
  const { refused } = PRODUCT_CODE_VALID.answers;
  const dated = rule.docTypes.includes(input.tipoDoc);
  input.items.forEach((item, i) => {
    const path = `items[${i}].codigoSunat`;
    if (item.codigoSunat === undefined) {
      if (options.registers?.productCode && !item.gtin && OBLIGED_CODE_TYPES.has(input.tipoDoc))
        report.warnings.push(
          `[SUNAT 4331] ${path}: the company is on SUNAT's register of issuers obliged to send the product code ` +
            '(padrón, ind_padron 12) and this line has neither codigoSunat nor gtin; SUNAT observes the document',
        );
      return;
    }
    const problems = productCodeProblems(item.codigoSunat, rules.calendar.productCodeListing());
    const refusing = dated && !rule.off;
    // From the date one refusal a line, the first row that refuses it; the rest travel as observations.
    const refusal = refusing && rules.inForce(rule.id) ? problems.find((p) => p.refused) : undefined;
    if (refusal)
      report.issues.push(
        issue(
          'SUNAT',
          refused.code,
          `${refusal.message}: SUNAT's product code is not valid on documents issued from ${rule.effective}; send a valid one (catalog 25, class level or below, 00000000 or 99999999) or leave it out`,
          path,
        ),
      );
    for (const problem of problems) {
      if (refusal && problem.refused) continue;
      const later = problem.refused && refusing;
      report.warnings.push(
        `[SUNAT ${problem.code}] ${path}: ${problem.message}; SUNAT observes it${later ? ` and refuses it (${refused.code}) on documents issued from ${rule.effective}: send a valid one or leave it out` : ''}`,
      );
    }
  });
}

/**
 * The special rate of MYPE restaurants and hotels: an issuer that has not declared it is on SUNAT's register
 * (ind_padron 01) is observed (4439, Factura2_0 row 315 "es igual a 10.5"; a note's earlier rates too, NotaCredito2_0
 * row 302 and NotaDebito2_0 row 300 "es igual a 10 o 10.5"); within the warning window a document at the special
 * rate is told the next step.
 */
function specialRate(input: SaleInput, rules: DatedRules, options: PrepareOptions, report: RuleReport): void {
  const { special } = rules.rates;
  const specials = specialRates(rules.rates);
  const line = input.items.findIndex(
    (item) =>
      Number(item.afectacionIgv) <= 16 && item.porcentajeIgv !== undefined && specials.includes(item.porcentajeIgv),
  );
  if (line < 0) return;
  const rate = input.items[line].porcentajeIgv;
  if (
    options.registers &&
    !options.registers.igvSpecialRate &&
    rules.calendar.rule(SPECIAL_RATE_RULE).docTypes.includes(input.tipoDoc)
  )
    report.warnings.push(
      `[SUNAT ${MYPE_RATE_2026.answers.offRegister.code}] items[${line}].porcentajeIgv ${rate} is the special rate of MYPE restaurants and hotels on ` +
        "SUNAT's register (padrón, ind_padron 01); the company has not declared it is on it (PATCH " +
        '/v1/companies/{ruc}/registers): SUNAT observes the document',
    );
  if (rate !== special) return;
  const next = rules.calendar
    .list()
    .find((r) => (SPECIAL_RATE_STEPS as readonly RuleId[]).includes(r.id) && rules.approaching(r.id));
  if (!next) return;
  const then = rules.calendar.igvRates(next.effective);
  report.warnings.push(
    `[SUNAT ${MYPE_RATE_2026.answers.rate.code}] porcentajeIgv ${special} is the special rate until ${addDays(next.effective, -1)}; documents issued from ${next.effective} use ${ratesText(then)}`,
  );
}

function debitNote13(input: SaleInput, rules: DatedRules, report: RuleReport): void {
  if (input.tipoDoc !== '08' || input.motivo?.codigo !== '13') return;
  const rule = rules.calendar.rule(DEBIT_NOTE_13.id);
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
    if (!isUnaffectedReason(item.afectacionIgv)) {
      report.issues.push(
        issue(
          'SUNAT',
          DEBIT_NOTE_13.answers.unaffectedOnly.code,
          `a debit note of reason 13 covers unaffected (inafecta) operations only: afectacionIgv 30–37, not ${item.afectacionIgv}`,
          `items[${i}].afectacionIgv`,
        ),
      );
    }
  });
}

/**
 * A credit note's total against the document it modifies, when chasqui holds it. NotaCredito2_0 row 85 (ERROR 3286, a
 * factura) and row 86 (OBSERV 4028, a boleta) judge it today, both "Si 'Código de tipo de nota de crédito' es
 * diferente de '10'" and "Validación no aplica para OSE": before credit-note-ceiling a 202 warns (an OSE accepts the
 * note, so chasqui does not refuse it); from the rule's date 3286 and 3503 refuse (revisions rows 13, 14). A note of
 * reason 10 is never compared.
 */
function creditNoteCeiling(
  input: SaleInput,
  doc: SaleDocument,
  rules: DatedRules,
  options: PrepareOptions,
  report: RuleReport,
): void {
  const ref = options.referenced;
  if (input.tipoDoc !== '07' || !ref || input.motivo?.codigo === '10') return;
  const held = ref.totals.PayableAmount;
  if (held === undefined || doc.totals.importeTotal.lte(new Decimal(held))) return;
  const onReceipt = input.documentoAfectado?.tipoDoc === '03';
  const text = `the credit note's total (${money(doc.totals.importeTotal)}) exceeds that of ${ref.serieNumero} it modifies (${held})`;
  const rule = rules.calendar.rule(CREDIT_NOTE_CEILING.id);
  const { aboveInvoice, aboveReceipt, receiptObserved } = CREDIT_NOTE_CEILING.answers;
  if (rules.inForce(rule.id)) {
    report.issues.push(issue('SUNAT', (onReceipt ? aboveReceipt : aboveInvoice).code, text, 'documentoAfectado'));
    return;
  }
  const later = rule.off ? '' : `; chasqui refuses it on credit notes issued from ${rule.effective}`;
  report.warnings.push(
    onReceipt
      ? `[SUNAT ${receiptObserved.code}] ${text}: SUNAT observes it${later}`
      : `[SUNAT ${aboveInvoice.code}] ${text}: SUNAT refuses it (an OSE does not apply the rule)${later}`,
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
  productCode(input, rules, options, report);
  specialRate(input, rules, options, report);
  debitNote13(input, rules, report);
  creditNoteCeiling(input, doc, rules, options, report);
  return report;
}
