/** Sales documents (01, 03, 07, 08): validated input → rules → totals → UBL 2.1 XML. */
import { DocumentValidationError, issue, type ValidationIssue } from '../errors';
import { Decimal, money } from '../decimal';
import { MAX_INTEGER_DIGITS } from '../input/fields';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildInvoiceXml } from '../xml/invoice';
import { buildNoteXml } from '../xml/notes';
import { normaliseSale } from './document';
import { checkSaleRules } from './rules';
import type { SaleInput } from './schema';

const LIMIT = new Decimal(10).pow(MAX_INTEGER_DIGITS);

/**
 * Amounts chasqui computes must fit SUNAT's n(12,2) too: inputs within bounds can still multiply past them
 * (a 12-digit quantity × a 12-digit unit value), and such an XML fails the XSD. Each with its element's format code.
 */
function computedAmountIssues(t: ReturnType<typeof normaliseSale>['doc']['totals']): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const check = (value: Decimal, code: string, what: string, path: string | null) => {
    if (value.abs().gte(LIMIT)) out.push(issue('SUNAT', code, `${what} (${money(value)}) has more than ${MAX_INTEGER_DIGITS} integer digits`, path));
  };
  t.lines.forEach((line, i) => check(line.lineExtension, '2370', `the value of line ${i + 1}`, `items[${i}]`));
  check(t.valorVenta, '2031', 'the total value of sale', null);
  check(t.precioVenta, '3019', 'the total price of sale', null);
  check(t.importeTotal, '2062', 'the payable total', null);
  return out;
}

export function prepareSale(input: SaleInput, options: PrepareOptions, earlier: ValidationIssue[] = []): PreparedDocument {
  const { doc, warnings } = normaliseSale(input);
  const report = checkSaleRules(input, doc);
  const issues = [...earlier, ...report.issues, ...computedAmountIssues(doc.totals)];
  if (options.today && input.fechaEmision > options.today) {
    issues.push(issue('SUNAT', '2236', `fechaEmision ${input.fechaEmision} is after today (${options.today})`, 'fechaEmision'));
  }
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
  return {
    docType: input.tipoDoc,
    ruc: input.emisor.ruc,
    series: input.serie,
    number: doc.number,
    filename: `${input.emisor.ruc}-${input.tipoDoc}-${doc.id}`,
    issueDate: input.fechaEmision,
    currency: input.tipoMoneda,
    xml: input.tipoDoc === '01' || input.tipoDoc === '03' ? buildInvoiceXml(doc) : buildNoteXml(doc),
    totals,
    warnings: [...warnings, ...report.warnings],
  };
}
