import type { AppDeps } from './deps';
import { ApiError } from './errors';
import type { ActionRefusal, ActionResult } from '../lifecycle/result';
import type { LifecycleDeps } from '../lifecycle/actions';

/** The status code the API answers for each kind of refusal of a lifecycle action (docs/issuing.md, docs/webhooks.md). */
export const REFUSAL_STATUS: Record<ActionRefusal, number> = {
  not_found: 404,
  conflict: 409,
  invalid: 422,
  rate_limited: 429,
};

/** The lifecycle actions' view of the API's dependencies. */
export function lifecycleDeps(deps: Pick<AppDeps, 'db' | 'temporal' | 'config'>): LifecycleDeps {
  return { db: deps.db, temporal: deps.temporal, taskQueue: deps.config.temporal.taskQueue };
}

/** A done action as it is; a refusal becomes the ApiError the envelope renders (its reason is the message). */
export function answerOf<T>(result: ActionResult<T>): Extract<ActionResult<T>, { outcome: 'done' }> {
  if (result.outcome === 'refused') throw new ApiError(REFUSAL_STATUS[result.code], result.reason);
  return result;
}
