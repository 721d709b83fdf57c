import DecimalJs from 'decimal.js';

/**
 * The one decimal type for money, quantities and rates. Never a float: every amount that enters as a JSON number
 * is turned into a Decimal from its textual form, and rounding happens only where SUNAT says (ROUND_HALF_UP).
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -30,
  toExpPos: 40,
});
export type Decimal = InstanceType<typeof Decimal>;

export const ZERO = new Decimal(0);

/** Decimal from a JSON number or numeric string (numbers go through their shortest round-trip text, never binary). */
export function dec(value: number | string | Decimal): Decimal {
  return new Decimal(typeof value === 'number' ? String(value) : value);
}

/** Plain text of a value with at most one decimal, padded to two ("5" → "5.00", "-0.5" → "-0.50"). */
function padTwoDecimals(value: Decimal, dp: number): string {
  const text = value.toFixed();
  return dp === 0 ? `${text}.00` : `${text}0`;
}

/** Amount with exactly two decimals, half-up: the form of every total SUNAT reads. */
export function money(value: Decimal): string {
  // Amounts are mostly rounded already: writing them needs no rounding pass (the costly part of toFixed(2)).
  const dp = value.decimalPlaces();
  if (dp === 2) return value.toFixed();
  return dp < 2 ? padTwoDecimals(value, dp) : value.toFixed(2);
}

/** Unit values and quantities: at most 10 decimals, trailing zeros kept to at least two for readability. */
export function unitValue(value: Decimal, maxDecimals = 10): string {
  const dp = value.decimalPlaces();
  if (dp > maxDecimals) return unitValue(value.toDecimalPlaces(maxDecimals), maxDecimals);
  return dp < 2 ? padTwoDecimals(value, dp) : value.toFixed();
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}
