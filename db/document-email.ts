/**
 * The buyer's e-mail columns of `documents` (`email_*`, docs/buyers.md): executes lifecycle/email.ts's decisions.
 */
import type { Db } from './knex';
import { EMAIL_ATTEMPTABLE, EMAIL_RESTARTABLE, EMAIL_START, isEmailSent, type EmailStatus } from '../lifecycle/email';

/**
 * One e-mail attempt's outcome, as lifecycle/email.ts `afterEmailAttempt` decided it. `counted`: an attempt was made.
 * A sent e-mail is final: a late retry of the same attempt changes nothing.
 */
export async function recordEmailAttempt(
  db: Db,
  id: string,
  outcome: { status: EmailStatus; error: string | null; counted: boolean },
): Promise<void> {
  await db('documents')
    .where({ id })
    .whereIn('email_status', EMAIL_ATTEMPTABLE)
    .update({
      email_status: outcome.status,
      email_error: outcome.error,
      email_attempts: outcome.counted ? db.raw('email_attempts + 1') : db.raw('email_attempts'),
      email_sent_at: isEmailSent(outcome.status) ? db.fn.now() : null,
    });
}

/**
 * Sends the e-mail again to `to`: attempts counted afresh. False when one is already under way (pending), so two
 * sends never race; the caller refuses.
 */
export async function restartEmail(db: Db, id: string, to: string[]): Promise<boolean> {
  const n = await db('documents')
    .where({ id })
    .where((q) => q.whereNull('email_status').orWhereIn('email_status', EMAIL_RESTARTABLE))
    .update({ email_to: to, email_status: EMAIL_START, email_attempts: 0, email_error: null, email_sent_at: null });
  return n === 1;
}
