import type { Knex } from 'knex';

/**
 * Every change a person or a token makes to an account's companies, credentials, certificate, tokens, webhook and
 * e-mail settings (docs/security.md, "Audit log"): who, when, from where, what (old → new, secrets masked by the
 * writer, db/audit.ts). Kept as long as the tax record. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE for
 * every role the application connects as, so not even a bug in chasqui can rewrite it. Account and company ids carry
 * no foreign key: a deleted company's history stays.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table audit_log (
    id bigserial primary key,
    at timestamptz not null default now(),
    account_id uuid not null,
    company_id uuid,
    company_ruc text,
    actor_kind text not null,
    actor text not null,
    address text,
    request_id text,
    action text not null,
    changes jsonb not null default '{}'::jsonb
  )`);
  await knex.raw('create index audit_log_account on audit_log (account_id, id desc)');
  await knex.raw('create index audit_log_company on audit_log (company_id, id desc) where company_id is not null');
  await knex.raw(`create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only' using errcode = 'insufficient_privilege';
    end $$`);
  await knex.raw(`create trigger audit_log_no_update before update or delete on audit_log
    for each row execute function audit_log_append_only()`);
  await knex.raw(`create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists audit_log');
  await knex.raw('drop function if exists audit_log_append_only()');
}
