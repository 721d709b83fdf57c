import type { Knex } from 'knex';

/**
 * Named signing tokens for the panel and the API (issue 42): a name the account gives, a display prefix stored at
 * creation (older tokens have none), an expiry set when a token is rolled (the old one works until then), and the
 * last use, written at most once a minute per token and process after the answer (api/auth.ts). A test notice's
 * delivery (event `webhook.test`) has neither a document nor a check change.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_tokens', (t) => {
    t.text('name');
    t.text('prefix');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
  });
  await knex.raw('alter table webhook_deliveries drop constraint webhook_deliveries_one_subject');
  await knex.raw(`alter table webhook_deliveries add constraint webhook_deliveries_one_subject check (
    case when event = 'webhook.test' then document_id is null and check_event_id is null
         else (document_id is null) <> (check_event_id is null) end)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhook_deliveries').where({ event: 'webhook.test' }).delete();
  await knex.raw('alter table webhook_deliveries drop constraint webhook_deliveries_one_subject');
  await knex.raw(
    'alter table webhook_deliveries add constraint webhook_deliveries_one_subject check ((document_id is null) <> (check_event_id is null))',
  );
  await knex.schema.alterTable('api_tokens', (t) => {
    t.dropColumns('name', 'prefix', 'expires_at', 'last_used_at');
  });
}
