import { randomBytes } from 'node:crypto';
import type { Db } from './knex';
import { hashToken } from './tokens';
import type { UserRole } from './users';

/**
 * Signed-in console browsers. The cookie holds a random session id; only its SHA-256 is stored, with the CSRF token
 * every POST must carry. `last_seen_at` moves on each request, and a session idle longer than the configured time is
 * over; so is one older than the absolute lifetime, however active (a stolen cookie does not live for ever).
 */
export type ConsolePrincipal =
  | { kind: 'support'; name: string; supportTokenId: string }
  | { kind: 'account'; name: string; accountId: string; apiTokenId: string }
  | UserPrincipal;

/** A person of an account (issue 43): role and companies read afresh on every request, so a change applies at once. */
export interface UserPrincipal {
  kind: 'user';
  name: string;
  accountId: string;
  userId: string;
  role: UserRole;
  /** The companies the role is limited to; null: every company of the account. */
  companyIds: string[] | null;
}

/** What a session still owes before it opens any page: a TOTP code, or enrolling one the account requires. */
export type SessionPending = 'totp' | 'enrol' | null;

export interface ConsoleSession {
  /** The SHA-256 of the cookie's id: the row's key. */
  idHash: string;
  principal: ConsolePrincipal;
  csrf: string;
  pending: SessionPending;
  /** When this session last gave a second factor (the step-up asks again after a few minutes). */
  secondFactorAt: Date | null;
}

export async function openConsoleSession(
  db: Db,
  principal: ConsolePrincipal,
  pending: SessionPending = null,
): Promise<{ id: string; csrf: string }> {
  const id = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  await db('console_sessions').insert({
    id_hash: hashToken(id),
    kind: principal.kind,
    name: principal.name,
    support_token_id: principal.kind === 'support' ? principal.supportTokenId : null,
    api_token_id: principal.kind === 'account' ? principal.apiTokenId : null,
    account_id: principal.kind === 'support' ? null : principal.accountId,
    user_id: principal.kind === 'user' ? principal.userId : null,
    pending,
    csrf,
  });
  return { id, csrf };
}

/**
 * The session behind a cookie, touched; null when unknown, signed out, idle for longer than `idleSeconds`, opened more
 * than `maxSeconds` ago, or when its token was revoked, expired or its account deactivated since sign-in.
 */
export async function findConsoleSession(
  db: Db,
  id: string,
  limits: { idleSeconds: number; maxSeconds: number },
): Promise<ConsoleSession | null> {
  const { rows } = await db.raw(
    `update console_sessions s set last_seen_at = now()
       from console_sessions c
       left join support_tokens st on st.id = c.support_token_id
       left join api_tokens t on t.id = c.api_token_id
       left join accounts a on a.id = c.account_id
       left join account_users u on u.id = c.user_id
      where s.id_hash = c.id_hash and c.id_hash = ? and c.ended_at is null
        and c.last_seen_at > now() - make_interval(secs => ?)
        and c.created_at > now() - make_interval(secs => ?)
        and (c.kind <> 'support' or (st.revoked_at is null and (st.expires_at is null or st.expires_at > now())))
        and (c.kind <> 'account' or (t.revoked_at is null and a.active and a.token_console))
        and (c.kind <> 'user' or (u.removed_at is null and a.active))
      returning c.id_hash, c.kind, c.name, c.support_token_id, c.api_token_id, c.account_id, c.user_id, c.csrf,
        c.pending, c.second_factor_at, u.role, u.company_ids`,
    [hashToken(id), limits.idleSeconds, limits.maxSeconds],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    idHash: row.id_hash,
    principal: principalOf(row),
    csrf: row.csrf,
    pending: row.pending,
    secondFactorAt: row.second_factor_at,
  };
}

function principalOf(row: Record<string, never>): ConsolePrincipal {
  if (row.kind === 'support') return { kind: 'support', name: row.name, supportTokenId: row.support_token_id };
  if (row.kind === 'account')
    return { kind: 'account', name: row.name, accountId: row.account_id, apiTokenId: row.api_token_id };
  return {
    kind: 'user',
    name: row.name,
    accountId: row.account_id,
    userId: row.user_id,
    role: row.role,
    companyIds: row.company_ids,
  };
}

/** The second factor given now (or the enrolment done): the session opens, and the step-up's clock restarts. */
export async function settleSecondFactor(db: Db, idHash: string, at: Date): Promise<void> {
  await db('console_sessions').where({ id_hash: idHash }).update({ pending: null, second_factor_at: at });
}

export async function endConsoleSession(db: Db, id: string): Promise<void> {
  await db('console_sessions')
    .where({ id_hash: hashToken(id) })
    .update({ ended_at: db.fn.now() });
}
