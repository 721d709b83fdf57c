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
  // The buyer e-mail's SMTP URL (it carries the password; issue 27's migration). A column a database lacks is skipped.
  { table: 'company_email_settings', key: ['company_id'], column: 'smtp_url_sealed', what: 'SMTP URLs and passwords' },
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
  const check = hasCheck
    ? await db('master_key_check').where({ id: CHECK_ID }).first<{ sealed: string } | undefined>('sealed')
    : undefined;
  const sample = check?.sealed ?? (await anySealedValue(db));
  if (sample) {
    try {
      secrets.open(sample);
    } catch {
      return (
        `the master key cannot open the stored secrets: they are sealed with key ${sealingKeyId(sample)}, this process has ` +
        `${secrets.keyIds.join(', ')}; fix: set CHASQUI_MASTER_KEY to the key that sealed them (or add it to CHASQUI_MASTER_KEYS_OLD) and restart`
      );
    }
  }
  if (hasCheck && !check)
    await db('master_key_check')
      .insert({ id: CHECK_ID, sealed: secrets.seal(CHECK_TEXT) })
      .onConflict('id')
      .ignore();
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

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** `table.column`, as status and progress name a sealed column. */
export function columnName(entry: SealedColumn): string {
  return `${entry.table}.${entry.column}`;
}

/**
 * How many stored secrets each key seals, per sealed column. A column this database does not have yet (a migration
 * still to run) is left out.
 */
export async function sealedCounts(db: Db): Promise<{ entry: SealedColumn; keyId: string; count: number }[]> {
  const out: { entry: SealedColumn; keyId: string; count: number }[] = [];
  for (const entry of SEALED_COLUMNS) {
    if (!(await db.schema.hasColumn(entry.table, entry.column))) continue;
    const rows = await db(entry.table)
      .whereNotNull(entry.column)
      .select(db.raw(`split_part(??, ':', 2) as key_id`, [entry.column]))
      .count<{ key_id: string; count: string }[]>('* as count')
      .groupBy('key_id');
    for (const row of rows) out.push({ entry, keyId: row.key_id, count: Number(row.count) });
  }
  return out;
}

/**
 * Re-seals under the current key up to `limit` values of one column sealed with another key, in one transaction
 * (rows locked, others' skipped), and returns how many. Each batch commits on its own: a run killed mid-way leaves
 * every value sealed under one key or the other, and the next run takes what is left.
 */
export async function resealBatch(db: Db, secrets: SecretBox, entry: SealedColumn, limit: number): Promise<number> {
  if (!(await db.schema.hasColumn(entry.table, entry.column))) return 0;
  return db.transaction(async (trx) => {
    const rows = await trx(entry.table)
      .select<Record<string, string>[]>([...entry.key, entry.column])
      .whereNotNull(entry.column)
      .whereRaw(`split_part(??, ':', 2) <> ?`, [entry.column, secrets.keyId])
      .orderBy([...entry.key])
      .limit(limit)
      .forUpdate()
      .skipLocked();
    for (const row of rows) {
      const where = Object.fromEntries(entry.key.map((k) => [k, row[k]]));
      await trx(entry.table)
        .where(where)
        .update({ [entry.column]: secrets.seal(secrets.openBuffer(row[entry.column])) });
    }
    return rows.length;
  });
}

export interface KeyRotationRow {
  id: string;
  operator: string;
  to_key_id: string;
  from_keys: Record<string, number>;
  status: 'running' | 'done' | 'failed' | 'interrupted';
  resealed: number;
  detail: string | null;
  started_at: Date;
  finished_at: Date | null;
}

/** Opens the audit record of a rotation; runs left `running` (killed) are marked interrupted and returned. */
export async function beginKeyRotation(
  db: Db,
  rotation: { operator: string; toKeyId: string; fromKeys: Record<string, number> },
): Promise<{ id: string; interrupted: KeyRotationRow[] }> {
  return db.transaction(async (trx) => {
    const interrupted = await trx<KeyRotationRow>('key_rotations')
      .where({ status: 'running' })
      .update({ status: 'interrupted', finished_at: trx.fn.now() as unknown as Date })
      .returning([
        'id',
        'operator',
        'to_key_id',
        'from_keys',
        'status',
        'resealed',
        'detail',
        'started_at',
        'finished_at',
      ]);
    const [row] = await trx('key_rotations')
      .insert({
        operator: rotation.operator,
        to_key_id: rotation.toKeyId,
        from_keys: JSON.stringify(rotation.fromKeys),
        status: 'running',
      })
      .returning<{ id: string }[]>('id');
    return { id: String(row.id), interrupted: interrupted as KeyRotationRow[] };
  });
}

export async function recordKeyRotation(
  db: Db,
  id: string,
  progress: { resealed: number; status?: KeyRotationRow['status']; detail?: string },
): Promise<void> {
  await db('key_rotations')
    .where({ id })
    .update({
      resealed: progress.resealed,
      ...(progress.status ? { status: progress.status, finished_at: db.fn.now() } : {}),
      ...(progress.detail ? { detail: progress.detail } : {}),
    });
}

export function listKeyRotations(db: Db, limit = 5): Promise<KeyRotationRow[]> {
  return db<KeyRotationRow>('key_rotations').orderBy('id', 'desc').limit(limit);
}
