import type { Db } from './knex';
import type { CompanyRow } from './companies';

/**
 * What the panel's issue form proposes from a company's own documents (docs/panel.md): the series it used last and
 * the next number of a series, the customers it invoiced lately. Each query reads a bounded window of the newest rows
 * or one index lookup, whatever the company's history.
 */

/** How many of the newest documents the proposals look at. */
const WINDOW = 500;

/** The series the company used lately for each sale type, newest first. */
export async function recentSeries(
  db: Db,
  company: Pick<CompanyRow, 'id' | 'environment'>,
): Promise<Array<{ doc_type: string; series: string }>> {
  const { rows } = await db.raw(
    `select doc_type, series from (
       select doc_type, series, created_at from documents
        where company_id = ? and environment = ? and doc_type in ('01', '03', '07', '08')
        order by created_at desc limit ${WINDOW}) newest
      group by doc_type, series order by max(created_at) desc limit 40`,
    [company.id, company.environment],
  );
  return rows;
}

/** The number after the last one of a series (1 for a new series): one look at the one-number index. */
export async function nextNumber(
  db: Db,
  company: Pick<CompanyRow, 'ruc' | 'environment'>,
  docType: string,
  series: string,
): Promise<number> {
  const row = await db('documents')
    .where({ ruc: company.ruc, environment: company.environment, doc_type: docType, series })
    .max<{ max: number | null }>('number as max')
    .first();
  return Number(row?.max ?? 0) + 1;
}

/** The customers' document numbers the company invoiced lately, newest first (at most 30); '-' (none) is no customer. */
export async function recentCustomers(db: Db, companyId: string): Promise<string[]> {
  const { rows } = await db.raw(
    `select customer_doc from (
       select customer_doc, created_at from documents
        where company_id = ? and customer_doc is not null and customer_doc <> '-' and doc_type in ('01', '03')
        order by created_at desc limit ${WINDOW}) newest
      group by customer_doc order by max(created_at) desc limit 30`,
    [companyId],
  );
  return rows.map((r: { customer_doc: string }) => r.customer_doc);
}
