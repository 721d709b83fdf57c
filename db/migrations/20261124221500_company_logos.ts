import type { Knex } from 'knex';

/**
 * The logo a company's printed documents carry (PUT /v1/companies/{ruc}/logo), validated on upload. Its own table so
 * that reading a company never loads the image.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('company_logos', (t) => {
    t.uuid('company_id').primary().references('companies.id').onDelete('CASCADE');
    t.text('content_type').notNullable();
    t.binary('image').notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('company_logos');
}
