import type { Db } from './knex';

/**
 * The audit log (migration 20261207120000_audit_log, docs/security.md "Audit log"): one row per change a person or a
 * token makes, append-only in PostgreSQL. Writers pass values already masked: a secret is recorded as `SECRET_SET` /
 * `SECRET_CLEARED`, never itself.
 */
export type ActorKind = 'account-token' | 'company-token' | 'console' | 'support' | 'user' | 'system';

/** Who made a change and from where (the client address as CHASQUI_TRUST_PROXY says). */
export interface Actor {
  kind: ActorKind;
  /** A person's e-mail or console name, a token's name or id, a support operator. */
  name: string;
  address: string | null;
  requestId?: string | null;
}

/** One field's change; absent sides are "not set". */
export interface FieldChange {
  from?: unknown;
  to?: unknown;
}

/** What a secret field is recorded as: that it changed, never its value. */
export const SECRET_SET = '(secreto nuevo)';
export const SECRET_KEPT = '(secreto)';

/** A secret field's change as the log records it. */
export function secretChange(before: unknown, after: unknown): FieldChange {
  return { from: before ? SECRET_KEPT : null, to: after ? SECRET_SET : null };
}

export interface AuditEntry {
  accountId: string;
  companyId?: string | null;
  companyRuc?: string | null;
  actor: Actor;
  /** What was done, dotted: `company.create`, `company.sol_credentials`, `token.revoke`, … */
  action: string;
  changes?: Record<string, FieldChange>;
}

export interface AuditRow {
  id: string;
  at: Date;
  account_id: string;
  company_id: string | null;
  company_ruc: string | null;
  actor_kind: ActorKind;
  actor: string;
  address: string | null;
  request_id: string | null;
  action: string;
  changes: Record<string, FieldChange>;
}

/** Records one change; pass the transaction that made it so the change and its record commit together. */
export async function recordChange(db: Db, entry: AuditEntry): Promise<void> {
  await db('audit_log').insert({
    account_id: entry.accountId,
    company_id: entry.companyId ?? null,
    company_ruc: entry.companyRuc ?? null,
    actor_kind: entry.actor.kind,
    actor: entry.actor.name,
    address: entry.actor.address,
    request_id: entry.actor.requestId ?? null,
    action: entry.action,
    changes: JSON.stringify(entry.changes ?? {}),
  });
}

/** An account's log (or one company's, or those of some companies), newest first, a page at a time (`before`: the last id of the previous page). */
export function listAudit(
  db: Db,
  query: { accountId: string; companyId?: string; companyIds?: string[]; before?: string; limit: number },
): Promise<AuditRow[]> {
  const rows = db<AuditRow>('audit_log').where({ account_id: query.accountId });
  if (query.companyId) rows.where({ company_id: query.companyId });
  // A reader limited to some companies sees their rows only, not the account's own.
  if (query.companyIds) rows.whereIn('company_id', query.companyIds);
  if (query.before) rows.where('id', '<', query.before);
  return rows.orderBy('id', 'desc').limit(query.limit);
}

/** A company's last record of each of these actions (what the panel's "configurado el … por …" says). */
export async function lastChanges(db: Db, companyId: string, actions: string[]): Promise<Map<string, AuditRow>> {
  const rows = await db<AuditRow>('audit_log')
    .distinctOn('action')
    .where({ company_id: companyId })
    .whereIn('action', actions)
    .orderBy([{ column: 'action' }, { column: 'id', order: 'desc' }]);
  return new Map(rows.map((r) => [r.action, r]));
}
