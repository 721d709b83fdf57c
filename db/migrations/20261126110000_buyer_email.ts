import type { Knex } from 'knex';

/**
 * Issue 27, the buyer's e-mail:
 * - on `documents`, where the document is e-mailed (`cliente.correo`) and how that went, beside its status so GET, the
 *   list and the webhook present it from the row they already read (no second query for any document);
 * - `company_email_settings`: a company's own SMTP server (its URL sealed: it carries the password), sender, format
 *   of the attached PDF, whether the CDR goes too, and whether the company e-mails its buyers at all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.specificType('email_to', 'text[]');
    // pending | sent | failed | disabled; null when the document has no e-mail
    t.text('email_status');
    t.integer('email_attempts').notNullable().defaultTo(0);
    t.text('email_error');
    t.timestamp('email_sent_at', { useTz: true });
  });
  await knex.schema.createTable('company_email_settings', (t) => {
    t.uuid('company_id').primary().references('companies.id').onDelete('CASCADE');
    t.text('smtp_url_sealed');
    t.text('from_address');
    t.text('reply_to');
    // a4 | ticket
    t.text('format').notNullable().defaultTo('a4');
    t.boolean('attach_cdr').notNullable().defaultTo(false);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('company_email_settings');
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumns('email_to', 'email_status', 'email_attempts', 'email_error', 'email_sent_at');
  });
}
