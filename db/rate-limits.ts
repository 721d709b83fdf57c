import { createHash } from 'node:crypto';
import { run, statement, type Db } from './knex';

export interface RateDecision {
  admitted: boolean;
  /** Requests admitted in the window, this one included when admitted. */
  count: number;
  /** Seconds until the oldest admitted request leaves the window, i.e. until one more is admitted when none is left (at least 1). */
  resetSeconds: number;
}

const ADMIT_REQUEST = statement(
  'admit_request',
  `insert into rate_limit_log as l (token_id, hits) values ($1, array[statement_timestamp()])
   on conflict (token_id) do update set hits = (
     select case when count(*) < $2 then coalesce(array_agg(h order by h), '{}') || statement_timestamp()
                 else coalesce(array_agg(h order by h), '{}') end
       from unnest(l.hits) h
      where h > statement_timestamp() - make_interval(secs => $3))
   returning hits[cardinality(hits)] = statement_timestamp() as admitted,
     cardinality(hits) as count,
     greatest(1, ceil(extract(epoch from ((select min(h) from unnest(hits) h) + make_interval(secs => $3) - statement_timestamp()))))::int as reset_seconds`,
);

/**
 * A sliding-log limiter in PostgreSQL, so every API instance shares it: one row per token holding the times of the
 * requests admitted in the last `windowSeconds` (at most `limit` of them). The upsert locks the row, so concurrent
 * requests of one token are decided one after the other; a refused request is not recorded. Admitted is read back as
 * "the log now ends with this statement's timestamp".
 */
export async function admitRequest(
  db: Db,
  tokenId: string,
  limit: number,
  windowSeconds: number,
): Promise<RateDecision> {
  const [row] = await run<{ admitted: boolean; count: number; reset_seconds: number }>(db, ADMIT_REQUEST, [
    tokenId,
    limit,
    windowSeconds,
  ]);
  return { admitted: row.admitted, count: row.count, resetSeconds: row.reset_seconds };
}

/**
 * The same limiter for what is not a token (a document's "send again", a client address on /consulta): the key is
 * hashed into the log's uuid column, prefixed by what it limits so two kinds of keys never share a log.
 */
export function admitKeyed(db: Db, key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
  const hex = createHash('sha256').update(key).digest('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  return admitRequest(db, id, limit, windowSeconds);
}
