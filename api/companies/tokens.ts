import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { notFound } from '../errors';
import { requestActor } from '../audit';
import { recordChange, secretChange, type Actor } from '../../db/audit';
import type { CompanyRow } from '../../db/companies';
import {
  COMPANY_SCOPE,
  displayPrefix,
  expireToken,
  findSigningToken,
  generateToken,
  listSigningTokens,
  revokeToken,
  storeToken,
  type SigningTokenRow,
} from '../../db/tokens';
import type { Db } from '../../db/knex';
import { loadCompany, ok, TOKEN_NOTE } from './shared';
import * as schemas from './schemas';

/**
 * A company's signing tokens (issue 42): named, listed by prefix and last use, revoked, rolled with an overlap. The API
 * routes and the panel (api/console/panel/tokens.ts) both call these functions; each change and its audit row commit
 * together.
 */

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentToken(row: SigningTokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: iso(row.created_at)!,
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
  };
}

/** How the audit names a token: its name and prefix, never the secret. */
const tokenLabel = (row: Pick<SigningTokenRow, 'id' | 'name' | 'prefix'>) =>
  `${row.name ?? 'sin nombre'} (${row.prefix ?? row.id})`;

export interface NewSigningToken {
  /** The secret: shown once by whoever answers its creation. */
  token: string;
  row: SigningTokenRow;
}

async function newToken(trx: Db, company: CompanyRow, name: string | null): Promise<NewSigningToken> {
  const token = generateToken(COMPANY_SCOPE);
  const id = await storeToken(trx, token, {
    scope: COMPANY_SCOPE,
    accountId: company.account_id,
    companyId: company.id,
    name,
  });
  return { token, row: (await findSigningToken(trx, company.id, id))! };
}

const audit = (
  trx: Db,
  company: CompanyRow,
  actor: Actor,
  action: string,
  changes: Parameters<typeof recordChange>[1]['changes'],
) =>
  recordChange(trx, {
    accountId: company.account_id,
    companyId: company.id,
    companyRuc: company.ruc,
    actor,
    action,
    changes,
  });

/** A new signing token; `name` null for the spec's `POST …/token`. */
export function createSigningToken(
  deps: Pick<AppDeps, 'db'>,
  company: CompanyRow,
  name: string | null,
  actor: Actor,
): Promise<NewSigningToken> {
  return deps.db.transaction(async (trx) => {
    const made = await newToken(trx, company, name);
    await audit(trx, company, actor, 'token.create', {
      token: { to: tokenLabel(made.row) },
      secret: secretChange(null, made.token),
    });
    return made;
  });
}

/** Stops the token at once; false when it no longer worked (revoked or expired meanwhile). */
export function revokeSigningToken(
  deps: Pick<AppDeps, 'db'>,
  company: CompanyRow,
  row: SigningTokenRow,
  actor: Actor,
): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    if (!(await revokeToken(trx, row.id))) return false;
    await audit(trx, company, actor, 'token.revoke', { token: { from: tokenLabel(row), to: null } });
    return true;
  });
}

export interface RolledToken extends NewSigningToken {
  /** When the old token stops working (now for `none`). */
  oldExpiresAt: Date;
}

/** A new token with the old one's name; the old one works for the chosen overlap more, then answers 401. */
export function rollSigningToken(
  deps: Pick<AppDeps, 'db'>,
  company: CompanyRow,
  old: SigningTokenRow,
  overlap: schemas.RollOverlap,
  actor: Actor,
): Promise<RolledToken> {
  return deps.db.transaction(async (trx) => {
    const seconds = schemas.ROLL_OVERLAPS[overlap];
    const oldExpiresAt =
      seconds === 0 ? (await revokeToken(trx, old.id), new Date()) : await expireToken(trx, old.id, seconds);
    const made = await newToken(trx, company, old.name);
    await audit(trx, company, actor, 'token.roll', {
      token: { from: tokenLabel(old), to: tokenLabel(made.row) },
      secret: secretChange(old.id, made.token),
      old_expires_at: { from: iso(old.expires_at), to: oldExpiresAt.toISOString() },
    });
    return { ...made, oldExpiresAt };
  });
}

/** The `:id` of the path: one of the company's working signing tokens, or 404. */
async function loadToken(deps: AppDeps, company: CompanyRow, id: string): Promise<SigningTokenRow> {
  const row = await findSigningToken(deps.db, company.id, id);
  if (!row) throw notFound(`Signing token ${id} does not exist for company ${company.ruc}, or no longer works`);
  return row;
}

/** The spec's `POST …/token` and the named tokens' routes (account token). */
export function tokenRoutes(router: Router, deps: AppDeps, guard: Middleware[]): void {
  router.post('/:ruc/token', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const { token } = await createSigningToken(deps, company, null, requestActor(ctx));
    ok(ctx, 'Signing token generated', { token, token_note: TOKEN_NOTE }, 201);
  });
  router.get('/:ruc/tokens', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const tokens = (await listSigningTokens(deps.db, company.id)).map(presentToken);
    ok(ctx, `${tokens.length} signing tokens`, { tokens, count: tokens.length });
  });
  router.post('/:ruc/tokens', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const { name } = schemas.validate<{ name: string }>(schemas.tokenNameSchema, ctx.request.body);
    const made = await createSigningToken(deps, company, name, requestActor(ctx));
    ok(
      ctx,
      'Signing token generated',
      { token: made.token, token_note: TOKEN_NOTE, signing_token: presentToken(made.row) },
      201,
    );
  });
  router.delete('/:ruc/tokens/:id', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const row = await loadToken(deps, company, String(ctx.params.id));
    if (!(await revokeSigningToken(deps, company, row, requestActor(ctx))))
      throw notFound(`Signing token ${row.id} no longer works`);
    ok(ctx, 'Signing token revoked; it answers 401 from now on', { signing_token: presentToken(row) });
  });
  router.post('/:ruc/tokens/:id/roll', ...guard, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const row = await loadToken(deps, company, String(ctx.params.id));
    const input = schemas.validate<{ expires_in: schemas.RollOverlap }>(schemas.rollSchema, ctx.request.body);
    const rolled = await rollSigningToken(deps, company, row, input.expires_in, requestActor(ctx));
    ok(
      ctx,
      'Signing token rolled',
      {
        token: rolled.token,
        token_note: TOKEN_NOTE,
        signing_token: presentToken(rolled.row),
        rolled: { id: row.id, expires_at: rolled.oldExpiresAt.toISOString() },
      },
      201,
    );
  });
}
