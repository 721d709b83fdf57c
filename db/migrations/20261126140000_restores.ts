import type { Knex } from 'knex';

/**
 * Each restore of chasqui's database from a backup (deploy/restore/after-restore.sql records it): what the authority
 * registered between the backup and the restore may be a document chasqui acknowledged and then lost with the restore.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('restores', (t) => {
    t.bigIncrements('id');
    t.timestamp('backup_taken_at', { useTz: true }).notNullable();
    t.timestamp('restored_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('restores');
}
