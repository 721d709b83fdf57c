import type { Knex } from 'knex';

/**
 * Accounts, their API tokens, companies, certificates and the portal procedures of each company.
 * Secrets (SOL, OSE and GRE passwords, private keys, webhook secrets) are stored sealed by core/secretbox.ts;
 * tokens only as SHA-256 hashes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    // Plan 01 signatures still available to the account's companies; the issuing code consumes it.
    t.bigInteger('quota_units').notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('certificates', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // 'own' = uploaded by the company; 'provider' = assigned by the service for plan 02 (a later issue).
    t.text('origin').notNullable();
    t.text('subject').notNullable();
    t.text('issuer').notNullable();
    t.text('serial_number').notNullable();
    t.text('ruc');
    t.timestamp('not_before', { useTz: true }).notNullable();
    t.timestamp('not_after', { useTz: true }).notNullable();
    t.text('certificate_pem').notNullable();
    t.text('private_key_sealed').notNullable();
    // Validity of a provider certificate starts at its first production signature (spec 4, issue rule 5).
    t.timestamp('first_used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('companies', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('ruc', 11).notNullable();
    t.text('business_name').notNullable();
    t.string('plan_type', 2).notNullable();
    t.string('environment', 2).notNullable();
    t.text('sending_mode').notNullable().defaultTo('automatic');
    t.text('receipts_mode').notNullable().defaultTo('individual');
    t.text('response_mode').notNullable().defaultTo('no_wait');
    t.text('destination').notNullable().defaultTo('tax_authority');
    t.text('signing').notNullable().defaultTo('provider');
    t.uuid('certificate_id').references('certificates.id').onDelete('SET NULL');
    t.text('sol_user');
    t.text('sol_password_sealed');
    t.timestamp('sol_updated_at', { useTz: true });
    t.text('ose_url');
    t.text('ose_user');
    t.text('ose_password_sealed');
    t.timestamp('ose_updated_at', { useTz: true });
    t.text('gre_client_id');
    t.text('gre_client_secret_sealed');
    t.timestamp('gre_updated_at', { useTz: true });
    t.text('webhook_url');
    t.text('webhook_secret_sealed');
    t.timestamp('webhook_updated_at', { useTz: true });
    // Documents issued or sent in production; a company with any cannot be deleted (spec 3.2). Set by issuing.
    t.integer('production_documents').notNullable().defaultTo(0);
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['account_id', 'ruc']);
    t.index(['ruc']);
  });

  await knex.schema.createTable('api_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('token_hash').notNullable().unique();
    t.text('scope').notNullable();
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // Company tokens outlive their company only as revoked rows (401 "without company").
    t.uuid('company_id').references('companies.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['company_id']);
  });

  await knex.schema.createTable('company_procedures', (t) => {
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('procedure').notNullable();
    t.text('state').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('done_at', { useTz: true });
    t.timestamp('next_attempt_at', { useTz: true });
    t.primary(['company_id', 'procedure']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['company_procedures', 'api_tokens', 'companies', 'certificates', 'accounts']) {
    await knex.schema.dropTableIfExists(table);
  }
}
