/** Operation 2001, the percepción: its joi piece, the amounts the XML states and SUNAT's rules on them (catalog 53). */
import Joi from 'joi';
import { Decimal } from '../decimal';
import { issue, type ValidationIssue } from '../errors';
import { codes, decimalSchema } from '../input/fields';
import type { DocumentTotals } from '../tax/totals';
import type { SaleInput } from './types';

/** Catalog 53 codes of the percepción and the rate (percent) of each regime. */
export const PERCEPTION_RATES: Readonly<Record<string, string>> = { '51': '2', '52': '1', '53': '0.5' };
export const PERCEPTION_LEGEND = 'COMPROBANTE DE PERCEPCIÓN';

export const perceptionSchema = Joi.object({
  codigo: Joi.string()
    .valid(...Object.keys(PERCEPTION_RATES))
    .required()
    .error(
      codes({
        'any.only':
          '[SUNAT 3071] {#label} must be a percepción regime of catalog 53: 51 venta interna (2 %), 52 combustible (1 %), 53 agente con tasa especial (0.5 %)',
      }),
    ),
  /** Percent; by default the regime's rate. */
  porcentaje: decimalSchema({ positive: true, maxDecimals: 3 }),
  /** What the rate applies to, in soles; by default the payable total. */
  baseImponible: decimalSchema(
    { positive: true, maxDecimals: 2 },
    { 'decimal.positive': '[SUNAT 3233] {#label} (the percepción base) must be greater than 0.00' },
  ),
});

/** The percepción as the XML states it: a charge of catalog 53 and the total the customer pays with it, in soles. */
export interface Perception {
  code: string;
  percent: Decimal;
  base: Decimal;
  amount: Decimal;
  /** Payable total plus the percepción (`PaymentTerms` Percepcion). */
  total: Decimal;
}

export function computePerception(input: SaleInput, totals: DocumentTotals): Perception | null {
  const p = input.percepcion;
  if (!p) return null;
  const percent = p.porcentaje ?? new Decimal(PERCEPTION_RATES[p.codigo]);
  const base = p.baseImponible ?? totals.importeTotal;
  const amount = base.times(percent).div(100).toDecimalPlaces(2);
  return { code: p.codigo, percent, base, amount, total: totals.importeTotal.plus(amount) };
}

export function perceptionRules(input: SaleInput, totals: DocumentTotals, out: ValidationIssue[]): void {
  const p = input.percepcion;
  const op = input.tipoOperacion;
  const credit = paymentKind(input) === 'Credito';
  if (op === '2001' && !p && !credit) {
    out.push(
      issue(
        'SUNAT',
        '3093',
        'operation 2001 (sujeta a percepción) paid Contado needs percepcion {codigo}',
        'percepcion',
      ),
    );
  }
  if (!p) return;
  if (input.tipoDoc !== '01' && input.tipoDoc !== '03')
    out.push(
      issue(
        'chasqui',
        'BR_PERCEPTION_DOC',
        'the percepción is stated on facturas and boletas, not on notes',
        'percepcion',
      ),
    );
  if (op !== '2001')
    out.push(
      issue('SUNAT', '3308', `percepcion belongs to operation 2001 (sujeta a percepción), not ${op}`, 'percepcion'),
    );
  if (credit)
    out.push(issue('SUNAT', '3330', 'the percepción is stated only on sales paid Contado, not Credito', 'percepcion'));
  if (input.tipoMoneda !== 'PEN')
    out.push(issue('SUNAT', '2788', 'the percepción is stated in soles: issue the document in PEN', 'tipoMoneda'));
  if (p.baseImponible && p.baseImponible.gt(totals.importeTotal)) {
    out.push(
      issue(
        'SUNAT',
        '2797',
        `percepcion.baseImponible ${p.baseImponible.toFixed(2)} is more than the payable total ${totals.importeTotal.toFixed(2)}`,
        'percepcion.baseImponible',
      ),
    );
  }
}

function paymentKind(input: SaleInput): 'Contado' | 'Credito' | null {
  const p = input.formaPago;
  if (p === undefined) return null;
  return typeof p === 'string' ? p : p.tipo;
}
