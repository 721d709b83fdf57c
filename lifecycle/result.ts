import { english, type Message } from './messages';

/**
 * What a support action (send, resend, recheck, redeliver, e-mail) answers: done, or refused with a reason the
 * person who asked can act on. The text is a `message` (code and parameters, lifecycle/messages/) each surface
 * renders in its language; `detail`/`reason` carry its English rendering, the API's and the CLI's words. Each surface
 * presents it its own way: the API as a status code and the envelope, `chasqui support` as a line and an exit code,
 * the console as a page in Spanish. Actions never throw for a refusal.
 */
export type ActionResult<T = Record<string, unknown>> =
  | { outcome: 'done'; message: Message; detail: string; data?: T }
  | { outcome: 'refused'; code: ActionRefusal; message: Message; reason: string };

/**
 * Why an action was refused. not_found: no such document for the asker; conflict: the document's state does not
 * allow it (e.g. resend of an accepted document); invalid: the request itself is wrong; rate_limited: asked too often.
 */
export type ActionRefusal = 'not_found' | 'conflict' | 'invalid' | 'rate_limited';

export const done = <T>(message: Message, data?: T): ActionResult<T> => ({
  outcome: 'done',
  message,
  detail: english(message),
  data,
});
export const refused = (code: ActionRefusal, message: Message): ActionResult<never> => ({
  outcome: 'refused',
  code,
  message,
  reason: english(message),
});
