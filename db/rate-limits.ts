import type { Db } from './knex';

export interface RateWindow {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/**
 * Counts one request of a token in the current one-minute window of the database clock, so every API instance
 * shares the same counter (a fixed-window limiter: one upserted row per token per minute).
 */
export async function countRequest(db: Db, tokenId: string): Promise<RateWindow> {
  const { rows } = await db.raw(
    `insert into rate_limit_windows (token_id, window_start, count)
       values (?, date_trunc('minute', now()), 1)
     on conflict (token_id, window_start) do update set count = rate_limit_windows.count + 1
     returning count, window_start,
       greatest(1, ceil(extract(epoch from (window_start + interval '1 minute' - now()))))::int as reset_seconds`,
    [tokenId],
  );
  const row = rows[0] as { count: number; window_start: Date; reset_seconds: number };
  if (row.count === 1) {
    // First request of a new window: the token's older windows are history.
    await db('rate_limit_windows').where({ token_id: tokenId }).where('window_start', '<', row.window_start).delete();
  }
  return { count: row.count, resetSeconds: row.reset_seconds };
}
