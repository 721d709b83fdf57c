import type { Knex } from 'knex';

/**
 * PDFs already rendered (docs/files.md, "The printed cache"), keyed by a hash of everything a PDF depends on: the
 * same bytes are never rendered twice. Bounded in size and age by the writer (db/printed-cache.ts); nothing else
 * reads it, so emptying it is always safe.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table printed_cache (
    key text primary key,
    pdf bytea not null,
    size integer not null,
    created_at timestamptz not null default now()
  )`);
  await knex.raw('create index printed_cache_created on printed_cache (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists printed_cache');
}
