/**
 * What a support action (send, resend, recheck, redeliver, e-mail) answers: done, or refused with a reason the
 * person who asked can act on. Each surface presents it its own way: the API as a status code and the envelope,
 * `chasqui support` as a line and an exit code, the console as a page. Actions never throw for a refusal.
 */
export type ActionResult<T = Record<string, unknown>> =
  { outcome: 'done'; detail: string; data?: T } | { outcome: 'refused'; code: ActionRefusal; reason: string };

/**
 * Why an action was refused. not_found: no such document for the asker; conflict: the document's state does not
 * allow it (e.g. resend of an accepted document); invalid: the request itself is wrong; rate_limited: asked too often.
 */
export type ActionRefusal = 'not_found' | 'conflict' | 'invalid' | 'rate_limited';

export const done = <T>(detail: string, data?: T): ActionResult<T> => ({ outcome: 'done', detail, data });
export const refused = (code: ActionRefusal, reason: string): ActionResult<never> => ({
  outcome: 'refused',
  code,
  reason,
});
