import type { Db } from './knex';

/**
 * What the panel's overview reads of a company's documents (issue 42, docs/panel.md): both queries are range reads of
 * the index `documents_page (company_id, created_at desc, id desc)` and `documents_page_type (company_id, doc_type, …)`.
 */

/** Documents signed since `since` (the start of the Lima month), demo and production apart. */
export async function signedSince(
  db: Db,
  companyId: string,
  since: Date,
): Promise<{ demo: number; production: number }> {
  const rows: { environment: string; count: number }[] = await db('documents')
    .where({ company_id: companyId })
    .where('created_at', '>=', since)
    .groupBy('environment')
    .select('environment', db.raw('count(*)::int as count'));
  const count = (environment: string) => rows.find((r) => r.environment === environment)?.count ?? 0;
  return { demo: count('01'), production: count('02') };
}

/** Those of these companies that ever issued a document of these types (the guides: GRE credentials then apply). */
export async function companiesThatIssued(
  db: Db,
  companyIds: string[],
  docTypes: readonly string[],
): Promise<Set<string>> {
  if (!companyIds.length) return new Set();
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `select id from unnest(?::uuid[]) id
      where exists (select 1 from documents d where d.company_id = id and d.doc_type = any(?))`,
    [companyIds, [...docTypes]],
  );
  return new Set(rows.map((r) => r.id));
}
