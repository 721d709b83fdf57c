import { randomBytes } from 'node:crypto';
import type { Db } from './knex';
import { hashToken } from './tokens';

/**
 * Support staff's tokens (scope support:operate): they see every account's documents in the console. Named, so a
 * person can list and revoke them; only the SHA-256 is stored and the token is shown once.
 */
export const SUPPORT_SCOPE = 'support:operate';
const PREFIX = 'chq_sup_';

export interface SupportTokenRow {
  id: string;
  name: string;
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export type SupportTokenState = 'active' | 'expired' | 'revoked';

export function supportTokenState(
  row: Pick<SupportTokenRow, 'expires_at' | 'revoked_at'>,
  now = new Date(),
): SupportTokenState {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at <= now) return 'expired';
  return 'active';
}

/** A new token named `name` (unique among support tokens); null when the name is taken. */
export async function createSupportToken(
  db: Db,
  input: { name: string; createdBy: string; expiresAt: Date | null },
): Promise<{ token: string; row: SupportTokenRow } | null> {
  const token = PREFIX + randomBytes(32).toString('base64url');
  const [row] = await db<SupportTokenRow>('support_tokens')
    .insert({
      name: input.name,
      token_hash: hashToken(token),
      created_by: input.createdBy,
      expires_at: input.expiresAt,
    } as never)
    .onConflict('name')
    .ignore()
    .returning(['id', 'name', 'created_by', 'created_at', 'expires_at', 'revoked_at']);
  return row ? { token, row } : null;
}

export function listSupportTokens(db: Db): Promise<SupportTokenRow[]> {
  return db<SupportTokenRow>('support_tokens')
    .select('id', 'name', 'created_by', 'created_at', 'expires_at', 'revoked_at')
    .orderBy('created_at');
}

/** Revokes the token named `name`; false when there is none (or it was already revoked). */
export async function revokeSupportToken(db: Db, name: string): Promise<boolean> {
  const count = await db('support_tokens').where({ name }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  return count > 0;
}

/** The support token a person typed, active or not; null when it is no support token. */
export async function findSupportToken(db: Db, token: string): Promise<SupportTokenRow | null> {
  if (!token.startsWith(PREFIX)) return null;
  const row = await db('support_tokens')
    .where({ token_hash: hashToken(token) })
    .first('id', 'name', 'created_by', 'created_at', 'expires_at', 'revoked_at');
  return (row as SupportTokenRow | undefined) ?? null;
}
