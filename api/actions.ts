import { ApiError } from './errors';
import type { ActionRefusal, ActionResult } from '../lifecycle/result';

// The one builder lives with the lifecycle (`chasqui support` builds the same); the API's routes import it from here.
export { lifecycleDeps } from '../support/actions';

/** The status code the API answers for each kind of refusal of a lifecycle action (docs/issuing.md, docs/webhooks.md). */
export const REFUSAL_STATUS: Record<ActionRefusal, number> = {
  not_found: 404,
  conflict: 409,
  invalid: 422,
  rate_limited: 429,
};

/** A done action as it is; a refusal becomes the ApiError the envelope renders (its reason is the message). */
export function answerOf<T>(result: ActionResult<T>): Extract<ActionResult<T>, { outcome: 'done' }> {
  if (result.outcome === 'refused') throw new ApiError(REFUSAL_STATUS[result.code], result.reason);
  return result;
}
