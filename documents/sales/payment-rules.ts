/** formaPago (SUNAT's 3249–3267): contado or crédito, its cuotas, and the credit note of type 13 that adjusts them. */
import { money, ZERO } from '../decimal';
import { issue } from '../errors';
import { RUC_DOC_TYPE } from '../input/parties';
import { type RuleReport } from './dated';
import { paymentTerms, type SaleDocument } from './document';
import type { SaleInput } from './types';

export function paymentRules(input: SaleInput, doc: SaleDocument, report: RuleReport): void {
  const out = report.issues;
  const terms = paymentTerms(input);
  if (input.tipoDoc === '03') {
    if (terms)
      report.warnings.push(
        "[SUNAT 3128] formaPago is not sent on boletas (SUNAT's boleta rules reject PaymentTerms); it was left out of the XML",
      );
    return;
  }
  const creditNote13 = input.tipoDoc === '07' && input.motivo?.codigo === '13';
  if (creditNote13) {
    // NotaCredito2_0 rows 406 (3257) and 408 (FormaPago is Credito or a cuota); its cuotas as any credit sale's below.
    if (terms?.kind !== 'Credito') {
      out.push(
        issue(
          'SUNAT',
          '3257',
          'a credit note of type 13 (ajuste de montos/fechas de pago) needs formaPago Credito (with its cuotas when the customer has a RUC)',
          'formaPago',
        ),
      );
    }
    if (input.documentoAfectado && input.documentoAfectado.tipoDoc !== '01') {
      out.push(issue('SUNAT', '3259', 'a credit note of type 13 must modify a factura', 'documentoAfectado.tipoDoc'));
    }
  }
  if (!terms) return;
  if (terms.kind === 'Contado' && terms.instalments.length) {
    out.push(issue('SUNAT', '3252', 'cuotas are only allowed when formaPago is Credito', 'formaPago.cuotas'));
  }
  if (terms.kind !== 'Credito') return;
  // Factura2_0 rows 758 (3249) and 762 (3319), and the NotaCredito2_0 rows 410/414 alike, judge a credit sale to a
  // RUC only: it lists its cuotas, and they add up to the net pending amount (cac:PaymentTerms Credito's cbc:Amount).
  const toRuc = input.cliente?.tipoDoc === RUC_DOC_TYPE;
  // Rows 775, 771 and 762 are the factura's; the notes' sheets judge none (a type-13 note's pending is its cuotas' sum).
  const invoice = input.tipoDoc === '01';
  if (!terms.instalments.length && toRuc)
    out.push(
      issue('SUNAT', '3249', 'formaPago Credito to a RUC needs at least one cuota {monto, fechaPago}', 'formaPago'),
    );
  let sum = ZERO;
  terms.instalments.forEach((c, i) => {
    sum = sum.plus(c.monto);
    // Row 775 (3267) on every cuota's date; row 771 (3266) on every cuota's amount against PayableAmount.
    if (invoice && c.fechaPago <= input.fechaEmision) {
      out.push(
        issue(
          'SUNAT',
          '3267',
          `cuota ${i + 1} is due ${c.fechaPago}, which must be after fechaEmision ${input.fechaEmision}`,
          `formaPago.cuotas[${i}].fechaPago`,
        ),
      );
    }
    if (invoice && c.monto.gt(doc.totals.importeTotal))
      out.push(
        issue(
          'SUNAT',
          '3266',
          `cuota ${i + 1} (${money(c.monto)}) is more than the payable total ${money(doc.totals.importeTotal)}`,
          `formaPago.cuotas[${i}].monto`,
        ),
      );
  });
  if (invoice && toRuc && terms.instalments.length && !sum.equals(doc.pending)) {
    const owed = doc.detraction
      ? `the payable total less the detracción (${money(doc.pending)})`
      : `the payable total ${money(doc.pending)}`;
    out.push(issue('SUNAT', '3319', `the cuotas add up to ${money(sum)}, not ${owed}`, 'formaPago.cuotas'));
  }
}
