/**
 * The buyer's e-mail (docs/buyers.md) as a pure state machine: its statuses, what each attempt's outcome makes of it,
 * when sending again may restart it, and how GET and the webhook show it. db/ executes these decisions in SQL,
 * activities/buyer-email.ts reports outcomes, workflows/buyer-email.ts loops while it is pending; nothing else decides
 * an e-mail status. Pure: imports only lifecycle/transitions.ts (a document's own status).
 */
import { isRejected, isValidVerdict, type DocStatus } from './transitions';

/** `pending` until sent or given up on; `disabled` when the company sends none. */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'disabled'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Issue 27: five attempts over about an hour. */
export const EMAIL_MAX_ATTEMPTS = 5;

/** Waits after failed attempts 1 to 4: 4, 8, 16 and 32 minutes (an hour in all). */
export const EMAIL_RETRY_WAITS_MS: readonly number[] = [4 * 60_000, 8 * 60_000, 16 * 60_000, 32 * 60_000];

/** What one attempt came to, as the activity found it. */
export type EmailAttemptOutcome =
  /** The SMTP server took it. */
  | 'sent'
  /** A failure that may pass (connection, SMTP 4xx). */
  | 'transient'
  /** A failure that will not pass by waiting (SMTP 5xx, an unusable company server). */
  | 'permanent'
  /** Not tried: the account's hourly ceiling holds it (buyers/mail-ceiling.ts). */
  | 'held'
  /** Not tried: the company sends no e-mail, or no SMTP server is configured. */
  | 'off'
  /** Not tried: "send again" could not start its workflow. */
  | 'not_started';

/**
 * Each outcome's status while attempts remain and on the last attempt, and whether it counts as an attempt
 * (`email_attempts`). Only what may pass stays pending, and never after the last attempt.
 */
export const EMAIL_AFTER_ATTEMPT: Record<
  EmailAttemptOutcome,
  { status: EmailStatus; final: EmailStatus; counted: boolean }
> = {
  sent: { status: 'sent', final: 'sent', counted: true },
  transient: { status: 'pending', final: 'failed', counted: true },
  permanent: { status: 'failed', final: 'failed', counted: true },
  held: { status: 'pending', final: 'failed', counted: false },
  off: { status: 'disabled', final: 'disabled', counted: false },
  not_started: { status: 'failed', final: 'failed', counted: false },
};

/** The e-mail's status after an attempt with this outcome; `final`: the workflow's last attempt. */
export function afterEmailAttempt(
  outcome: EmailAttemptOutcome,
  final: boolean,
): { status: EmailStatus; counted: boolean } {
  const next = EMAIL_AFTER_ATTEMPT[outcome];
  return { status: final ? next.final : next.status, counted: next.counted };
}

/** A sent e-mail is final: a late retry of the same attempt changes nothing, nor sends twice. */
export const isEmailSent = (status: EmailStatus | null): boolean => status === 'sent';

/** Statuses an attempt's outcome may overwrite (all but a sent one). */
export const EMAIL_ATTEMPTABLE: readonly EmailStatus[] = EMAIL_STATUSES.filter((s) => !isEmailSent(s));

/** Attempts remain to be made: the workflow tries again. */
export const isEmailPending = (status: EmailStatus | null): boolean => status === 'pending';

/** Whether attempt `number` (1-based) is still to be made of an e-mail now in `status`. */
export const mayAttemptEmail = (status: EmailStatus, number: number): boolean =>
  isEmailPending(status) && number <= EMAIL_MAX_ATTEMPTS;

/** The last attempt: what may pass no longer stays pending after it (EMAIL_AFTER_ATTEMPT's `final`). */
export const isFinalEmailAttempt = (number: number): boolean => number >= EMAIL_MAX_ATTEMPTS;

/** How long the e-mail workflow waits before attempt `number` (none before the first). */
export const waitBeforeEmailAttempt = (number: number): number | null =>
  number > 1 ? EMAIL_RETRY_WAITS_MS[number - 2] : null;

/** The status "send again" restarts the e-mail in, and the one it is issued in when the payload names an address. */
export const EMAIL_START: EmailStatus = 'pending';

/** Statuses "send again" may restart (besides none): any but a pending one, so two sends never race. */
export const EMAIL_RESTARTABLE: readonly EmailStatus[] = EMAIL_STATUSES.filter((s) => !isEmailPending(s));

/** The e-mail status a new document starts with: pending when its payload names an address, none otherwise. */
export const initialEmailStatus = (to: readonly string[] | null | undefined): EmailStatus | null =>
  to?.length ? EMAIL_START : null;

/** Only a valid tax document is e-mailed to its buyer (accepted or observed); a rejected one never is. */
export const mayEmailBuyer = (status: DocStatus): boolean => isValidVerdict(status);

/** An accepted document whose payload named the buyer's e-mail and whose e-mail is still to be sent: start it. */
export function emailDue(row: {
  status: DocStatus;
  email_to: string[] | null;
  email_status: EmailStatus | null;
}): boolean {
  return mayEmailBuyer(row.status) && !!row.email_to?.length && isEmailPending(row.email_status);
}

/**
 * The e-mail status GET and the webhook show: a rejected document is never e-mailed, so its pending e-mail reads
 * `disabled`.
 */
export function shownEmailStatus(status: DocStatus, email: EmailStatus): EmailStatus {
  return isRejected(status) && isEmailPending(email) ? 'disabled' : email;
}
