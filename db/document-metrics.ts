/** What the metrics read of `documents` at scrape time (the verdicts are counted where they are recorded). */
import type { Db } from './knex';
import { AGE_BUCKETS } from '../core/metrics';

/** Unresolved documents by status and age bucket (the `chasqui_unresolved_documents` gauge). */
export async function countUnresolvedByAge(db: Db): Promise<{ status: string; age: string; count: number }[]> {
  const cases = AGE_BUCKETS.filter((b) => Number.isFinite(b.seconds))
    .map((b) => `when created_at > now() - interval '${b.seconds} seconds' then '${b.label}'`)
    .join(' ');
  const { rows } = await db.raw(
    `select status, case ${cases} else '${AGE_BUCKETS[AGE_BUCKETS.length - 1].label}' end as age, count(*)::int as count
       from documents where not resolved group by 1, 2`,
  );
  return rows;
}
