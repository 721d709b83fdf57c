import type { Db } from './knex';
import type { SecretBox } from '../core/secretbox';

/**
 * Every column holding a value sealed with the master key (core/secretbox.ts), with the columns that identify its row.
 * The master key check, `chasqui keys status` and `chasqui keys rotate` read this one list: a new sealed column is
 * added here and nowhere else.
 */
export const SEALED_COLUMNS: readonly { table: string; key: readonly string[]; column: string; what: string }[] = [
  { table: 'certificates', key: ['id'], column: 'private_key_sealed', what: 'certificate private keys' },
  { table: 'service_certificates', key: ['name'], column: 'private_key_sealed', what: "chasqui's own signing keys" },
  { table: 'companies', key: ['id'], column: 'sol_password_sealed', what: 'SOL passwords' },
  { table: 'companies', key: ['id'], column: 'sol_secondary_password_sealed', what: 'secondary SOL passwords' },
  { table: 'companies', key: ['id'], column: 'ose_password_sealed', what: 'OSE passwords' },
  { table: 'companies', key: ['id'], column: 'gre_client_secret_sealed', what: 'GRE client secrets' },
  { table: 'companies', key: ['id'], column: 'webhook_secret_sealed', what: 'webhook secrets' },
  { table: 'gre_tokens', key: ['client_id', 'ruc'], column: 'access_token_sealed', what: 'GRE access tokens' },
  { table: 'idempotency_keys', key: ['token_id', 'key'], column: 'response_sealed', what: 'stored idempotent answers' },
  { table: 'master_key_check', key: ['id'], column: 'sealed', what: 'the master key check value' },
];

/** The id of the key that sealed a value (`v1:<keyId>:…`). */
export function sealingKeyId(sealed: string): string {
  return sealed.split(':')[1] ?? '';
}

const CHECK_ID = 1;
const CHECK_TEXT = 'chasqui master key check';

/**
 * Null when the key ring opens the stored secrets, else what is wrong and how to fix it. Judged by the stored check
 * value; before there is one (first start after its migration), by one stored secret, and the check value is written
 * only when that secret opened (a wrong key never records itself as the right one).
 */
export async function masterKeyProblem(db: Db, secrets: SecretBox): Promise<string | null> {
  // A database behind its migrations may not have the check's table yet: judged by a stored secret alone.
  const hasCheck = await db.schema.hasTable('master_key_check');
  const check = hasCheck ? await db('master_key_check').where({ id: CHECK_ID }).first<{ sealed: string } | undefined>('sealed') : undefined;
  const sample = check?.sealed ?? (await anySealedValue(db));
  if (sample) {
    try {
      secrets.open(sample);
    } catch {
      return (
        `the master key cannot open the stored secrets: they are sealed with key ${sealingKeyId(sample)}, this process has ` +
        `${secrets.keyIds.join(', ')}; fix: set CHASQUI_MASTER_KEY to the key that sealed them (or add it to CHASQUI_MASTER_KEYS) and restart`
      );
    }
  }
  if (hasCheck && !check) await db('master_key_check').insert({ id: CHECK_ID, sealed: secrets.seal(CHECK_TEXT) }).onConflict('id').ignore();
  return null;
}

async function anySealedValue(db: Db): Promise<string | null> {
  for (const { table, column } of SEALED_COLUMNS) {
    if (table === 'master_key_check' || !(await db.schema.hasColumn(table, column))) continue;
    const row = await db(table).whereNotNull(column).first<Record<string, string> | undefined>(column);
    if (row) return row[column];
  }
  return null;
}
