/**
 * Node.js release lines 18 to 28 and their dates, from the Node.js Release Working Group's schedule
 * (github.com/nodejs/Release, README.md's tables and schedule.json; 26 and 27 as its README gives them after 26.0.0
 * shipped on 2026-05-05) and, for 28, the months of "Evolving the Node.js Release Schedule" (nodejs.org blog,
 * 2026) with 27's day of the month. From 27 on every line becomes LTS and has no maintenance phase; 27 and 28 start
 * with an Alpha phase. Read by `npm run check:runtime` and the start-up warning (runtime/node-support.ts); update a
 * row when the schedule moves (docs/dependencies.md, "How to upgrade"), add the next line each year.
 */
export interface NodeLine {
  line: number;
  codename?: string;
  /** First Alpha release (27 on): for testing only, never production. */
  alpha?: string;
  /** First Current release (x.0.0). */
  start: string;
  /** Active LTS from this date; absent for a line never promoted (odd lines up to 25). */
  lts?: string;
  /** Maintenance LTS (critical fixes only) from this date; absent from 27 on. */
  maintenance?: string;
  /** End of life: no fixes of any kind from this date. */
  end: string;
  /** Dates announced but not yet in schedule.json: months are firm, days are 27's. */
  planned?: true;
}

export const NODE_LINES: readonly NodeLine[] = [
  {
    line: 18,
    codename: 'Hydrogen',
    start: '2022-04-19',
    lts: '2022-10-25',
    maintenance: '2023-10-18',
    end: '2025-04-30',
  },
  { line: 19, start: '2022-10-18', maintenance: '2023-04-01', end: '2023-06-01' },
  { line: 20, codename: 'Iron', start: '2023-04-18', lts: '2023-10-24', maintenance: '2024-10-22', end: '2026-04-30' },
  { line: 21, start: '2023-10-17', maintenance: '2024-04-01', end: '2024-06-01' },
  { line: 22, codename: 'Jod', start: '2024-04-24', lts: '2024-10-29', maintenance: '2025-10-21', end: '2027-04-30' },
  { line: 23, start: '2024-10-16', maintenance: '2025-04-01', end: '2025-06-01' },
  {
    line: 24,
    codename: 'Krypton',
    start: '2025-05-06',
    lts: '2025-10-28',
    maintenance: '2026-10-20',
    end: '2028-04-30',
  },
  { line: 25, start: '2025-10-15', maintenance: '2026-04-01', end: '2026-06-01' },
  {
    line: 26,
    codename: 'Lithium',
    start: '2026-05-05',
    lts: '2026-10-28',
    maintenance: '2027-10-20',
    end: '2029-04-30',
  },
  { line: 27, alpha: '2026-10-28', start: '2027-04-22', lts: '2027-10-20', end: '2030-04-30' },
  { line: 28, alpha: '2027-10-28', start: '2028-04-22', lts: '2028-10-20', end: '2031-04-30', planned: true },
];
