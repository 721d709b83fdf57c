import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from './knex';

/**
 * The people of an account (migration 20261207130000_account_users, docs/security.md "People"): users with a role and
 * optionally some companies, their one-time links (invitations and password resets) and recovery codes. Secrets are
 * stored as SHA-256 only; the TOTP secret sealed by the caller with the master key.
 */
export type UserRole = 'owner' | 'administrator' | 'emisor' | 'contador' | 'desarrollador';
export type LinkKind = 'invite' | 'reset';

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  role: UserRole;
  company_ids: string[] | null;
  password_hash: string | null;
  failed_signins: number;
  locked_until: Date | null;
  totp_secret_sealed: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | null;
  created_at: Date;
}

type Conn = Db | Knex.Transaction;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const live = (db: Conn) => db<UserRow>('account_users').whereNull('removed_at');

/** Failed sign-ins before a user is locked, and how long: doubling from a minute, never longer than the cap. */
export const LOCKOUT = { after: 5, firstSeconds: 60, capSeconds: 15 * 60 } as const;

export const findUserByEmail = (db: Conn, email: string) =>
  live(db).where({ email: email.toLowerCase() }).first() as Promise<UserRow | undefined>;

export const findUser = (db: Conn, accountId: string, id: string) =>
  live(db).where({ account_id: accountId, id }).first() as Promise<UserRow | undefined>;

export const listUsers = (db: Conn, accountId: string) =>
  live(db).where({ account_id: accountId }).orderBy('created_at') as Promise<UserRow[]>;

export async function insertUser(
  db: Conn,
  user: { accountId: string; email: string; role: UserRole; companyIds: string[] | null },
): Promise<UserRow> {
  const [row] = await db('account_users')
    .insert({
      account_id: user.accountId,
      email: user.email.toLowerCase(),
      role: user.role,
      company_ids: user.companyIds,
    })
    .returning('*');
  return row;
}

export async function updateUserRole(db: Conn, id: string, role: UserRole, companyIds: string[] | null) {
  await db('account_users').where({ id }).update({ role, company_ids: companyIds });
}

/** Removes a user: its sessions end at once, its e-mail may be invited again. */
export async function removeUser(db: Conn, id: string, at: Date): Promise<void> {
  await db('account_users').where({ id }).update({ removed_at: at });
  await endUserSessions(db, id, at);
}

export async function endUserSessions(db: Conn, userId: string, at: Date): Promise<void> {
  await db('console_sessions').where({ user_id: userId }).whereNull('ended_at').update({ ended_at: at });
}

/** A new password: lockout cleared, every session of the user ended (a reset after a theft throws the thief out). */
export async function setPassword(db: Conn, id: string, hash: string, at: Date): Promise<void> {
  await db('account_users').where({ id }).update({ password_hash: hash, failed_signins: 0, locked_until: null });
  await endUserSessions(db, id, at);
}

/** Counts a failed sign-in; from LOCKOUT.after on, locks the user for a doubling time up to the cap. */
export async function recordFailedSignIn(db: Conn, id: string, at: Date): Promise<void> {
  await db.raw(
    `update account_users set failed_signins = failed_signins + 1,
       locked_until = case when failed_signins + 1 >= :after
         then :at::timestamptz + make_interval(secs => least(:cap, :first * power(2, least(failed_signins + 1 - :after, 20))))
         else locked_until end
     where id = :id`,
    { after: LOCKOUT.after, at, cap: LOCKOUT.capSeconds, first: LOCKOUT.firstSeconds, id },
  );
}

export async function recordSignIn(db: Conn, id: string): Promise<void> {
  await db('account_users').where({ id }).update({ failed_signins: 0, locked_until: null });
}

/** A one-time link's secret (returned once: it goes into the e-mail) for a user, valid `seconds` from `at`. */
export async function createLink(db: Conn, userId: string, kind: LinkKind, at: Date, seconds: number): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await db('user_links').insert({
    token_hash: sha256(secret),
    user_id: userId,
    kind,
    created_at: at,
    expires_at: new Date(at.getTime() + seconds * 1000),
  });
  return secret;
}

export type LinkState = { ok: true; user: UserRow } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** What a link is at `at`, without using it (the page that asks for the new password). */
export async function peekLink(db: Conn, secret: string, kind: LinkKind, at: Date): Promise<LinkState> {
  const link = await db('user_links')
    .where({ token_hash: sha256(secret), kind })
    .first();
  if (!link) return { ok: false, reason: 'unknown' };
  if (link.used_at) return { ok: false, reason: 'used' };
  if (link.expires_at <= at) return { ok: false, reason: 'expired' };
  const user = await live(db).where({ id: link.user_id }).first();
  return user ? { ok: true, user } : { ok: false, reason: 'unknown' };
}

/** Uses a link once: the update takes only an unused link, so two submissions of one link cannot both succeed. */
export async function useLink(trx: Knex.Transaction, secret: string, kind: LinkKind, at: Date): Promise<LinkState> {
  const state = await peekLink(trx, secret, kind, at);
  if (!state.ok) return state;
  const used = await trx('user_links')
    .where({ token_hash: sha256(secret) })
    .whereNull('used_at')
    .update({ used_at: at });
  return used === 1 ? state : { ok: false, reason: 'used' };
}

/** Ten new recovery codes, replacing the old ones; the codes are returned once. */
export async function replaceRecoveryCodes(db: Conn, userId: string): Promise<string[]> {
  const codes = Array.from({ length: 10 }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
  await db('user_recovery_codes').where({ user_id: userId }).del();
  await db('user_recovery_codes').insert(codes.map((code) => ({ user_id: userId, code_hash: sha256(code) })));
  return codes;
}

/** Uses a recovery code once; false when unknown or used. */
export async function useRecoveryCode(db: Conn, userId: string, code: string, at: Date): Promise<boolean> {
  const used = await db('user_recovery_codes')
    .where({ user_id: userId, code_hash: sha256(code.trim().toLowerCase()) })
    .whereNull('used_at')
    .update({ used_at: at });
  return used === 1;
}

/** Clears a user's second factor and recovery codes (a lost phone); its sessions end, it enrols again at sign-in. */
export async function clearTotp(db: Conn, id: string, at: Date): Promise<void> {
  await db('account_users')
    .where({ id })
    .update({ totp_secret_sealed: null, totp_enabled_at: null, totp_last_step: null });
  await db('user_recovery_codes').where({ user_id: id }).del();
  await endUserSessions(db, id, at);
}

export async function enableTotp(db: Conn, id: string, sealed: string, step: bigint, at: Date): Promise<void> {
  await db('account_users')
    .where({ id })
    .update({ totp_secret_sealed: sealed, totp_enabled_at: at, totp_last_step: String(step) });
}

/** Records the step of a code just accepted, only if later than the last: a code replayed in a race is refused. */
export async function advanceTotpStep(db: Conn, id: string, step: bigint): Promise<boolean> {
  const n = await db('account_users')
    .where({ id })
    .andWhere((q) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', String(step)))
    .update({ totp_last_step: String(step) });
  return n === 1;
}

/** The owner's settings for the account's people: a second factor for every user; the account token in the console. */
export async function peopleSettings(
  db: Conn,
  accountId: string,
): Promise<{ requireTwoFactor: boolean; tokenConsole: boolean }> {
  const row = await db('accounts').where({ id: accountId }).first('require_two_factor', 'token_console');
  return { requireTwoFactor: row?.require_two_factor === true, tokenConsole: row?.token_console !== false };
}
