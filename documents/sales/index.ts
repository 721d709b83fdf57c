/** Sales documents (01, 03, 07, 08) and the liquidación de compra (04): validated input → rules → totals → UBL 2.1 XML. */
import { addDays, daysBetween, ISSUE_DATE_LEAD_DAYS } from '../calendar';
import { DocumentValidationError, issue, type ValidationIssue } from '../errors';
import { Decimal, money } from '../decimal';
import { MAX_INTEGER_DIGITS } from '../input/fields';
import { preparedDocument } from '../prepared';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildInvoiceXml } from '../xml/invoice';
import { buildNoteXml } from '../xml/notes';
import { buildPurchaseXml } from '../xml/purchase';
import { normaliseSale, type SaleDocument } from './document';
import { checkSaleRules } from './rules';
import type { SaleInput } from './types';

const LIMIT = new Decimal(10).pow(MAX_INTEGER_DIGITS);

/**
 * Amounts chasqui computes must fit SUNAT's n(12,2) too: inputs within bounds can still multiply past them
 * (a 12-digit quantity × a 12-digit unit value), and such an XML fails the XSD. Each with its element's format code.
 */
function computedAmountIssues(t: ReturnType<typeof normaliseSale>['doc']['totals']): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const check = (value: Decimal, code: string, what: string, path: string | null) => {
    if (value.abs().gte(LIMIT))
      out.push(
        issue('SUNAT', code, `${what} (${money(value)}) has more than ${MAX_INTEGER_DIGITS} integer digits`, path),
      );
  };
  t.lines.forEach((line, i) => check(line.lineExtension, '2370', `the value of line ${i + 1}`, `items[${i}]`));
  check(t.valorVenta, '2031', 'the total value of sale', null);
  check(t.precioVenta, '3019', 'the total price of sale', null);
  check(t.importeTotal, '2062', 'the payable total', null);
  return out;
}

/**
 * SUNAT's sending window (2108: "la diferencia entre la fecha de recepción del XML y el valor del Tag UBL es mayor al
 * límite del listado"): past its last day the document is refused before signing; on its last day (it closes within
 * 24 hours, at midnight in Lima) the 202 carries a warning.
 */
function sendingWindow(
  issueDate: string,
  options: PrepareOptions,
): { closed: ValidationIssue | null; closing: string | null } {
  const days = options.sendingWindowDays ?? 0;
  if (!options.today || days <= 0) return { closed: null, closing: null };
  const age = daysBetween(issueDate, options.today);
  if (age > days) {
    const text = `fechaEmision ${issueDate} is ${age} days before today (${options.today}): SUNAT receives a document up to ${days} days after its issue date; issue it with today's date`;
    return { closed: issue('SUNAT', '2108', text, 'fechaEmision'), closing: null };
  }
  if (age === days) {
    return {
      closed: null,
      closing: `[SUNAT 2108] today is the last day SUNAT receives a document of fechaEmision ${issueDate}: its sending window closes at midnight (Lima), within 24 hours`,
    };
  }
  return { closed: null, closing: null };
}

/**
 * An issue date after today: SUNAT refuses one more than ISSUE_DATE_LEAD_DAYS ahead (2329), LiquidacionCompra2_0
 * row 3 any "mayor a la fecha de envío". A receipt that travels in the daily summary is sent by today's summary,
 * which cannot list a later document (Resumen Diario1_1 row 8, 2671).
 */
function futureDate(input: SaleInput, options: PrepareOptions): ValidationIssue | null {
  if (!options.today) return null;
  const viaSummary = options.receiptsViaSummary === true && input.serie[0] === 'B';
  const lead = input.tipoDoc === '04' || viaSummary ? 0 : ISSUE_DATE_LEAD_DAYS;
  if (input.fechaEmision <= addDays(options.today, lead)) return null;
  const limit = lead ? `more than ${lead} days after today (${options.today})` : `after today (${options.today})`;
  const why = viaSummary ? "; this company's receipts travel in today's daily summary, which lists no later one" : '';
  return issue(
    'SUNAT',
    viaSummary ? '2671' : '2329',
    `fechaEmision ${input.fechaEmision} is ${limit}${why}`,
    'fechaEmision',
  );
}

function builderOf(docType: SaleInput['tipoDoc']): (doc: SaleDocument) => string {
  if (docType === '04') return buildPurchaseXml;
  return docType === '01' || docType === '03' ? buildInvoiceXml : buildNoteXml;
}

export function prepareSale(
  input: SaleInput,
  options: PrepareOptions,
  earlier: ValidationIssue[] = [],
): PreparedDocument {
  const { doc, warnings } = normaliseSale(input);
  const report = checkSaleRules(input, doc, options);
  const issues = [...earlier, ...report.issues, ...computedAmountIssues(doc.totals)];
  const ahead = futureDate(input, options);
  if (ahead) issues.push(ahead);
  const timing = sendingWindow(input.fechaEmision, options);
  if (timing.closed) issues.push(timing.closed);
  if (issues.length) throw new DocumentValidationError(issues);
  const t = doc.totals;
  const totals: Record<string, string> = {
    LineExtensionAmount: money(t.valorVenta),
    TaxInclusiveAmount: money(t.precioVenta),
    AllowanceTotalAmount: money(t.descuentos),
    ChargeTotalAmount: money(t.cargos),
    PrepaidAmount: money(t.anticipos),
    PayableAmount: money(t.importeTotal),
    TaxAmount: money(t.totalImpuestos),
  };
  for (const s of t.subtotals) totals[`TaxAmount.${s.scheme}`] = money(s.amount);
  return preparedDocument(input, doc, {
    currency: input.tipoMoneda,
    xml: builderOf(input.tipoDoc)(doc),
    totals,
    warnings: [...warnings, ...report.warnings, ...(timing.closing ? [timing.closing] : [])],
    buyerEmail: input.cliente?.correo,
  });
}
