/**
 * What the documents tests of the catalog 51 operations, the liquidación de compra and retención/percepción share:
 * the example payloads, an independent calculation in integer arithmetic (BigInt cents, not the library's
 * decimals), and the XML pieces and issues a payload gives.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DocumentValidationError, formatIssue, prepareDocument } from '../../documents';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
export const load = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, any>;

/** A decimal text as an integer scaled by 10^scale (`"23.7288"`, 10 → 237288000000). */
export function scaled(text: string | number, scale: number): bigint {
  const [int, frac = ''] = String(text).split('.');
  return BigInt(int + frac.padEnd(scale, '0').slice(0, scale));
}

/** n / 10^scale rounded half-up to an integer (all values here are positive). */
export function roundDiv(n: bigint, divisor: bigint): bigint {
  return (n * 2n + divisor) / (2n * divisor);
}

export const cents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

/** Taxed lines at 18 %: payable total in cents, each line rounded before summing as SUNAT does. */
export function payableCents(items: { cantidad: number | string; valorUnitario: number | string }[]): bigint {
  let value = 0n;
  let igv = 0n;
  for (const it of items) {
    const line = roundDiv(scaled(it.cantidad, 10) * scaled(it.valorUnitario, 10), 10n ** 18n);
    value += line;
    igv += roundDiv(line * 18n, 100n);
  }
  return value + igv;
}

/** Σ line values in cents (each line rounded), taxes left out. */
export function valueCents(items: { cantidad: number | string; valorUnitario: number | string }[]): bigint {
  return items.reduce(
    (sum, it) => sum + roundDiv(scaled(it.cantidad, 10) * scaled(it.valorUnitario, 10), 10n ** 18n),
    0n,
  );
}

export function tag(xml: string, pattern: RegExp): string[] {
  return [...xml.matchAll(pattern)].map((m) => m[1]);
}

export function errors(payload: unknown): string[] {
  try {
    prepareDocument(payload);
  } catch (e) {
    if (e instanceof DocumentValidationError) return e.issues.map(formatIssue);
    throw e;
  }
  return [];
}
