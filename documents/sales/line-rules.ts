/**
 * Rules on the lines of a sales document: IGV affectation and rate, ISC, ICBPER, their discounts and charges, and
 * operation 0112's deductible-expense line.
 */
import { MYPE_RATE_2026 } from '../calendar';
import { money, ZERO } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import { IVAP_RATE } from '../tax/rates';
import { allowedRatesText, isIgvRateInForce, type DatedRules } from './dated';
import type { SaleInput, SaleItem } from './types';

const EXPORT_OPERATIONS = new Set(['0200', '0201', '0202', '0203', '0204', '0205', '0206', '0207', '0208']);

/**
 * Factura2_0 field 28, ERROR 3181: "Si 'Tipo de operación' es '0112 Venta Interna - Sustenta Gastos Deducibles
 * Persona Natural', el comprobante no contiene ninguna línea con 'Código de producto SUNAT' con valor '84121901' o
 * '80131501'" (the factura XSL checks it on the document; the per-line variant is commented out there).
 */
const DEDUCTIBLE_EXPENSE_CODES = ['84121901', '80131501'];

export function deductibleExpenseRule(input: SaleInput, out: ValidationIssue[]): void {
  if (input.tipoDoc !== '01' || input.tipoOperacion !== '0112') return;
  if (input.items.some((item) => DEDUCTIBLE_EXPENSE_CODES.includes(item.codigoSunat ?? ''))) return;
  out.push(
    issue(
      'SUNAT',
      '3181',
      `operation 0112 (deductible expenses of a natural person) needs a line with codigoSunat ${DEDUCTIBLE_EXPENSE_CODES.join(' or ')}`,
      'items',
    ),
  );
}

export function lineRules(input: SaleInput, out: ValidationIssue[], warnings: string[], dated: DatedRules): void {
  const exportOp = EXPORT_OPERATIONS.has(input.tipoOperacion);
  let taxedRate: number | undefined;
  input.items.forEach((item, i) => {
    const path = `items[${i}]`;
    const code = item.afectacionIgv;
    if (exportOp && code !== '40') {
      out.push(
        issue(
          'SUNAT',
          '2642',
          `an export operation (${input.tipoOperacion}) needs afectacionIgv 40 on every line`,
          `${path}.afectacionIgv`,
        ),
      );
    }
    // No row of Factura2_0 (nor the invoice or boleta XSL) refuses an export line outside 0200–0208: a warning.
    if (!exportOp && code === '40')
      warnings.push(
        `${path}.afectacionIgv 40 (export) on operation ${input.tipoOperacion}: an export is usually declared with tipoOperacion 0200–0208`,
      );
    taxedRate = lineRate(input, item, path, dated, out, taxedRate);
    lineAmounts(item, path, out);
  });
}

/**
 * A line's IGV rate: IVAP's own, one the issue date allows for a taxed line (the same on every taxed line: the first
 * one's, which this returns), none on a line without IGV.
 */
function lineRate(
  input: SaleInput,
  item: SaleItem,
  path: string,
  dated: DatedRules,
  out: ValidationIssue[],
  taxedRate: number | undefined,
): number | undefined {
  const code = item.afectacionIgv;
  if (code === '17') {
    if (item.porcentajeIgv !== undefined && item.porcentajeIgv !== IVAP_RATE) {
      out.push(issue('SUNAT', '3103', 'IVAP lines (afectacionIgv 17) are taxed at 4 %', `${path}.porcentajeIgv`));
    }
    if (item.isc)
      out.push(issue('SUNAT', '3223', 'ISC cannot be combined with IVAP (afectacionIgv 17)', `${path}.isc`));
  } else if (Number(code) <= 16) {
    const rate = item.porcentajeIgv ?? dated.rates.general;
    if (!isIgvRateInForce(rate, dated)) {
      out.push(
        issue(
          'SUNAT',
          MYPE_RATE_2026.answers.rate.code,
          `porcentajeIgv ${rate} is not an IGV rate of a document issued on ${input.fechaEmision}: that date allows ${allowedRatesText(dated)}`,
          `${path}.porcentajeIgv`,
        ),
      );
    } else if (taxedRate === undefined) taxedRate = rate;
    else if (rate !== taxedRate) {
      out.push(
        issue(
          'chasqui',
          'BR_IGV_RATE_MIXED',
          `every taxed line of a document must use the same IGV rate (line 1 uses ${taxedRate} %, this one ${rate} %)`,
          `${path}.porcentajeIgv`,
        ),
      );
    }
  } else if (item.porcentajeIgv !== undefined && item.porcentajeIgv !== 0) {
    out.push(
      issue(
        'SUNAT',
        '3110',
        `afectacionIgv ${code} carries no IGV; porcentajeIgv must be 0 or omitted`,
        `${path}.porcentajeIgv`,
      ),
    );
  }
  return taxedRate;
}

/** A line's quantities and amounts: whole bags, ISC's suggested price, discounts within its value and none on a gift. */
function lineAmounts(item: SaleItem, path: string, out: ValidationIssue[]): void {
  const code = item.afectacionIgv;
  if (item.icbper && !item.cantidad.isInteger()) {
    out.push(
      issue(
        'SUNAT',
        '3236',
        'a plastic bag line (icbper) counts bags: cantidad must be a whole number',
        `${path}.cantidad`,
      ),
    );
  }
  if (item.isc?.sistema === '03' && !item.isc.precioSugerido) {
    out.push(
      issue(
        'SUNAT',
        '2373',
        'ISC system 03 (precio de venta al público) needs isc.precioSugerido',
        `${path}.isc.precioSugerido`,
      ),
    );
  }
  const gross = item.cantidad.times(item.valorUnitario);
  let discounts = ZERO;
  for (const d of item.descuentos ?? []) discounts = discounts.plus(d.monto);
  if (discounts.gt(gross.toDecimalPlaces(2))) {
    out.push(
      issue(
        'SUNAT',
        '3290',
        `the line's discounts (${money(discounts)}) exceed its value (${money(gross)})`,
        `${path}.descuentos`,
      ),
    );
  }
  if (
    Number(code) >= 11 &&
    Number(code) <= 37 &&
    code !== '17' &&
    code !== '20' &&
    code !== '30' &&
    (item.descuentos?.length || item.cargos?.length)
  ) {
    out.push(
      issue('SUNAT', '2640', 'a free transfer line carries only its referential value: no discounts or charges', path),
    );
  }
}
