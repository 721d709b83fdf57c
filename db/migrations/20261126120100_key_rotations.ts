import type { Knex } from 'knex';

/**
 * The audit of `chasqui keys rotate`: who re-sealed the stored secrets under which key, how many, and how it ended.
 * A run killed mid-way stays `running` with its progress; the next run marks it `interrupted` and carries on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('key_rotations', (t) => {
    t.bigIncrements('id');
    t.text('operator').notNullable();
    t.text('to_key_id').notNullable();
    // The keys the secrets were sealed with when the run began, with their counts: {"a1b2c3d4": 120}.
    t.jsonb('from_keys').notNullable();
    // running | done | failed | interrupted
    t.text('status').notNullable();
    t.integer('resealed').notNullable().defaultTo(0);
    t.text('detail');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('key_rotations');
}
