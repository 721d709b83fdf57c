import type { Db } from './knex';

/**
 * How many documents a company issued in a date range and how many bytes of XML and CDR they hold: the panel's export
 * (docs/panel.md) is refused past its bounds before anything is sent. A CDR kept in the row is base64 text.
 */
export async function exportSize(
  db: Db,
  companyId: string,
  from: string,
  to: string,
): Promise<{ count: number; bytes: number }> {
  const { rows } = await db.raw(
    `select count(*)::int as count,
            coalesce(sum(coalesce(xml_size, octet_length(xml), 0)
                         + coalesce(cdr_size, octet_length(cdr_zip) * 3 / 4, 0)), 0)::bigint as bytes
       from documents where company_id = ? and issue_date between ? and ?`,
    [companyId, from, to],
  );
  return { count: rows[0].count, bytes: Number(rows[0].bytes) };
}
