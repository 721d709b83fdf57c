import type { Db } from './knex';

export interface LogoRow {
  company_id: string;
  content_type: string;
  image: Buffer;
  width: number;
  height: number;
  updated_at: Date;
}

export async function findLogo(db: Db, companyId: string): Promise<LogoRow | null> {
  return ((await db('company_logos').where({ company_id: companyId }).first()) as LogoRow | undefined) ?? null;
}

/** Stores (or replaces) the company's logo. */
export async function saveLogo(db: Db, logo: Omit<LogoRow, 'updated_at'>): Promise<LogoRow> {
  const [row] = await db('company_logos')
    .insert({ ...logo, updated_at: db.fn.now() })
    .onConflict('company_id')
    .merge()
    .returning('*');
  return row as LogoRow;
}

export async function deleteLogo(db: Db, companyId: string): Promise<boolean> {
  return (await db('company_logos').where({ company_id: companyId }).delete()) === 1;
}
