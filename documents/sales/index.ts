/** Sales documents (01, 03, 07, 08) and the liquidación de compra (04): validated input → rules → totals → UBL 2.1 XML. */
import { DocumentValidationError, issue, type ValidationIssue } from '../errors';
import { money } from '../decimal';
import type { PrepareOptions, PreparedDocument } from '../types';
import { buildInvoiceXml } from '../xml/invoice';
import { buildNoteXml } from '../xml/notes';
import { buildPurchaseXml } from '../xml/purchase';
import { normaliseSale, type SaleDocument } from './document';
import { checkSaleRules } from './rules';
import type { SaleInput } from './schema';

function builderOf(docType: SaleInput['tipoDoc']): (doc: SaleDocument) => string {
  if (docType === '04') return buildPurchaseXml;
  return docType === '01' || docType === '03' ? buildInvoiceXml : buildNoteXml;
}

export function prepareSale(input: SaleInput, options: PrepareOptions, earlier: ValidationIssue[] = []): PreparedDocument {
  const { doc, warnings } = normaliseSale(input);
  const report = checkSaleRules(input, doc);
  const issues = [...earlier, ...report.issues];
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
    xml: builderOf(input.tipoDoc)(doc),
    totals,
    warnings: [...warnings, ...report.warnings],
  };
}
