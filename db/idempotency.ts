import type { Db } from './knex';

/** How long a stored response answers a repeated key; after that the key may be used afresh. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claim older than this belongs to a request that died mid-way; another request may take the key over. */
export const ABANDONED_CLAIM_SECONDS = 120;

export interface StoredRequest {
  requestHash: string;
  state: 'in_progress' | 'done';
  responseStatus: number | null;
  responseSealed: string | null;
}

/**
 * Insert-first claim of (token, key): true when this request owns the key and must produce the response.
 * The row is written before the work starts, so of two concurrent requests only one ever runs the handler.
 */
export async function claimKey(db: Db, tokenId: string, key: string, requestHash: string): Promise<boolean> {
  const { rows } = await db.raw(
    `insert into idempotency_keys (token_id, key, request_hash, state) values (?, ?, ?, 'in_progress')
     on conflict (token_id, key) do update
       set request_hash = excluded.request_hash, state = 'in_progress', response_status = null,
           response_sealed = null, created_at = now()
       where idempotency_keys.created_at < now() - make_interval(hours => ?)
          or (idempotency_keys.state = 'in_progress' and idempotency_keys.created_at < now() - make_interval(secs => ?))
     returning key`,
    [tokenId, key, requestHash, IDEMPOTENCY_TTL_HOURS, ABANDONED_CLAIM_SECONDS],
  );
  return rows.length === 1;
}

export async function findStoredRequest(db: Db, tokenId: string, key: string): Promise<StoredRequest | null> {
  const row = await db('idempotency_keys').where({ token_id: tokenId, key }).first();
  if (!row) return null;
  return {
    requestHash: row.request_hash,
    state: row.state,
    responseStatus: row.response_status,
    responseSealed: row.response_sealed,
  };
}

export async function completeKey(db: Db, tokenId: string, key: string, status: number, sealed: string): Promise<void> {
  await db('idempotency_keys')
    .where({ token_id: tokenId, key })
    .update({ state: 'done', response_status: status, response_sealed: sealed });
}

/** Frees the key after a failure that must not be replayed (a crash or a 5xx): the client may retry with it. */
export async function releaseKey(db: Db, tokenId: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ token_id: tokenId, key, state: 'in_progress' }).delete();
}
