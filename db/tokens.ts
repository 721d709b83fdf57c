import { createHash, randomBytes } from 'node:crypto';
import { run, statement, type Db } from './knex';
import { companyFromJson } from './companies';
import type { IssuerAccount } from './issuing';
import { isUuid } from '../core/ids';

/**
 * API tokens (spec 2.2, 5). A token is a random string with a prefix that tells a person what it is
 * (`chq_acc_` account, `chq_sig_` company signing); only its SHA-256 is stored, so it is shown once.
 */
export const ACCOUNT_SCOPE = 'empresas:manage';
export const COMPANY_SCOPE = 'cpe:sign';
export type TokenScope = typeof ACCOUNT_SCOPE | typeof COMPANY_SCOPE;

const PREFIX: Record<TokenScope, string> = { [ACCOUNT_SCOPE]: 'chq_acc_', [COMPANY_SCOPE]: 'chq_sig_' };

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateToken(scope: TokenScope): string {
  return PREFIX[scope] + randomBytes(32).toString('base64url');
}

const PREFIX_LENGTH = 8;
/** What a person sees of a token once it has been shown: its kind and the first characters of its random part. */
export const displayPrefix = (token: string) => token.slice(0, PREFIX_LENGTH + 4);

export interface TokenOwner {
  scope: TokenScope;
  accountId: string;
  companyId?: string;
  /** A signing token's name (the panel's and `POST …/tokens`'); null for the spec's unnamed ones. */
  name?: string | null;
}

/** Stores the hash of `token` for the account (and company, for signing tokens); returns the token row id. */
export async function storeToken(db: Db, token: string, owner: TokenOwner): Promise<string> {
  const [row] = await db('api_tokens')
    .insert({
      token_hash: hashToken(token),
      scope: owner.scope,
      account_id: owner.accountId,
      company_id: owner.companyId ?? null,
      name: owner.name ?? null,
      prefix: displayPrefix(token),
    })
    .returning('id');
  return row.id;
}

/** Generates, stores and returns a new token; the caller shows it once. */
export async function issueToken(db: Db, owner: TokenOwner): Promise<string> {
  const token = generateToken(owner.scope);
  await storeToken(db, token, owner);
  return token;
}

export interface TokenPrincipal {
  tokenId: string;
  scope: TokenScope;
  revoked: boolean;
  /** A rolled token past the overlap its holder chose (answered like a revoked one). */
  expired: boolean;
  accountId: string;
  accountActive: boolean;
  /** Null for account tokens, and for a signing token whose company no longer exists. */
  companyId: string | null;
  companyActive: boolean | null;
  /** A signing token's company and its account's balances, read with the token (issuing needs nothing else first). */
  issuer: IssuerAccount | null;
}

const FIND_TOKEN = statement(
  'find_token',
  `select t.id, t.scope, t.revoked_at, t.expires_at <= now() as expired, t.account_id, a.active as account_active, t.company_id, c.active as company_active,
          a.quota_units, a.ose_package_units, case when c.id is not null then to_jsonb(c) end as company_json
     from api_tokens t join accounts a on a.id = t.account_id left join companies c on c.id = t.company_id
    where t.token_hash = $1
    limit 1`,
);

export async function findToken(db: Db, token: string): Promise<TokenPrincipal | null> {
  const [row] = await run<Record<string, any>>(db, FIND_TOKEN, [hashToken(token)]);
  if (!row) return null;
  return {
    tokenId: row.id,
    scope: row.scope,
    revoked: row.revoked_at !== null,
    expired: row.expired === true,
    accountId: row.account_id,
    accountActive: row.account_active,
    companyId: row.company_id,
    companyActive: row.company_active ?? null,
    issuer: row.company_json
      ? {
          company: companyFromJson(row.company_json),
          quotaUnits: String(row.quota_units),
          osePackageUnits: Number(row.ose_package_units),
        }
      : null,
  };
}

export async function revokeCompanyTokens(db: Db, companyId: string): Promise<number> {
  return db('api_tokens').where({ company_id: companyId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

/** A company's signing token as the panel and `GET …/tokens` list it (never its hash). */
export interface SigningTokenRow {
  id: string;
  name: string | null;
  /** Null for tokens made before prefixes were stored. */
  prefix: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
}

const LISTED = ['id', 'name', 'prefix', 'created_at', 'last_used_at', 'expires_at'] as const;

/** The company's signing tokens that still work (not revoked, not past their expiry), oldest first. */
export function listSigningTokens(db: Db, companyId: string): Promise<SigningTokenRow[]> {
  return db('api_tokens')
    .select(...LISTED)
    .where({ company_id: companyId, scope: COMPANY_SCOPE })
    .whereNull('revoked_at')
    .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** One of the company's working signing tokens, or undefined (another company's, revoked, expired, not an id). */
export async function findSigningToken(db: Db, companyId: string, id: string): Promise<SigningTokenRow | undefined> {
  if (!isUuid(id)) return undefined;
  return (await listSigningTokens(db, companyId)).find((t) => t.id === id);
}

/** Stops a token now; false when it no longer worked. */
export async function revokeToken(db: Db, id: string): Promise<boolean> {
  return (await db('api_tokens').where({ id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() })) > 0;
}

/** Keeps a token working for `seconds` more (never longer than an expiry it already has); its new expiry. */
export async function expireToken(db: Db, id: string, seconds: number): Promise<Date> {
  const [row] = await db('api_tokens')
    .where({ id })
    .update({
      expires_at: db.raw('least(expires_at, now() + make_interval(secs => ?))', [seconds]),
    })
    .returning('expires_at');
  return row.expires_at;
}

/** Records that a token was used now (the caller throttles: api/auth.ts). */
export async function recordTokenUse(db: Db, id: string): Promise<void> {
  await db('api_tokens').where({ id }).update({ last_used_at: db.fn.now() });
}
