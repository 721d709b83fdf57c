/**
 * `npm run bench:list`: GET /v1/cpe's query (db/documents.ts listDocuments, the code the API runs) on a table of
 * 1,000,000 documents, p50/p99 per filter, first page and a page deep in the list. Embedded PostgreSQL, one core.
 * The company under test holds half the table (the worst case: a filter cannot lean on a small company).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { getTestDb, stopTestServices } from '../test/support/services';
import { listDocuments, listQuery, type DocumentFilter } from '../db/document-lists';
import type { Db } from '../db/knex';

const TOTAL = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

async function main(): Promise<void> {
  const db = await getTestDb();
  const [account] = await db('accounts').insert({ name: 'bench list', quota_units: 0 }).returning('id');
  const companies: string[] = [];
  for (let i = 0; i < 51; i++) {
    const ruc = `20${String(900_000_00 + i).padStart(8, '0')}`;
    const [row] = await db('companies')
      .insert({
        account_id: account.id,
        ruc: ruc + '0',
        business_name: `Bench ${i}`,
        plan_type: '01',
        environment: '01',
      })
      .returning('id');
    companies.push(row.id);
  }
  const big = companies[0];
  const loadStarted = performance.now();
  // Half the rows for the big company, the rest spread over 50 others; a year of issue dates, created in order.
  await db.raw(
    `insert into documents (account_id, company_id, ruc, doc_type, series, number, filename, issue_date, environment,
                            destination, signed_by, status, status_code, resolved, hash, xml, customer_doc, result,
                            created_at, updated_at, resolved_at, workflow_started_at)
     select ?, c.id, c.ruc, t.doc_type, t.series, g, c.ruc || '-' || t.doc_type || '-' || t.series || '-' || g,
            (date '2026-01-01' + (g * 365 / ?)::int), '01', 'tax_authority', 'provider_certificate',
            s.status, s.code, s.resolved, md5(g::text), '<xml/>', lpad((g % 10000)::text, 11, '2'),
            case when s.status = 'sent' then '{"origin":"timeout","code":null,"message":"timeout"}'::jsonb end,
            timestamptz '2026-01-01' + make_interval(secs => (g * 31536000.0 / ?)::float8),
            now(), case when s.resolved then now() end, now()
       from generate_series(1, ?) g
       join lateral (select case when g % 2 = 0 then ?::uuid else (array[${companies
         .slice(1)
         .map(() => '?::uuid')
         .join(',')}])[(1 + g % 50)::int] end as id) ci on true
       join companies c on c.id = ci.id
       join lateral (select case when g % 20 < 12 then '01' when g % 20 < 18 then '03' else '07' end as doc_type) d on true
       join lateral (select d.doc_type, case when d.doc_type = '03' then 'B00' || (1 + g % 2) else 'F00' || (1 + g % 4) end as series) t on true
       join lateral (select case when g % 1000 < 900 then 'accepted' when g % 1000 < 950 then 'observed' when g % 1000 < 980 then 'rejected'
                                 when g % 1000 < 990 then 'sent' when g % 1000 < 995 then 'registered' else 'queued' end as status) st on true
       join lateral (select st.status, case st.status when 'accepted' then '06' when 'observed' then '07' when 'rejected' then '09'
                                 when 'sent' then '05' when 'registered' then '04' else '01' end as code,
                            st.status in ('accepted', 'observed', 'rejected') as resolved) s on true`,
    [account.id, TOTAL, TOTAL, TOTAL, big, ...companies.slice(1)],
  );
  await db.raw('analyze documents');
  console.log(
    `loaded ${TOTAL.toLocaleString('en')} documents in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s (company under test: ${(TOTAL / 2).toLocaleString('en')})`,
  );

  const cases: [string, Omit<DocumentFilter, 'limit' | 'companyId'>][] = [
    ['no filter', {}],
    ['status=rejected', { statuses: ['rejected'] }],
    ['status=sent,registered,queued', { statuses: ['sent', 'registered', 'queued'] }],
    ['tipoDoc=07', { docType: '07' }],
    ['serie=F003', { series: 'F003' }],
    ['serie=F003&correlativo=N', { series: 'F003', number: 500_002 }],
    ['desde/hasta (one month)', { issuedFrom: '2026-06-01', issuedTo: '2026-06-30' }],
    ['desde/hasta (one day, old)', { issuedFrom: '2026-01-15', issuedTo: '2026-01-15' }],
    ['resolved=false', { resolved: false }],
    ['resolved=true', { resolved: true }],
    ['cliente=N', { customerDoc: '22222224242' }],
    ['tipoDoc=01&status=rejected&desde', { docType: '01', statuses: ['rejected'], issuedFrom: '2026-10-01' }],
  ];
  console.log(
    `load average before measuring: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${os.cpus().length} cores)`,
  );
  console.log(
    'end to end: listDocuments through knex and pg, in this (pinned) process; in PostgreSQL: EXPLAIN ANALYZE execution time and buffers touched',
  );
  console.log(
    `\n${'filter (limit 50)'.padEnd(36)} ${'first page'.padStart(22)} ${'page 101 (before = row 5,000)'.padStart(30)}  rows   ${'in PostgreSQL, first page'.padStart(34)}`,
  );
  for (const [label, filter] of cases) {
    const first = await measure(() => listDocuments(db, { ...filter, companyId: big, limit: 50 }));
    // A cursor as a client holds it after 100 pages of the same filter.
    const walked = await listDocuments(db, { ...filter, companyId: big, limit: 5000 });
    const cursor = walked.length ? walked[walked.length - 1].id : undefined;
    const deep = await measure(() => listDocuments(db, { ...filter, companyId: big, limit: 50, before: cursor }));
    const inside = await explain(db, { ...filter, companyId: big, limit: 50 });
    console.log(
      `${label.padEnd(36)} p50 ${first.p50} p99 ${first.p99} ms   p50 ${deep.p50} p99 ${deep.p99} ms       ${`${first.rows}/${deep.rows}`.padEnd(6)} p50 ${inside.p50} p99 ${inside.p99} ms ${String(inside.buffers).padStart(5)} buffers`,
    );
  }
  await db('companies').whereIn('id', companies).delete();
  await db('accounts').where({ id: account.id }).delete();
  await stopTestServices();
}

/** PostgreSQL's own execution time (no client, no network, no Node scheduling) and the pages the plan touched. */
async function explain(db: Db, filter: DocumentFilter): Promise<{ p50: string; p99: string; buffers: number }> {
  const { sql, bindings } = listQuery(db, filter).toSQL();
  const times: number[] = [];
  let buffers = 0;
  for (let i = 0; i < RUNS; i++) {
    const { rows } = await db.raw(`explain (analyze, buffers, format json) ${sql}`, bindings as never);
    const plan = rows[0]['QUERY PLAN'][0];
    times.push(plan['Execution Time']);
    buffers = plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'];
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2).padStart(6);
  return { p50: at(0.5), p99: at(0.99), buffers };
}

async function measure(run: () => Promise<unknown[]>): Promise<{ p50: string; p99: string; rows: number }> {
  let rows = 0;
  for (let i = 0; i < 5; i++) rows = (await run()).length;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1).padStart(6);
  return { p50: at(0.5), p99: at(0.99), rows };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
