/**
 * Every text the lifecycle says to a person (an action's result or refusal, why a document waits, a timeline event, a
 * company check's outcome) as a code and its parameters (codes.ts), rendered from one table per language: en.ts for
 * the API and `chasqui support`, es.ts for the console, /consulta and the buyer's e-mail. Pure: imports nothing outside
 * this folder, so lifecycle/transitions.ts may build messages too.
 */
import type { Message, MessageCode, MessageParams, Texts } from './codes';
import { EN } from './en';
import { ES } from './es';

export type { Message, MessageCode } from './codes';
export { ACTION_ES, STATUS_ES } from './es';

/** Every code, for the test that each has both texts. */
export const MESSAGE_CODES = Object.keys(EN) as MessageCode[];

export function message<C extends MessageCode>(
  code: C,
  ...params: MessageParams[C] extends Record<string, never> ? [] : [MessageParams[C]]
): Message {
  return { code, params: params[0] ?? {} };
}

function render(table: Texts, m: Message): string {
  // Own codes only: a stored value naming `constructor` or `toString` is no message.
  const text = Object.hasOwn(table, m.code) ? table[m.code] : undefined;
  if (!text) throw new Error(`no text for lifecycle message ${m.code}`);
  return (text as (p: unknown, say: (m: Message) => string) => string)(m.params, (inner) => render(table, inner));
}

/** The API's and the CLI's words. */
export const english = (m: Message): string => render(EN, m);
/** The console's, /consulta's and the buyer's e-mail's words. */
export const spanish = (m: Message): string => render(ES, m);

/** Whether a stored value is a message this version can render (support actions recorded with a code). */
export function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Message).code === 'string' &&
    Object.hasOwn(EN, (value as Message).code) &&
    typeof (value as Message).params === 'object'
  );
}

/** A document's last authority result (documents.result) as the CLI and the console show it. */
export const resultMessage = (r: { origin: string | null; code: string | null; message: string }): Message =>
  message('detail.result', { origin: r.origin, code: r.code, message: r.message });
