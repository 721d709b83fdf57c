import type { Db } from './knex';

/** The size and age the printed cache keeps to (CHASQUI_PDF_CACHE_MB, CHASQUI_PDF_CACHE_DAYS). */
export interface PrintedCacheBounds {
  maxBytes: number;
  maxAgeSeconds: number;
}

/** A PDF rendered within the age bound under this key, or null. */
export async function findPrintedPdf(db: Db, key: string, bounds: PrintedCacheBounds): Promise<Buffer | null> {
  if (!bounds.maxBytes) return null;
  const { rows } = await db.raw<{ rows: { pdf: Buffer }[] }>(
    `select pdf from printed_cache where key = ? and created_at > now() - make_interval(secs => ?::double precision)`,
    [key, bounds.maxAgeSeconds],
  );
  return rows[0]?.pdf ?? null;
}

/**
 * Keeps a PDF under its key, then drops what is past the age bound and, newest first, whatever no longer fits the
 * size bound: one statement per render, none per hit (the row just written is never among them: a data-changing
 * CTE's delete does not see its insert). A PDF larger than a quarter of the bound is not kept.
 */
export async function keepPrintedPdf(db: Db, key: string, pdf: Buffer, bounds: PrintedCacheBounds): Promise<void> {
  if (!bounds.maxBytes || pdf.length > bounds.maxBytes / 4) return;
  await db.raw(
    `with kept as (
       insert into printed_cache (key, pdf, size) values (?, ?, ?)
       on conflict (key) do update set pdf = excluded.pdf, size = excluded.size, created_at = now()
     )
     delete from printed_cache where key <> ? and key in (
       select key from (
         select key, created_at, sum(size) over (order by created_at desc, key) as held from printed_cache
       ) t where held > ?::bigint or created_at <= now() - make_interval(secs => ?::double precision)
     )`,
    [key, pdf, pdf.length, key, bounds.maxBytes - pdf.length, bounds.maxAgeSeconds],
  );
}
