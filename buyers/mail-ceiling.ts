import type { Config } from '../core/config';
import type { Db } from '../db/knex';
import { admitKeyed, peekKeyed } from '../db/rate-limits';

/** The ceiling is per hour, sliding. */
export const MAIL_CEILING_WINDOW_SECONDS = 3600;

export type CeilingAnswer = { reached: false } | { reached: true; message: string; resetSeconds: number };

/**
 * Buyer e-mails an account may send in any hour (CHASQUI_MAIL_PER_ACCOUNT_HOUR), and a lower number for demo
 * documents (…_DEMO), whose every word an account writes: the service's domain is not a mailer for hire. Counted in
 * PostgreSQL's rate-limit log (db/rate-limits.ts), so every worker and API instance shares one count; one log per
 * account and kind of document (as many rows as accounts: no cap on keys needed). 0: no ceiling.
 *
 * `take`: the worker, right before sending, takes one e-mail from the hour (reached: nothing taken, nothing to send);
 * without it, the API asks whether the hour is used up, taking nothing, to answer 429 before starting a send.
 */
export async function mailCeiling(
  db: Db,
  config: Config,
  request: { accountId: string; demo: boolean; take: boolean },
): Promise<CeilingAnswer> {
  const { demo } = request;
  const limit = demo ? config.buyers.mailPerAccountHourDemo : config.buyers.mailPerAccountHour;
  if (limit === 0) return { reached: false };
  const key = `${demo ? 'mail-demo' : 'mail'}:${request.accountId}`;
  const { reached, resetSeconds } = request.take
    ? await admitKeyed(db, key, limit, MAIL_CEILING_WINDOW_SECONDS).then((d) => ({
        reached: !d.admitted,
        resetSeconds: d.resetSeconds,
      }))
    : await peekKeyed(db, key, MAIL_CEILING_WINDOW_SECONDS).then((u) => ({
        reached: u.count >= limit,
        resetSeconds: u.resetSeconds,
      }));
  if (!reached) return { reached: false };
  const name = demo ? 'CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO' : 'CHASQUI_MAIL_PER_ACCOUNT_HOUR';
  return {
    reached: true,
    resetSeconds,
    message: `the account sent its ${limit} buyer e-mails of ${demo ? 'demo documents' : 'documents'} this hour (${name}); one more is possible in ${resetSeconds} s`,
  };
}
