/**
 * Lines whose amounts round to 0.00 where SUNAT's rules need them above zero (sunat/xsl, ValidaExprReg*-2.0.1.xsl).
 * Built and signed, such a document would only be refused by SUNAT; refused here before signing, with SUNAT's code
 * and the line's path. What SUNAT's rules check, per line, on the amounts as written (two decimals):
 * - 3105 (01, 03, 08): an IGV-class subtotal (1000, 1016, 9995–9998) with TaxableAmount above 0. Operations 2100–2104
 *   (banks; and 0112 in a factura) are exempt. Credit notes (07) and liquidaciones (04) only need the subtotal present.
 * - 3111 (all): an IGV or IVAP subtotal (1000, 1016; 9996 of a free taxed line, 11–17) with TaxableAmount above 0
 *   needs a TaxAmount other than 0.00 (operation 0113 is exempt). SUNAT's DataPower rules start at a base above 0.06,
 *   its SFS rules (commons/xsl, which chasqui's validator and simulator run for 01, 03, 07 and 08) at any base: at 18 %
 *   a base of 0.01–0.02 gives 0.00, at IVAP's 4 % up to 0.12. The 04 is judged by the DataPower rules only.
 * ISC (2000) and ICBPER (7152) have no such rule: an ISC base of 0.00 skips its checks, and ICBPER counts whole bags at
 * a rate above zero (3236, 3238).
 */
import { Decimal, ZERO } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import type { DocumentTotals } from '../tax/totals';
import type { SaleInput } from './types';

/** The DataPower rules' floor for 3111; the SFS rules have none. */
const DATAPOWER_FLOOR = new Decimal('0.06');
const BANK_OPERATIONS = new Set(['2100', '2101', '2102', '2103', '2104']);

export function zeroAmountRules(input: SaleInput, totals: DocumentTotals, out: ValidationIssue[]): void {
  const needsBase =
    ['01', '03', '08'].includes(input.tipoDoc) &&
    !BANK_OPERATIONS.has(input.tipoOperacion) &&
    !(input.tipoDoc === '01' && input.tipoOperacion === '0112');
  const needsTax = input.tipoOperacion !== '0113';
  const floor = input.tipoDoc === '04' ? DATAPOWER_FLOOR : ZERO;
  totals.lines.forEach((line, i) => {
    // The TaxableAmount the builder writes into the line's IGV-class subtotal (documents/xml/ubl.ts lineTaxTotal).
    const base = (line.affectation.taxed ? line.igvBase : line.lineExtension).toDecimalPlaces(2);
    if (needsBase && !base.gt(ZERO)) {
      out.push(
        issue(
          'SUNAT',
          '3105',
          `the line's taxable amount rounds to 0.00 (cantidad × valorUnitario = ${line.item.cantidad.times(line.item.valorUnitario).toString()}); SUNAT needs an IGV subtotal above 0 on every line`,
          `items[${i}]`,
        ),
      );
    }
    if (needsTax && line.affectation.taxed && base.gt(floor) && line.igv.toDecimalPlaces(2).isZero()) {
      out.push(
        issue(
          'SUNAT',
          '3111',
          `the line's ${line.affectation.scheme === '1016' ? 'IVAP' : 'IGV'} on ${base.toFixed(2)} rounds to 0.00; SUNAT refuses a tax of 0.00 on a taxable amount above ${floor.toFixed(2)}`,
          `items[${i}]`,
        ),
      );
    }
  });
}
