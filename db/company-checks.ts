import type { Db } from './knex';
import type { DocumentRow } from './documents';
import { AWAITING_SUMMARY } from '../lifecycle/transitions';
import { isCheckNews, knownStatusAfter, type CheckStatus } from '../lifecycle/checks';

export type { CheckStatus };

/** Where a document's signed XML is (files/): the row's own text, or an object store's key. */
type SignedXmlColumns = Pick<DocumentRow, 'ruc' | 'xml' | 'xml_sha256' | 'xml_size'>;

/** Every company check (docs/operations.md, "Company checks"); `ose_link` / `pse_authorization` / `email_server` only where they apply. */
export const CHECK_IDS = [
  'certificate',
  'sol_credentials',
  'gre_credentials',
  'series_gaps',
  'sending_window',
  'rule_readiness',
  'ose_link',
  'pse_authorization',
  'email_server',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** Worst first: what `chasqui support checks` and the API sort by. */
export const STATUS_SEVERITY: Record<CheckStatus, number> = { fail: 3, warn: 2, unknown: 1, ok: 0 };

/** `chasqui_company_check_status`'s values (issue 26: 0 ok, 1 warn, 2 fail, 3 unknown). */
export const STATUS_GAUGE: Record<CheckStatus, number> = { ok: 0, warn: 1, fail: 2, unknown: 3 };

/** One check's answer: `fields` are the check's own (days_left, gaps, documents…). */
/** A check's outcome as code and parameters (lifecycle/messages/ `check.*`); `detail` is its English rendering. */
export type CheckMessage = { code: string; params: Record<string, unknown> };

export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  detail: string;
  /** Null only for a result recorded before checks kept one. */
  message: CheckMessage | null;
  checked_at: Date;
  fields: Record<string, unknown>;
}

export interface CheckRow {
  company_id: string;
  check: CheckId;
  status: CheckStatus;
  known_status: CheckStatus | null;
  detail: string;
  message: CheckMessage | null;
  fields: Record<string, unknown>;
  checked_at: Date;
}

export interface CheckEventRow {
  id: string;
  company_id: string;
  check: CheckId;
  status: CheckStatus;
  previous_status: CheckStatus | null;
  detail: string;
  fields: Record<string, unknown>;
  checked_at: Date;
  created_at: Date;
  webhook_started_at: Date | null;
}

/** One check as the API, the CLI and the `company.check` webhook show it: its own fields beside the common ones. */
export function presentCheck(row: Pick<CheckRow, 'check' | 'status' | 'detail' | 'fields' | 'checked_at'>) {
  return {
    ...row.fields,
    id: row.check,
    status: row.status,
    detail: row.detail,
    checked_at: new Date(row.checked_at).toISOString(),
  };
}

/** Worst first (fail, warn, unknown, ok), then in the order of CHECK_IDS. */
export function worstFirst<T extends Pick<CheckRow, 'check' | 'status'>>(rows: T[]): T[] {
  return [...rows].sort(
    (a, b) =>
      STATUS_SEVERITY[b.status] - STATUS_SEVERITY[a.status] || CHECK_IDS.indexOf(a.check) - CHECK_IDS.indexOf(b.check),
  );
}

/** The latest result of each check of these companies. */
export function listCheckRows(db: Db, companyIds: string[]): Promise<CheckRow[]> {
  return companyIds.length ? db<CheckRow>('company_checks').whereIn('company_id', companyIds) : Promise.resolve([]);
}

/** Every company's latest results with its RUC: the gauges and `chasqui support checks`. */
export function listAllCheckRows(
  db: Db,
  filter: { ruc?: string } = {},
): Promise<(CheckRow & { ruc: string; business_name: string })[]> {
  const q = db('company_checks as k')
    .join('companies as c', 'c.id', 'k.company_id')
    .select('k.*', 'c.ruc', 'c.business_name');
  if (filter.ruc) q.where('c.ruc', filter.ruc);
  return q;
}

/**
 * Stores a run's results and, in the same transaction, one event for each result that is news (lifecycle/checks.ts:
 * a move of the known status to warn or fail). Checks that no longer apply are removed. Running it twice with the same
 * results adds nothing.
 */
export async function saveCheckResults(db: Db, companyId: string, results: CheckResult[]): Promise<CheckEventRow[]> {
  return db.transaction(async (trx) => {
    const previous = new Map(
      ((await trx('company_checks').where({ company_id: companyId }).forUpdate()) as CheckRow[]).map((row) => [
        row.check,
        row,
      ]),
    );
    const events: CheckEventRow[] = [];
    for (const result of results) {
      const before = previous.get(result.id)?.known_status ?? null;
      const known = knownStatusAfter(result.status, before);
      await trx('company_checks')
        .insert({
          company_id: companyId,
          check: result.id,
          status: result.status,
          known_status: known,
          detail: result.detail,
          message: result.message && JSON.stringify(result.message),
          fields: result.fields,
          checked_at: result.checked_at,
        })
        .onConflict(['company_id', 'check'])
        .merge();
      if (isCheckNews(result.status, before)) {
        const [event] = await trx('company_check_events')
          .insert({
            company_id: companyId,
            check: result.id,
            status: result.status,
            previous_status: before,
            detail: result.detail,
            fields: result.fields,
            checked_at: result.checked_at,
          })
          .returning('*');
        events.push(event as CheckEventRow);
      }
    }
    await trx('company_checks')
      .where({ company_id: companyId })
      .whereNotIn(
        'check',
        results.map((r) => r.id),
      )
      .delete();
    return events;
  });
}

export function findCheckEvent(db: Db, id: string): Promise<CheckEventRow | undefined> {
  return db<CheckEventRow>('company_check_events').where({ id }).first();
}

/** The company's check events whose delivery was never started (a worker lost between the commit and the start). */
export function listUnnotifiedCheckEvents(db: Db, companyId: string): Promise<CheckEventRow[]> {
  return db<CheckEventRow>('company_check_events')
    .where({ company_id: companyId })
    .whereNull('webhook_started_at')
    .orderBy('created_at');
}

export async function markCheckEventNotified(db: Db, id: string): Promise<void> {
  await db('company_check_events')
    .where({ id })
    .whereNull('webhook_started_at')
    .update({ webhook_started_at: db.fn.now() });
}

/** Document types numbered by series and correlativo (summaries and voids are numbered by date). */
const NUMBERED_EXCLUDED = ['rc', 'ra', 'rr'];

export interface SeriesGaps {
  doc_type: string;
  series: string;
  lowest: number;
  highest: number;
  /** How many numbers are missing between lowest and highest. */
  missing_count: number;
  /** The first missing numbers as `SERIE-NUMERO` (at most `listLimit`). */
  missing: string[];
}

/**
 * Per series, the numbers missing between the lowest and the highest issued since `since` (a Lima date). Every stored
 * document counts as used, rejected ones too: SUNAT counts a rejected number as used as well.
 */
export async function findSeriesGaps(db: Db, companyId: string, since: string, listLimit = 50): Promise<SeriesGaps[]> {
  const { rows } = await db.raw<{
    rows: {
      doc_type: string;
      series: string;
      lowest: string;
      highest: string;
      used: string;
      missing: number[] | null;
    }[];
  }>(
    `with s as (
       select doc_type, series, min(number) as lowest, max(number) as highest
         from documents
        where company_id = :companyId and issue_date >= :since and doc_type <> all(:excluded)
        group by doc_type, series),
     u as (
       select s.*, (select count(distinct d.number) from documents d
                     where d.company_id = :companyId and d.doc_type = s.doc_type and d.series = s.series
                       and d.number between s.lowest and s.highest) as used
         from s)
     select u.doc_type, u.series, u.lowest, u.highest, u.used,
            (select array_agg(n order by n) from (
               select n from generate_series(u.lowest, u.highest) n
                where not exists (select 1 from documents d
                                   where d.company_id = :companyId and d.doc_type = u.doc_type and d.series = u.series and d.number = n)
                order by n limit :listLimit) m) as missing
       from u
      where u.highest - u.lowest + 1 > u.used
      order by u.series, u.doc_type`,
    { companyId, since, excluded: NUMBERED_EXCLUDED, listLimit },
  );
  return rows.map((r) => ({
    doc_type: r.doc_type,
    series: r.series,
    lowest: Number(r.lowest),
    highest: Number(r.highest),
    missing_count: Number(r.highest) - Number(r.lowest) + 1 - Number(r.used),
    missing: (r.missing ?? []).map((n) => `${r.series}-${n}`),
  }));
}

/** Document types with SUNAT's sending window (2108) that chasqui sends one by one. */
const WINDOW_TYPES = ['01', '03', '07', '08'];

/**
 * Documents of the company not yet accepted (no verdict), of the types with a sending window, issued on or after
 * `since`: the candidates whose window closes soon or has closed. Receipts waiting for their daily summary are left to
 * the summary.
 */
export function findUnresolvedWindowDocuments(
  db: Db,
  companyId: string,
  since: string,
  limit = 500,
): Promise<{ doc_type: string; series: string; number: string; issue_date: string; status: string }[]> {
  return db('documents')
    .select('doc_type', 'series', 'number', db.raw("to_char(issue_date, 'YYYY-MM-DD') as issue_date"), 'status')
    .where({ company_id: companyId, resolved: false })
    .whereIn('doc_type', WINDOW_TYPES)
    .whereNot('status', AWAITING_SUMMARY)
    .where('issue_date', '>=', since)
    .orderBy([{ column: 'issue_date' }, { column: 'series' }, { column: 'number' }])
    .limit(limit);
}

/** The company's documents of these types issued since `since`, with their signed XML, newest first (rule_readiness). */
export function recentSignedDocuments(
  db: Db,
  companyId: string,
  docTypes: readonly string[],
  since: string,
  limit: number,
): Promise<({ doc_type: string; series: string; number: string; issue_date: string } & SignedXmlColumns)[]> {
  return db('documents')
    .select(
      'doc_type',
      'series',
      'number',
      db.raw("to_char(issue_date, 'YYYY-MM-DD') as issue_date"),
      'ruc',
      'xml',
      'xml_sha256',
      'xml_size',
    )
    .where({ company_id: companyId })
    .whereIn('doc_type', docTypes as string[])
    .where('issue_date', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(limit);
}
