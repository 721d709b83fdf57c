import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { authOf } from '../auth';
import { errorBody } from './envelope';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { claimKey, completeKey, findStoredRequest, releaseKey } from '../../db/idempotency';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long a request waits for a concurrent one holding the same key before answering 409. */
const WAIT_FOR_CONCURRENT_MS = 15_000;
const POLL_MS = 50;

function requestHash(ctx: Context): string {
  return createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n`)
    .update((ctx.state.rawBody as string | undefined) ?? '')
    .digest('hex');
}

/** Set on `ctx.state.idempotency` while a request owns a key. */
export interface IdempotencyClaim {
  stored: boolean;
  /**
   * Stores the response in the handler's own transaction, so the effect and its recorded answer commit together
   * (a crash in between can never let a retry repeat the effect); the middleware then stores nothing more.
   */
  storeWithin(trx: Knex.Transaction, status: number, body: unknown): Promise<void>;
}

/** The claim of the current request, or null when it carries no Idempotency-Key. */
export function idempotencyClaim(ctx: Context): IdempotencyClaim | null {
  return (ctx.state.idempotency as IdempotencyClaim | undefined) ?? null;
}

/**
 * `Idempotency-Key` (spec 4, issue rule 1): the first request with a key runs and its response is stored per
 * (token, key), sealed; a repeat with the same method, path and body replays it, a repeat with anything else is a
 * 422. A concurrent repeat waits for the first to finish. Server errors are not stored, so the key can be retried.
 * Runs after `authenticate` and the JSON body reader.
 */
export function idempotent(deps: AppDeps): Middleware {
  return async function replayOrRecord(ctx: Context, next: Next): Promise<void> {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(422, 'Invalid Idempotency-Key', {
        errors: { 'Idempotency-Key': ['must be 1 to 255 visible ASCII characters'] },
      });
    }
    const { tokenId } = authOf(ctx);
    const hash = requestHash(ctx);
    const deadline = Date.now() + WAIT_FOR_CONCURRENT_MS;
    while (!(await claimKey(deps.db, tokenId, key, hash))) {
      const stored = await findStoredRequest(deps.db, tokenId, key);
      if (stored && stored.requestHash !== hash) {
        throw new ApiError(
          422,
          'This Idempotency-Key was already used with a different request; send a new key with a new request',
          {
            errors: { 'Idempotency-Key': ['already used with a different request body'] },
          },
        );
      }
      if (stored?.state === 'done') {
        const replay = JSON.parse(deps.secrets.open(stored.responseSealed!)) as { status: number; body: unknown };
        ctx.status = replay.status;
        ctx.body = replay.body;
        ctx.set('Idempotent-Replayed', 'true');
        return;
      }
      if (Date.now() > deadline)
        throw new ApiError(409, 'A request with this Idempotency-Key is still in progress; retry shortly');
      await delay(POLL_MS);
    }

    const store = (status: number, body: unknown, db: Db = deps.db) =>
      completeKey(db, tokenId, key, status, deps.secrets.seal(JSON.stringify({ status, body })));
    const claim: IdempotencyClaim = {
      stored: false,
      storeWithin: async (trx, status, body) => {
        await store(status, body, trx);
        // Stored only once the transaction commits; a rollback leaves the key to the failure handling below.
        trx.executionPromise.then(
          () => void (claim.stored = true),
          () => undefined,
        );
      },
    };
    ctx.state.idempotency = claim;
    try {
      await next();
    } catch (err) {
      if (claim.stored) throw err;
      if (err instanceof ApiError && err.status < 500) await store(err.status, errorBody(err));
      else await releaseKey(deps.db, tokenId, key);
      throw err;
    }
    if (claim.stored) return;
    if (ctx.status >= 500) await releaseKey(deps.db, tokenId, key);
    else await store(ctx.status, ctx.body);
  };
}
