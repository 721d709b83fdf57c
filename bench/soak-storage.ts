/** What bench:soak's databases and bucket hold, read before and after the run (bench/soak.ts says how it is reported). */
import { Client as PgClient } from 'pg';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { ProductionShape } from '../test/support/production-shape';
import { createDb } from '../db/knex';
import { pruneSettledDeliveries } from '../db/webhooks';
import { SETTLED_DELIVERY_STATUSES } from '../lifecycle/webhooks';
import { PRUNE_BATCH } from '../activities/webhook-history';

export const DATABASES = ['chasqui', 'temporal', 'temporal_visibility'] as const;

/** Bytes of every table of each database (with its indexes and TOAST) and the largest tables. */
export async function storage(
  shape: ProductionShape,
): Promise<Map<string, { total: number; tables: Map<string, number> }>> {
  const out = new Map<string, { total: number; tables: Map<string, number> }>();
  for (const database of DATABASES) {
    const db = new PgClient({ connectionString: shape.pgUrl(database) });
    await db.connect();
    try {
      const { rows } = await db.query(
        `select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'm', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
      );
      const tables = new Map<string, number>(rows.map((r) => [r.name, r.bytes]));
      out.set(database, { total: [...tables.values()].reduce((a, b) => a + b, 0), tables });
    } finally {
      await db.end();
    }
  }
  return out;
}

/** chasqui's database after VACUUM FULL: bytes of each table (with its TOAST) and each index. */
export async function compacted(shape: ProductionShape): Promise<Map<string, number>> {
  const db = new PgClient({ connectionString: shape.pgUrl() });
  await db.connect();
  try {
    await db.query('vacuum full');
    const { rows } = await db.query(
      `select c.relname as name, (case when c.relkind = 'i' then pg_relation_size(c.oid) else pg_table_size(c.oid) end)::float8 as bytes
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'i', 'm', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
    );
    return new Map(rows.map((r) => [r.name, r.bytes]));
  } finally {
    await db.end();
  }
}

/** Bytes in the shape's bucket (all of it chasqui's: the bucket starts empty). */
export async function bucketBytes(shape: ProductionShape): Promise<number> {
  const s3 = shape.s3!;
  let bytes = 0;
  let continuation: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: s3.location.bucket, ContinuationToken: continuation }),
    );
    for (const object of page.Contents ?? []) bytes += object.Size ?? 0;
    continuation = page.NextContinuationToken;
  } while (continuation);
  return bytes;
}

/**
 * The minute sweeper's prune, run as if `days` + 1 days had passed, until nothing is left to delete: what
 * PostgreSQL keeps of the run's webhook deliveries once the history window is over. Answers how many went.
 */
export async function pruneAfterRetention(shape: ProductionShape, days: number): Promise<number> {
  const db = createDb(shape.pgUrl(), { min: 0, max: 1 });
  const later = new Date(Date.now() + (days + 1) * 86_400_000);
  try {
    for (let pruned = 0; ;) {
      const count = await pruneSettledDeliveries(db, SETTLED_DELIVERY_STATUSES, days, PRUNE_BATCH, later);
      if (count === 0) return pruned;
      pruned += count;
    }
  } finally {
    await db.destroy();
  }
}
