/**
 * Catalog 51 operations that carry data of their own: percepción (2001), the detracciones with transport or fishing
 * data (1002–1004), the air waybill (0301), rail passengers (0302) and the financial and insurance operations
 * (2100–2105). Their joi pieces, their model and their rules live apart from the general sales rules, so each
 * operation is read in one place (SUNAT's Factura and Boleta XSL, ValidaExprRegFactura-2.0.1.xsl): perception.ts,
 * operation-properties.ts (catalog 55), transport.ts, and the detracciones here.
 */
import { issue, type ValidationIssue } from '../errors';
import type { DocumentTotals } from '../tax/totals';
import type { SaleInput } from './types';
import { perceptionRules } from './perception';
import { propertyRules } from './operation-properties';
import { transportRules } from './transport';

export { computePerception, PERCEPTION_LEGEND, perceptionSchema, type Perception } from './perception';
export { itemPropertySchema } from './operation-properties';
export { freightSchema, railSchema } from './transport';

/** The detracción operations and the catalog 54 code each one requires (1001 takes any other). */
export const DETRACTION_OPERATIONS: Readonly<Record<string, string | null>> = {
  '1001': null,
  '1002': '004',
  '1003': '028',
  '1004': '027',
};

/** Operations 1001–1004 and their detracción come together, on facturas and boletas in soles, with the code each one covers. */
function detractionRules(input: SaleInput, out: ValidationIssue[], warnings: string[]): void {
  const d = input.detraccion;
  const op = input.tipoOperacion;
  const isDetraction = op in DETRACTION_OPERATIONS;
  if (isDetraction && !d)
    out.push(
      issue('SUNAT', '3127', `operation ${op} (sujeta a detracción) needs detraccion {codigo, cuenta}`, 'detraccion'),
    );
  if (!d) return;
  if (!isDetraction) {
    const why = op === '2001' ? ': a sale is subject to percepción or to detracción, not both' : '';
    out.push(issue('SUNAT', '3128', `detraccion belongs to operations 1001–1004, not ${op}${why}`, 'detraccion'));
  }
  if (input.tipoDoc !== '01' && input.tipoDoc !== '03')
    out.push(
      issue(
        'chasqui',
        'BR_DETRACTION_DOC',
        'the detracción is written on facturas and boletas, not on notes',
        'detraccion',
      ),
    );
  if (input.tipoMoneda !== 'PEN')
    out.push(issue('SUNAT', '3208', 'the detracción is stated in soles: issue the factura in PEN', 'tipoMoneda'));
  const required = DETRACTION_OPERATIONS[op];
  const own = Object.entries(DETRACTION_OPERATIONS).find(([, code]) => code === d.codigo)?.[0];
  if (required && d.codigo !== required) {
    out.push(
      issue(
        'SUNAT',
        '3129',
        `operation ${op} is the detracción of good or service ${required}, not ${d.codigo}`,
        'detraccion.codigo',
      ),
    );
  } else if (op === '1001' && own) {
    // Factura2_0 rows 493-495 (and the XSL) tie 1002-1004 to their code, not the code to its operation: a warning.
    warnings.push(
      `detraccion.codigo ${d.codigo} is usually declared with operation ${own}, which carries its own data; SUNAT also accepts it with 1001`,
    );
  }
}

/** Every rule of the operations above; each reports all it finds. */
export function operationRules(
  input: SaleInput,
  totals: DocumentTotals,
  out: ValidationIssue[],
  warnings: string[],
): void {
  perceptionRules(input, totals, out);
  detractionRules(input, out, warnings);
  propertyRules(input, out);
  transportRules(input, out);
}
