import type { Db } from './knex';

export type PlanType = '01' | '02';
export type Environment = '01' | '02';
export type Destination = 'tax_authority' | 'own_ose' | 'provider_ose';
export type Signing = 'provider' | 'external';
export type SendingMode = 'automatic' | 'manual';
export type ReceiptsMode = 'individual' | 'summary';
export type ResponseMode = 'no_wait' | 'wait';

/** A companies row as stored (sealed columns hold SecretBox output, never plain secrets). */
export interface CompanyRow {
  id: string;
  account_id: string;
  ruc: string;
  business_name: string;
  plan_type: PlanType;
  environment: Environment;
  sending_mode: SendingMode;
  receipts_mode: ReceiptsMode;
  response_mode: ResponseMode;
  destination: Destination;
  signing: Signing;
  certificate_id: string | null;
  sol_user: string | null;
  sol_password_sealed: string | null;
  sol_updated_at: Date | null;
  /** The secondary SOL user that sends to SUNAT when the company signs with its own certificate (spec 1). */
  sol_secondary_user: string | null;
  sol_secondary_password_sealed: string | null;
  ose_url: string | null;
  ose_user: string | null;
  ose_password_sealed: string | null;
  ose_updated_at: Date | null;
  gre_client_id: string | null;
  gre_client_secret_sealed: string | null;
  gre_updated_at: Date | null;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  webhook_updated_at: Date | null;
  production_documents: number;
  /** On SUNAT's register of the special IGV rate of MYPE restaurants and hotels (ind_padron 01), as the company declares. */
  register_igv_special_rate: boolean;
  /** On SUNAT's register of issuers obliged to send the product code (ind_padron 12), as the company declares. */
  register_product_code: boolean;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The timestamp columns of companies: JSON carries them as text. */
const COMPANY_TIMESTAMPS = [
  'sol_updated_at',
  'ose_updated_at',
  'gre_updated_at',
  'webhook_updated_at',
  'created_at',
  'updated_at',
] as const;

/** A companies row read as JSON (`to_jsonb(c)`, joined into another statement), its timestamps as Dates again. */
export function companyFromJson(json: Record<string, unknown>): CompanyRow {
  const row: Record<string, unknown> = { ...json };
  for (const column of COMPANY_TIMESTAMPS)
    if (typeof row[column] === 'string') row[column] = new Date(row[column] as string);
  return row as unknown as CompanyRow;
}

export type CompanyInsert = Pick<CompanyRow, 'account_id' | 'ruc' | 'business_name' | 'plan_type' | 'environment'> &
  Partial<Pick<CompanyRow, 'destination' | 'signing' | 'sol_user' | 'sol_password_sealed' | 'sol_updated_at'>>;

export type CompanyChanges = Partial<Omit<CompanyRow, 'id' | 'account_id' | 'ruc' | 'created_at' | 'updated_at'>>;

export function findCompany(db: Db, accountId: string, ruc: string): Promise<CompanyRow | undefined> {
  return db<CompanyRow>('companies').where({ account_id: accountId, ruc }).first();
}

/** Every company registered with this RUC (several accounts may hold one RUC). */
export function findCompaniesByRuc(db: Db, ruc: string): Promise<CompanyRow[]> {
  return db<CompanyRow>('companies').where({ ruc }).orderBy('created_at');
}

export function findCompanyById(db: Db, id: string): Promise<CompanyRow | undefined> {
  return db<CompanyRow>('companies').where({ id }).first();
}

/** The account's companies newest first, `limit` of them after the company with RUC `before` (a previous page's last). */
/** An account's companies newest first (every account's when `accountId` is null: support staff), after `before` (a RUC). */
export function listCompanies(
  db: Db,
  accountId: string | null,
  page: { limit: number; before?: string },
): Promise<CompanyRow[]> {
  const q = db<CompanyRow>('companies');
  if (accountId) q.where({ account_id: accountId });
  if (page.before) {
    q.whereRaw(
      '(created_at, id) < (select created_at, id from companies where ruc = ? and (? :: uuid is null or account_id = ?) order by created_at desc limit 1)',
      [page.before, accountId, accountId],
    );
  }
  return q
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit);
}

/** Whether another account holds this RUC (a new registration then needs `confirm: true`). */
export async function rucHeldElsewhere(db: Db, accountId: string, ruc: string): Promise<boolean> {
  const row = await db('companies').where({ ruc }).whereNot({ account_id: accountId }).first('id');
  return row !== undefined;
}

/** Inserts the company unless the account already has the RUC; `created: false` returns the existing row. */
export async function insertCompany(db: Db, values: CompanyInsert): Promise<{ company: CompanyRow; created: boolean }> {
  const [row] = await db<CompanyRow>('companies')
    .insert(values)
    .onConflict(['account_id', 'ruc'])
    .ignore()
    .returning('*');
  if (row) return { company: row as CompanyRow, created: true };
  return { company: (await findCompany(db, values.account_id, values.ruc))!, created: false };
}

export async function updateCompany(db: Db, id: string, changes: CompanyChanges): Promise<CompanyRow> {
  const [row] = await db<CompanyRow>('companies')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() } as Record<string, unknown>)
    .returning('*');
  return row as CompanyRow;
}

/** Deletes the company unless it has production movement; false when it has (or is already gone). */
export async function deleteCompanyWithoutProduction(db: Db, id: string): Promise<boolean> {
  return (await db('companies').where({ id, production_documents: 0 }).delete()) === 1;
}
