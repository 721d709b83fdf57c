/** The totals an integrator may send (`totales`), checked against chasqui's to the cent, each with its SUNAT code. */
import { Decimal, money } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import type { DocumentTotals } from '../tax/totals';
import type { ClientTotals, SaleInput } from './types';

const TOLERANCE = new Decimal('0.01');

/** The integrator's totals against chasqui's: field, what chasqui computed, and the SUNAT code of the rule. */
const TOTAL_CHECKS: { field: keyof ClientTotals; code: string; value: (t: DocumentTotals) => Decimal }[] = [
  { field: 'gravadas', code: '3277', value: (t) => t.gravadas },
  { field: 'exoneradas', code: '3275', value: (t) => t.exoneradas },
  { field: 'inafectas', code: '3274', value: (t) => t.inafectas },
  { field: 'exportacion', code: '3273', value: (t) => t.exportacion },
  { field: 'gratuitas', code: '3276', value: (t) => t.gratuitas },
  { field: 'ivap', code: '3293', value: (t) => t.igvIvap },
  { field: 'igv', code: '3291', value: (t) => t.igv },
  { field: 'isc', code: '3298', value: (t) => t.isc },
  { field: 'icbper', code: '4321', value: (t) => t.icbper },
  { field: 'totalImpuestos', code: '3294', value: (t) => t.totalImpuestos },
  { field: 'valorVenta', code: '3278', value: (t) => t.valorVenta },
  { field: 'precioVenta', code: '3279', value: (t) => t.precioVenta },
  { field: 'descuentos', code: '4307', value: (t) => t.descuentos },
  { field: 'cargos', code: '4308', value: (t) => t.cargos },
  { field: 'anticipos', code: '3282', value: (t) => t.anticipos },
  { field: 'importeTotal', code: '3280', value: (t) => t.importeTotal },
];

export function clientTotalsRules(input: SaleInput, totals: DocumentTotals, out: ValidationIssue[]): void {
  const sent = input.totales;
  if (!sent) return;
  for (const check of TOTAL_CHECKS) {
    const given = sent[check.field];
    if (given === undefined) continue;
    const expected = check.value(totals).toDecimalPlaces(2);
    if (given.minus(expected).abs().gte(TOLERANCE)) {
      out.push(
        issue(
          'SUNAT',
          check.code,
          `totales.${check.field} is ${money(given)} but the lines give ${money(expected)}`,
          `totales.${check.field}`,
        ),
      );
    }
  }
}
