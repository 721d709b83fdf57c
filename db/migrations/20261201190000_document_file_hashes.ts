import type { Knex } from 'knex';

/**
 * A document's file in an object store is named by the row as the 32-byte SHA-256 of its bytes (`xml_sha256`,
 * `cdr_sha256`) instead of its whole key: the rest of the key (`RUC/type/year/month/`, `.xml`/`.zip`) is the row's own
 * RUC, type and issue date, so the 92-byte text was 60 bytes of the row said again, twice per document (bench:soak with
 * S3, docs/deploy.md). files/documents.ts derives the key; nothing else changes. Up refuses a row whose key is not the
 * one its columns give (it would then name another object); down writes the keys back.
 */
const KEY_OF = (kind: 'xml' | 'cdr', ext: 'xml' | 'zip') =>
  `ruc || '/' || doc_type || '/' || to_char(issue_date, 'YYYY/MM') || '/' || encode(${kind}_sha256, 'hex') || '.${ext}'`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.binary('xml_sha256');
    t.binary('cdr_sha256');
  });
  for (const [kind, ext] of [
    ['xml', 'xml'],
    ['cdr', 'zip'],
  ] as const) {
    await knex.raw(
      `update documents set ${kind}_sha256 = decode(substring(${kind}_key from '([0-9a-f]{64})\\.${ext}$'), 'hex')
        where ${kind}_key is not null`,
    );
    const [odd] = (
      await knex.raw(
        `select id, ${kind}_key as key from documents where ${kind}_key is not null
            and (${kind}_sha256 is null or ${kind}_key <> ${KEY_OF(kind, ext)}) limit 1`,
      )
    ).rows;
    if (odd)
      throw new Error(`document ${odd.id}: its ${kind} key ${odd.key} is not the one its RUC, type and date give`);
  }
  await knex.raw('alter table documents drop constraint documents_xml_somewhere');
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumn('xml_key');
    t.dropColumn('cdr_key');
  });
  await knex.raw(
    'alter table documents add constraint documents_xml_somewhere check (xml is not null or xml_sha256 is not null)',
  );
  await knex.raw(
    `alter table documents add constraint documents_file_hashes
       check (octet_length(xml_sha256) = 32 and octet_length(cdr_sha256) = 32) not valid`,
  );
  await knex.raw('alter table documents validate constraint documents_file_hashes');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table documents drop constraint documents_file_hashes');
  await knex.raw('alter table documents drop constraint documents_xml_somewhere');
  await knex.schema.alterTable('documents', (t) => {
    t.text('xml_key');
    t.text('cdr_key');
  });
  await knex.raw(`update documents set xml_key = ${KEY_OF('xml', 'xml')} where xml_sha256 is not null`);
  await knex.raw(`update documents set cdr_key = ${KEY_OF('cdr', 'zip')} where cdr_sha256 is not null`);
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumn('xml_sha256');
    t.dropColumn('cdr_sha256');
  });
  await knex.raw(
    'alter table documents add constraint documents_xml_somewhere check (xml is not null or xml_key is not null)',
  );
}
