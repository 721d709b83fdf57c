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
  'admit_request_expiring',
  `insert into rate_limit_log as l (token_id, hits, kind, expires_at)
   values ($1, array[statement_timestamp()], $4, statement_timestamp() + make_interval(secs => $3))
   on conflict (token_id) do update set hits = (
     select case when count(*) < $2 then coalesce(array_agg(h order by h), '{}') || statement_timestamp()
                 else coalesce(array_agg(h order by h), '{}') end
       from unnest(l.hits) h
      where h > statement_timestamp() - make_interval(secs => $3)),
     -- No hit of the row is in any window after this: from then on the row is dead weight, swept below.
     expires_at = statement_timestamp() + make_interval(secs => $3)
   returning hits[cardinality(hits)] = statement_timestamp() as admitted,
     cardinality(hits) as count,
     greatest(1, ceil(extract(epoch from ((select min(h) from unnest(hits) h) + make_interval(secs => $3) - statement_timestamp()))))::int as reset_seconds`,
);

/**
 * A sliding-log limiter in PostgreSQL, so every API instance shares it: one row per token holding the times of the
 * requests admitted in the last `windowSeconds` (at most `limit` of them), and until when any of them matters. The upsert locks the row, so concurrent
 * requests of one token are decided one after the other; a refused request is not recorded. Admitted is read back as
 * "the log now ends with this statement's timestamp".
 */
export async function admitRequest(
  db: Db,
  tokenId: string,
  limit: number,
  windowSeconds: number,
  kind: string | null = null,
): Promise<RateDecision> {
  const [row] = await run<{ admitted: boolean; count: number; reset_seconds: number }>(db, ADMIT_REQUEST, [
    tokenId,
    limit,
    windowSeconds,
    kind,
  ]);
  return { admitted: row.admitted, count: row.count, resetSeconds: row.reset_seconds };
}

/** Expired rows deleted per keyed request: more than one request can create, so expired rows never pile up. */
export const SWEEP_BATCH = 100;

const SWEEP_EXPIRED = statement(
  'sweep_rate_limit_log',
  `delete from rate_limit_log where token_id in (
     select token_id from rate_limit_log where expires_at < statement_timestamp()
      order by expires_at limit $1 for update skip locked)`,
);

const KEY_STATE = statement(
  'rate_limit_key_state',
  `select exists(select 1 from rate_limit_log where token_id = $1 and expires_at >= statement_timestamp()) as known,
          (select count(*)::int from (select 1 from rate_limit_log
             where kind = $2 and expires_at >= statement_timestamp() limit $3) live) as live`,
);

/** A key as the log's uuid column holds it. */
const keyId = (key: string) => {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The same limiter for what is not a token (a document's "send again", a client address on /consulta or the console's
 * sign-in, an account's buyer e-mails): the key, prefixed by what it limits so two kinds of keys never share a log, is
 * hashed into the log's uuid column. The table stays bounded whatever keys arrive (docs/security.md): each call first
 * deletes up to SWEEP_BATCH expired rows; and with `bound`, once `maxKeys` keys of that kind are live, a key not yet
 * seen is charged to the kind's one overflow log, so a flood of new addresses shares a single limit instead of adding
 * a row each (at most `maxKeys` + 1 rows a kind, give or take the requests racing at the edge).
 */
export async function admitKeyed(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
  bound?: { kind: string; maxKeys: number },
): Promise<RateDecision & { overflow: boolean }> {
  await run(db, SWEEP_EXPIRED, [SWEEP_BATCH]);
  let id = keyId(key);
  let overflow = false;
  if (bound) {
    const [state] = await run<{ known: boolean; live: number }>(db, KEY_STATE, [id, bound.kind, bound.maxKeys]);
    overflow = !state.known && state.live >= bound.maxKeys;
    if (overflow) id = keyId(`${bound.kind}:overflow`);
  }
  return { ...(await admitRequest(db, id, limit, windowSeconds, bound?.kind ?? null)), overflow };
}

const PEEK = statement(
  'rate_limit_peek',
  `select count(h)::int as count,
          greatest(1, ceil(extract(epoch from (min(h) + make_interval(secs => $2) - statement_timestamp()))))::int
            as reset_seconds
     from rate_limit_log l cross join lateral unnest(l.hits) h
    where l.token_id = $1 and h > statement_timestamp() - make_interval(secs => $2)`,
);

/** What `admitKeyed` would find for `key` now, without counting a request: the requests in the window. */
export async function peekKeyed(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; resetSeconds: number }> {
  const [row] = await run<{ count: number; reset_seconds: number | null }>(db, PEEK, [keyId(key), windowSeconds]);
  return { count: row?.count ?? 0, resetSeconds: row?.reset_seconds ?? 1 };
}
