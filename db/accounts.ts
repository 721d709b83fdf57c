import type { Db } from './knex';
import { ACCOUNT_SCOPE, findToken, issueToken, storeToken } from './tokens';

export interface Account {
  id: string;
  name: string;
  quotaUnits: number;
  active: boolean;
  createdAt: Date;
}

function toAccount(row: {
  id: string;
  name: string;
  quota_units: string | number;
  active: boolean;
  created_at: Date;
}): Account {
  return {
    id: row.id,
    name: row.name,
    quotaUnits: Number(row.quota_units),
    active: row.active,
    createdAt: row.created_at,
  };
}

/** A new account and its first account token (returned once, stored as a hash). */
export async function createAccount(
  db: Db,
  input: { name: string; quotaUnits: number },
): Promise<{ account: Account; token: string }> {
  return db.transaction(async (trx) => {
    const [row] = await trx('accounts').insert({ name: input.name, quota_units: input.quotaUnits }).returning('*');
    const token = await issueToken(trx, { scope: ACCOUNT_SCOPE, accountId: row.id });
    return { account: toAccount(row), token };
  });
}

export async function findAccount(db: Db, id: string): Promise<Account | null> {
  const row = await db('accounts').where({ id }).first();
  return row ? toAccount(row) : null;
}

/** Adds (or, with a negative number, removes) plan 01 units; null when the account does not exist. */
export async function addQuota(db: Db, accountId: string, units: number): Promise<Account | null> {
  const [row] = await db('accounts')
    .where({ id: accountId })
    .update({ quota_units: db.raw('quota_units + ?', [units]) })
    .returning('*');
  return row ? toAccount(row) : null;
}

/**
 * Makes sure an account holding exactly `token` exists (CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN, for local use and compose).
 * Safe to call at every start and from several processes: the token hash is unique.
 */
export async function ensureBootstrapAccount(db: Db, token: string): Promise<Account> {
  if (token.length < 16) throw new Error('CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN must have at least 16 characters');
  const existing = await findToken(db, token);
  if (existing) {
    if (existing.scope !== ACCOUNT_SCOPE)
      throw new Error('CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN is already in use as a company signing token');
    return (await findAccount(db, existing.accountId))!;
  }
  try {
    return await db.transaction(async (trx) => {
      const [row] = await trx('accounts').insert({ name: 'bootstrap', quota_units: 0 }).returning('*');
      await storeToken(trx, token, { scope: ACCOUNT_SCOPE, accountId: row.id });
      return toAccount(row);
    });
  } catch (err) {
    // Another process created it between the look-up and the insert.
    const raced = await findToken(db, token);
    if (raced) return (await findAccount(db, raced.accountId))!;
    throw err;
  }
}

/** GET /v1/account: the plan balances and the companies by environment (demo 01, production 02). */
export async function accountBalance(db: Db, accountId: string) {
  const account = await db('accounts')
    .where({ id: accountId })
    .first('id', 'name', 'quota_units', 'quota_used_units', 'ose_package_units');
  const companies: { environment: string; count: number; production_documents: number }[] = await db('companies')
    .where({ account_id: accountId })
    .groupBy('environment')
    .select(
      'environment',
      db.raw('count(*)::int as count'),
      db.raw('coalesce(sum(production_documents), 0)::int as production_documents'),
    );
  const by = (env: string) => companies.find((c) => c.environment === env);
  return {
    id: account.id as string,
    name: account.name as string,
    quota: { left: String(account.quota_units), used: String(account.quota_used_units) },
    osePackage: { left: Number(account.ose_package_units) },
    companies: {
      total: companies.reduce((n, c) => n + c.count, 0),
      demo: by('01')?.count ?? 0,
      production: by('02')?.count ?? 0,
    },
    productionDocuments: by('02')?.production_documents ?? 0,
  };
}
