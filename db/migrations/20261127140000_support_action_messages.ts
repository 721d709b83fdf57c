import type { Knex } from 'knex';

/**
 * Issue 34: a support action's result is kept as its lifecycle message (code and parameters, lifecycle/messages/)
 * beside the English `detail`, so the console shows it in Spanish and the CLI keeps its English. Null for records
 * made before, and for failures (an error's text, not a lifecycle message).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('support_actions', (t) => {
    t.jsonb('message');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('support_actions', (t) => {
    t.dropColumn('message');
  });
}
