import type { AppDeps } from './deps';
import { ApiError } from './errors';
import { HeavyFailedError, HeavyRefusedError } from '../heavy/pool';
import type { HeavyKind, HeavyTasks } from '../heavy/tasks';

/**
 * A task of the heavy-work pool for the API (docs/security.md, "Availability"): past the account's queue a 429, past
 * the pool's a 503, both with Retry-After and the bound named; a task ended past its time or memory answered as
 * `failed` says (a PDF: 503; an upload or a document: 422, it is what costs).
 */
export async function runHeavy<K extends HeavyKind>(
  deps: AppDeps,
  account: string,
  kind: K,
  input: Parameters<HeavyTasks[K]>[0],
  options: { timeoutMs?: number; failed: (err: HeavyFailedError) => ApiError },
): Promise<Awaited<ReturnType<HeavyTasks[K]>>> {
  try {
    return await deps.heavy.run(account, kind, input, options.timeoutMs);
  } catch (err) {
    if (err instanceof HeavyRefusedError) throw refused(err);
    if (err instanceof HeavyFailedError) throw options.failed(err);
    throw err;
  }
}

/** Refuses now, as `runHeavy` would, when the pool would not take a task of `account`: before costly preparation. */
export function admitHeavy(deps: AppDeps, account: string): void {
  const refusal = deps.heavy.refusalFor(account);
  if (refusal) throw refused(refusal);
}

function refused(err: HeavyRefusedError): ApiError {
  return new ApiError(err.bound === 'account' ? 429 : 503, err.message, {
    headers: { 'Retry-After': String(err.retryAfterSeconds) },
    data: { bound: err.bound === 'account' ? 'account_queue' : 'pool_queue' },
  });
}

/** Whether an answer is the pool's refusal (the console writes it as a page rather than its failure page). */
export const isBusy = (err: unknown): err is ApiError =>
  err instanceof ApiError && (err.status === 429 || err.status === 503) && !!err.extra.headers?.['Retry-After'];
