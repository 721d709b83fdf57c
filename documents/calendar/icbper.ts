/**
 * The ICBPER per plastic bag by the document's issue date (Ley 30884, its rates by year: S/ 0.10 in 2019 rising by
 * 0.10 a year to 0.50 from 2023 on), as data: the totals read it here, like every other dated value of the calendar.
 * A date before 2019 takes the first year's (chasqui has always charged it so).
 */
import { Decimal } from '../decimal';

/** Each year's rate from its first day, in date order; the last applies from its year on. */
export const ICBPER_BY_YEAR: readonly { from: string; perBag: string }[] = [
  { from: '2019-01-01', perBag: '0.10' },
  { from: '2020-01-01', perBag: '0.20' },
  { from: '2021-01-01', perBag: '0.30' },
  { from: '2022-01-01', perBag: '0.40' },
  { from: '2023-01-01', perBag: '0.50' },
];

/** The ICBPER per bag of a document issued on `issueDate` (YYYY-MM-DD). */
export function icbperRate(issueDate: string): Decimal {
  const step = [...ICBPER_BY_YEAR].reverse().find((s) => s.from <= issueDate) ?? ICBPER_BY_YEAR[0];
  return new Decimal(step.perBag);
}
