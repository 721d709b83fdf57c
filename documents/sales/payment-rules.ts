/** formaPago (SUNAT's 3249–3267): contado or crédito, its cuotas, and the credit note of type 13 that adjusts them. */
import { money, ZERO } from '../decimal';
import { issue } from '../errors';
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
    if (terms?.kind !== 'Credito' || !terms.instalments.length) {
      out.push(
        issue(
          'SUNAT',
          '3257',
          'a credit note of type 13 (ajuste de montos/fechas de pago) needs formaPago Credito with its cuotas',
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
  if (terms.kind === 'Credito') {
    if (!terms.instalments.length)
      out.push(issue('SUNAT', '3249', 'formaPago Credito needs at least one cuota {monto, fechaPago}', 'formaPago'));
    let sum = ZERO;
    terms.instalments.forEach((c, i) => {
      sum = sum.plus(c.monto);
      if (c.fechaPago <= input.fechaEmision) {
        out.push(
          issue(
            'SUNAT',
            '3267',
            `cuota ${i + 1} is due ${c.fechaPago}, which must be after fechaEmision ${input.fechaEmision}`,
            `formaPago.cuotas[${i}].fechaPago`,
          ),
        );
      }
    });
    if (!creditNote13 && sum.gt(doc.pending)) {
      const owed = doc.detraction
        ? `the payable total less the detracción (${money(doc.pending)})`
        : `the payable total ${money(doc.pending)}`;
      out.push(issue('SUNAT', '3266', `the cuotas add up to ${money(sum)}, more than ${owed}`, 'formaPago.cuotas'));
    }
  }
}
