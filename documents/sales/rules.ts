/**
 * Domain rules of the sales documents that joi cannot express field by field. Each returns issues (blocking, 422)
 * and warnings (observations); every check runs so the integrator sees all problems at once. The lines' rules are in
 * line-rules.ts, formaPago's in payment-rules.ts, the integrator's totals in client-totals.ts.
 */
import { DEBIT_NOTE_13, DETRACTION_2026, DETRACTION_CODES_2026 } from '../calendar';
import { Decimal, money } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import { isIdentified, RUC_DOC_TYPE, DNI_DOC_TYPE } from '../input/parties';
import type { DocumentTotals } from '../tax/totals';
import type { PrepareOptions } from '../types';
import { datedRules, datedSaleRules, type DatedRules, type RuleReport } from './dated';
import { clientTotalsRules } from './client-totals';
import { deductibleExpenseRule, lineRules } from './line-rules';
import { operationRules } from './operations';
import { paymentRules } from './payment-rules';
import { purchaseRules } from './purchase';
import { zeroAmountRules } from './zero-amounts';
import type { SaleDocument } from './document';
import { CREDIT_NOTE_REASONS, DEBIT_NOTE_REASONS } from './schema';
import type { SaleInput } from './types';

/** Above this total (PEN) a boleta must identify its customer (Reglamento de Comprobantes de Pago, art. 8). */
export const RECEIPT_ID_THRESHOLD = new Decimal(700);

/**
 * The reason of a note that may leave out the document it modifies, on its issue date: SUNAT's 2524 spares credit
 * notes of reason 10 (NotaCredito2_0 row 73) and debit notes of reason 03 (NotaDebito2_0 row 73); from debit-note-13's
 * date the debit notes' exemption moves to reason 13 (sunat/rules/revisions.csv row 9, reported).
 */
function unreferencedReason(input: SaleInput, dated: DatedRules): string {
  if (input.tipoDoc === '07') return '10';
  return dated.inForce(DEBIT_NOTE_13.id) ? '13' : '03';
}

/**
 * The series of the document a note modifies, by its type: NotaCredito2_0 rows 76/77 (2117) and NotaDebito2_0 rows
 * 75/76 (2205) take an electronic one (F…, B…), the portal's (E001, EB01) and a paper one ([0-9]{1,4}).
 */
const MODIFIED_SERIES = {
  '01': /^(F[A-Z0-9]{3}|E001|\d{1,4})-\d{1,8}$/,
  '03': /^(B[A-Z0-9]{3}|EB01|\d{1,4})-\d{1,8}$/,
} as const;

function seriesRules(input: SaleInput, dated: DatedRules, options: PrepareOptions, out: ValidationIssue[]): void {
  const letter = input.serie[0];
  if (input.tipoDoc === '01' && letter !== 'F') {
    out.push(issue('SUNAT', '1001', `serie '${input.serie}' of a factura must start with F`, 'serie'));
  }
  if (input.tipoDoc === '03' && letter !== 'B') {
    out.push(issue('SUNAT', '1001', `serie '${input.serie}' of a boleta must start with B`, 'serie'));
  }
  if (input.tipoDoc !== '07' && input.tipoDoc !== '08') return;
  const credit = input.tipoDoc === '07';
  if (letter !== 'F' && letter !== 'B') {
    out.push(
      issue(
        'SUNAT',
        '1001',
        `serie '${input.serie}' of a note must start with F (notes on facturas) or B (notes on boletas)`,
        'serie',
      ),
    );
  }
  const ref = input.documentoAfectado;
  const exempt = unreferencedReason(input, dated);
  if (!ref) {
    if (letter === 'B' && options.receiptsViaSummary)
      out.push(
        issue(
          'SUNAT',
          '2524',
          'documentoAfectado (the receipt this note modifies) is required: this company sends its B notes in the daily summary, whose line names it',
          'documentoAfectado',
        ),
      );
    else if (input.motivo && input.motivo.codigo !== exempt)
      out.push(
        issue(
          'SUNAT',
          '2524',
          `documentoAfectado (the document this note modifies) is required: only a ${credit ? 'credit' : 'debit'} note of reason ${exempt} may leave it out`,
          'documentoAfectado',
        ),
      );
  } else {
    if (letter === 'F' && ref.tipoDoc !== '01') {
      out.push(
        issue(
          'SUNAT',
          credit ? '2116' : '2204',
          `a note with serie ${input.serie} must modify a factura (01), not ${ref.tipoDoc}`,
          'documentoAfectado.tipoDoc',
        ),
      );
    }
    if (letter === 'B' && ref.tipoDoc !== '03') {
      out.push(
        issue(
          'SUNAT',
          credit ? '2399' : '2400',
          `a note with serie ${input.serie} must modify a boleta (03), not ${ref.tipoDoc}`,
          'documentoAfectado.tipoDoc',
        ),
      );
    }
    if (!MODIFIED_SERIES[ref.tipoDoc].test(ref.serieNumero)) {
      out.push(
        issue(
          'SUNAT',
          credit ? '2117' : '2205',
          `documentoAfectado.serieNumero '${ref.serieNumero}' does not match its type ${ref.tipoDoc}`,
          'documentoAfectado.serieNumero',
        ),
      );
    }
  }
  const reasons: readonly string[] = credit ? CREDIT_NOTE_REASONS : DEBIT_NOTE_REASONS;
  if (!input.motivo) {
    out.push(issue('SUNAT', '2128', 'motivo {codigo, descripcion} (the reason of the note) is required', 'motivo'));
  } else if (!reasons.includes(input.motivo.codigo)) {
    out.push(
      issue(
        'SUNAT',
        '2172',
        `motivo.codigo '${input.motivo.codigo}' is not a ${credit ? 'credit note reason of catalog 09' : 'debit note reason of catalog 10'} (${reasons.join(', ')})`,
        'motivo.codigo',
      ),
    );
  }
}

/**
 * A note is not dated before the document it modifies, when chasqui holds that document: NotaCredito2_0 row 84 and
 * NotaDebito2_0 row 83, ERROR 2885, "la 'Fecha de emisión' de la nota … es menor a la fecha de emisión del documento
 * que modifica", for every reason but the one each sheet spares from naming a document (credit 10, debit 03).
 */
function noteDate(input: SaleInput, options: PrepareOptions, out: ValidationIssue[]): void {
  const held = options.referenced;
  const spared = input.tipoDoc === '07' ? '10' : input.tipoDoc === '08' ? '03' : null;
  if (!spared || !held?.issueDate || !input.documentoAfectado || input.motivo?.codigo === spared) return;
  if (input.fechaEmision < held.issueDate)
    out.push(
      issue(
        'SUNAT',
        '2885',
        `fechaEmision ${input.fechaEmision} is before ${held.issueDate}, the issue date of ${held.serieNumero} this note modifies`,
        'fechaEmision',
      ),
    );
}

/** Catalog 51 operations a boleta (and its notes) cannot carry, and those a factura cannot. */
const NOT_FOR_RECEIPTS = new Set(['0112', '0202', '0205']);
const NOT_FOR_INVOICES = new Set(['0113', '2105']);
/** Exports and 0401: the customer is any identity of catalog 06 (Factura2_0 row 88), not only a RUC. */
const FOREIGN_CUSTOMER = new Set(['0200', '0201', '0202', '0203', '0204', '0205', '0206', '0207', '0208', '0401']);
/**
 * Those whose customer may not be a RUC, 2800: on a factura 0200, 0201 and 0204 without legend 2008 (Factura2_0 row 87,
 * the XSL dropped 0208 in PAS20191U210100194); on a boleta every export but 0202, and 0401 (the boleta's XSL).
 */
const NOT_TO_RUC = {
  invoice: new Set(['0200', '0201', '0204']),
  receipt: new Set(['0200', '0201', '0203', '0204', '0205', '0206', '0207', '0208', '0401']),
};

function customerRules(input: SaleInput, totals: DocumentTotals, report: RuleReport): void {
  const op = input.tipoOperacion;
  const invoiceLike = input.tipoDoc === '01' || (input.tipoDoc !== '03' && input.serie[0] !== 'B');
  if ((invoiceLike ? NOT_FOR_INVOICES : NOT_FOR_RECEIPTS).has(op)) {
    report.issues.push(
      issue(
        'SUNAT',
        '3206',
        `operation ${op} (catalog 51) does not apply to ${invoiceLike ? 'facturas' : 'boletas'} and their notes`,
        'tipoOperacion',
      ),
    );
  }
  // The notes' sheets judge the customer's type by catalog 06 alone (NotaCredito2_0 row 67, 2016): no 2800 there.
  if (input.tipoDoc === '01' || input.tipoDoc === '03') customerTypeRules(input, report);
  receiptCustomerRules(input, totals, report);
}

function customerTypeRules(input: SaleInput, report: RuleReport): void {
  const c = input.cliente!;
  const op = input.tipoOperacion;
  const invoice = input.tipoDoc === '01';
  const hasLegend2008 = input.leyendas?.some((l) => l.codigo === '2008') ?? false;
  if ((invoice ? NOT_TO_RUC.invoice : NOT_TO_RUC.receipt).has(op) && !(invoice && hasLegend2008)) {
    if (c.tipoDoc === RUC_DOC_TYPE)
      report.issues.push(
        issue(
          'SUNAT',
          '2800',
          `operation ${op} is issued to a non-domiciled customer, not to a RUC`,
          'cliente.tipoDoc',
        ),
      );
  } else if (invoice && !FOREIGN_CUSTOMER.has(op)) {
    // Factura2_0 rows 89 and 91: 0112 to a DNI or RUC, any other domestic sale to a RUC (2106 is not issued here).
    const allowed = op === '0112' ? [RUC_DOC_TYPE, DNI_DOC_TYPE] : [RUC_DOC_TYPE];
    if (!allowed.includes(c.tipoDoc)) {
      report.issues.push(
        issue(
          'SUNAT',
          '2800',
          `a factura for operation ${op} needs a customer with ${allowed.length > 1 ? 'RUC or DNI' : 'RUC (tipoDoc 6)'}`,
          'cliente.tipoDoc',
        ),
      );
    }
  }
}

function receiptCustomerRules(input: SaleInput, totals: DocumentTotals, report: RuleReport): void {
  const c = input.cliente!;
  if (input.tipoDoc === '03' && !isIdentified(c)) {
    if (input.tipoMoneda === 'PEN' && totals.importeTotal.gt(RECEIPT_ID_THRESHOLD)) {
      report.issues.push(
        issue(
          'SUNAT',
          '2514',
          `a boleta over S/ 700.00 (this one is S/ ${money(totals.importeTotal)}) must identify the customer (DNI, RUC, carné or passport)`,
          'cliente.numDoc',
        ),
      );
    } else if (input.tipoMoneda !== 'PEN') {
      report.warnings.push(
        "[SUNAT 2514] boleta in USD without an identified customer: it must identify the customer if it exceeds S/ 700.00 at the day's exchange rate",
      );
    }
  }
}

/** Note reasons 11 and 12 adjust exports and IVAP sales: their lines must be of that kind, and IVAP only with 12. */
function noteReasonRules(input: SaleInput, out: ValidationIssue[]): void {
  if ((input.tipoDoc !== '07' && input.tipoDoc !== '08') || !input.motivo) return;
  const reason = input.motivo.codigo;
  input.items.forEach((item, i) => {
    const path = `items[${i}].afectacionIgv`;
    const code = item.afectacionIgv;
    if (reason === '11' && code !== '40')
      out.push(
        issue(
          'SUNAT',
          '2642',
          `a note of reason 11 adjusts an export: every line is afectacionIgv 40, not ${code}`,
          path,
        ),
      );
    if (reason === '12' && code !== '17')
      out.push(
        issue(
          'SUNAT',
          '2644',
          `a note of reason 12 adjusts an IVAP sale: every line is afectacionIgv 17, not ${code}`,
          path,
        ),
      );
    if (reason !== '12' && code === '17')
      out.push(
        issue('SUNAT', '3230', `an IVAP line (afectacionIgv 17) needs a note of reason 12, not ${reason}`, path),
      );
  });
}

function documentRules(input: SaleInput, totals: DocumentTotals, report: RuleReport): void {
  const out = report.issues;
  const hasTaxed = totals.lines.some((l) => !l.affectation.free && l.affectation.scheme === '1000');
  const baseAdjusted = [...(input.descuentos ?? []), ...(input.cargos ?? [])].filter(
    (a) => a.codigo === '02' || a.codigo === '49',
  );
  if (!hasTaxed && (baseAdjusted.length || input.anticipos?.length)) {
    out.push(
      issue(
        'chasqui',
        'BR_GLOBAL_BASE',
        'global discounts 02, charges 49 and prepayments reduce the IGV base: the document needs taxed lines (afectacionIgv 10)',
        input.anticipos?.length ? 'anticipos' : 'descuentos',
      ),
    );
  }
  if (input.tipoDoc === '07' || input.tipoDoc === '08') {
    for (const field of ['descuentos', 'cargos', 'anticipos'] as const) {
      if (input[field]?.length)
        out.push(
          issue(
            'chasqui',
            'BR_NOTE_GLOBALS',
            `global ${field} belong to facturas and boletas; a note states its lines' values`,
            field,
          ),
        );
    }
  }
  if (totals.importeTotal.isNegative()) {
    out.push(
      issue(
        'SUNAT',
        '3280',
        `the payable total would be negative (${money(totals.importeTotal)}); check discounts and prepayments`,
        null,
      ),
    );
  }
  if (input.tipoDoc === '08' && !totals.importeTotal.gt(0)) {
    out.push(issue('SUNAT', '2062', 'a debit note must have a payable amount greater than 0', null));
  }
  if (input.fechaVencimiento && input.fechaVencimiento < input.fechaEmision) {
    out.push(
      issue(
        'chasqui',
        'BR_DUE_DATE',
        `fechaVencimiento ${input.fechaVencimiento} is before fechaEmision ${input.fechaEmision}`,
        'fechaVencimiento',
      ),
    );
  }
}

/** Catalog 54's codes of 2026 (detraction-codes-2026): SUNAT refused them before their date. */
function detractionCodeRules(input: SaleInput, dated: DatedRules, out: ValidationIssue[]): void {
  const code = input.detraccion?.codigo;
  const { id, answers } = DETRACTION_2026;
  if (!code || !DETRACTION_CODES_2026.includes(code) || dated.inForce(id)) return;
  out.push(
    issue(
      'SUNAT',
      answers.unknownCode.code,
      `detraccion.codigo ${code} is in catalog 54 for documents issued from ${dated.calendar.effective(id)}; this one is dated ${dated.date}`,
      'detraccion.codigo',
    ),
  );
}

export function checkSaleRules(input: SaleInput, doc: SaleDocument, options: PrepareOptions = {}): RuleReport {
  const totals = doc.totals;
  const dated = datedRules(input.fechaEmision, options, input.tipoDoc);
  const report = datedSaleRules(input, doc, dated, options);
  if (input.tipoDoc === '04') purchaseRules(input, report.issues, report.warnings);
  else {
    seriesRules(input, dated, options, report.issues);
    noteDate(input, options, report.issues);
    customerRules(input, totals, report);
    input.items.forEach((item, i) => {
      if (item.retencionRenta)
        report.issues.push(
          issue(
            'chasqui',
            'BR_IR_PURCHASE_ONLY',
            'income tax is withheld (retencionRenta) only in a liquidación de compra (04)',
            `items[${i}].retencionRenta`,
          ),
        );
    });
  }
  lineRules(input, report.issues, report.warnings, dated);
  deductibleExpenseRule(input, report.issues);
  zeroAmountRules(input, totals, report.issues);
  noteReasonRules(input, report.issues);
  detractionCodeRules(input, dated, report.issues);
  documentRules(input, totals, report);
  operationRules(input, totals, report.issues, report.warnings);
  paymentRules(input, doc, report);
  clientTotalsRules(input, totals, report.issues);
  return report;
}
