/**
 * GS1's GTIN (Factura2_0 field 29, cac:StandardItemIdentification/cbc:ID): 8, 12, 13 or 14 digits whose last is the
 * check digit (digits from the right weighted 3, 1, 3, …; the check makes the sum a multiple of 10). SUNAT reads the
 * structure from @schemeID (GTIN-8, GTIN-12, GTIN-13, GTIN-14) and observes a length that disagrees (4334).
 */
const LENGTHS = new Set([8, 12, 13, 14]);

export function isGtin(code: string): boolean {
  if (!/^\d+$/.test(code) || !LENGTHS.has(code.length)) return false;
  let sum = 0;
  for (let i = code.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(code[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(code[code.length - 1]);
}

/** The @schemeID of a valid GTIN: its structure by length. */
export function gtinScheme(code: string): string {
  return `GTIN-${code.length}`;
}
