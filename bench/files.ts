/**
 * `npm run bench:files [-- --documents N]`: what one accepted invoice costs in PostgreSQL with each file store, and in
 * the bucket with S3 (issue 36). Issues N invoices (default 300, four integrators at once) through the real API,
 * worker and simulator, with CHASQUI_FILES_URL=postgres: and then s3://… against a real S3-compatible server
 * (versitygw), waits for every verdict, and reports the growth of every table of chasqui's database (indexes and TOAST
 * included, as bench:soak counts it) and of the bucket, per document. docs/files.md and docs/deploy.md carry the result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startIssuingStack, newCompany, payload, issue, until } from '../test/issuing/support';
import { startTestS3 } from '../test/support/s3';
import { getTestDb, stopTestServices } from '../test/support/services';
import type { Config } from '../core/config';
import type { Db } from '../db/knex';

/** Bytes of every table of the database, its indexes and TOAST included (as bench:soak counts them). */
async function tableBytes(db: Db): Promise<Map<string, number>> {
  const { rows } = await db.raw(
    `select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'm', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
  );
  return new Map(rows.map((r: { name: string; bytes: number }) => [r.name, r.bytes]));
}

const sum = (tables: Map<string, number>) => [...tables.values()].reduce((a, b) => a + b, 0);

function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? directoryBytes(full) : fs.statSync(full).size;
  }
  return total;
}

async function run(label: string, documents: number, config: Partial<Config>): Promise<number> {
  // SUNAT's stand-in given time to answer on a loaded machine: the bench counts bytes, not latency.
  const s = await startIssuingStack({
    rateLimitPerMinute: 1_000_000,
    accountRateLimitPerMinute: 0,
    authorityTimeouts: { connectMs: 5_000, responseMs: 30_000 },
    ...config,
  });
  try {
    const company = await newCompany(s.stack);
    const db = await getTestDb();
    // Compacted first and last: what a long-running database grows by once autovacuum reuses the space of the
    // row versions each document's updates leave (its send and its outcome rewrite the row), and the raw growth.
    await db.raw('vacuum full');
    const before = await tableBytes(db);
    let next = 0;
    const ids: string[] = [];
    const integrator = async () => {
      while (next < documents) {
        next++;
        const res = await issue(s.stack, company.token, payload('invoice-basic.json', company.ruc));
        if (res.status !== 202) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
        ids.push(res.body.external_id);
      }
    };
    await Promise.all([integrator(), integrator(), integrator(), integrator()]);
    for (const id of ids) await until(s.stack, id, ['accepted'], 300_000);
    const raw = sum(await tableBytes(db)) - sum(before);
    console.log(`${label}: PostgreSQL grew ${(raw / ids.length).toFixed(0)} bytes per document right after the run`);
    await db.raw('vacuum full');
    const after = await tableBytes(db);
    const grown = sum(after) - sum(before);
    const largest = [...after]
      .map(([name, bytes]) => [name, (bytes - (before.get(name) ?? 0)) / ids.length] as const)
      .filter(([, bytes]) => bytes > 0)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 6);
    console.log(
      `${label}: by table, bytes per document: ${largest.map(([n, b]) => `${n} ${b.toFixed(0)}`).join(', ')}`,
    );
    console.log(
      `${label}: PostgreSQL grew ${(grown / 1024).toFixed(0)} KB for ${ids.length} documents: ${(grown / ids.length).toFixed(0)} bytes per document`,
    );
    // Where a documents row's bytes go: its columns (as stored, compressed or not) and the table's indexes.
    const columns: string[] = await db('information_schema.columns')
      .where({ table_name: 'documents' })
      .pluck('column_name');
    const [sizes] = await db('documents')
      .where({ company_id: company.row.id })
      .select(columns.map((c) => db.raw('avg(coalesce(pg_column_size(??), 0))::float8 as ??', [c, c])));
    const { rows: indexes } = await db.raw(
      `select indexrelname as name, pg_relation_size(indexrelid)::float8 as bytes from pg_stat_user_indexes where relname = 'documents'`,
    );
    const [{ n: rows }] = await db('documents').count('* as n');
    const columnBytes = Object.entries(sizes as Record<string, number>)
      .filter(([, b]) => b > 0)
      .sort((x, y) => y[1] - x[1]);
    console.log(
      `${label}: a documents row's columns, bytes: ${columnBytes.map(([n, b]) => `${n} ${b.toFixed(0)}`).join(', ')}`,
    );
    console.log(
      `${label}: documents' indexes, bytes per row: ${indexes.map((x: { name: string; bytes: number }) => `${x.name} ${(x.bytes / Number(rows)).toFixed(0)}`).join(', ')}`,
    );
    return grown / ids.length;
  } finally {
    await s.stop();
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--documents');
  const documents = at > 0 ? Number(process.argv[at + 1]) : 300;
  const s3 = await startTestS3({ prefix: 'bench' });
  try {
    const postgres = process.argv.includes('--s3-only') ? NaN : await run('postgres:', documents, {});
    const bucketBefore = directoryBytes(path.join(s3.dataDir, 'objects'));
    const inS3 = await run('s3://', documents, { files: s3.location });
    const bucket = (directoryBytes(path.join(s3.dataDir, 'objects')) - bucketBefore) / documents;
    console.log(`s3://: the bucket grew ${bucket.toFixed(0)} bytes per document (signed XML + CDR zip, file bytes)`);
    console.log(
      `per document: postgres: ${postgres.toFixed(0)} B in PostgreSQL; s3:// ${inS3.toFixed(0)} B in PostgreSQL + ${bucket.toFixed(0)} B in the bucket`,
    );
  } finally {
    await s3.stop();
    await stopTestServices();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
