import type { Knex } from 'knex';

/**
 * The sweeper prunes settled webhook deliveries older than CHASQUI_WEBHOOK_HISTORY_DAYS (docs/webhooks.md, "History"):
 * this index finds the oldest without reading the whole window. On `created_at`, written once at insert: an index on
 * `completed_at` (or one whose predicate reads it) would stop the settling update from being a HOT update, writing
 * every index of the row again on the delivery path.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index webhook_deliveries_created on webhook_deliveries (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_created');
}
