import type { Db } from './knex';

export type PdfFormat = 'a4' | 'ticket';

/** A company's e-mail to its buyers (PATCH /v1/companies/{ruc}/email); no row: the service's server, A4, no CDR. */
export interface CompanyEmailSettings {
  company_id: string;
  /** The company's own SMTP server, sealed (the URL carries its password); null: the service's. */
  smtp_url_sealed: string | null;
  from_address: string | null;
  reply_to: string | null;
  format: PdfFormat;
  attach_cdr: boolean;
  enabled: boolean;
  updated_at: Date;
}

export const DEFAULT_EMAIL_SETTINGS = {
  smtp_url_sealed: null,
  from_address: null,
  reply_to: null,
  format: 'a4',
  attach_cdr: false,
  enabled: true,
} as const;

export async function findCompanyEmailSettings(db: Db, companyId: string): Promise<CompanyEmailSettings | null> {
  return (
    ((await db('company_email_settings').where({ company_id: companyId }).first()) as
      CompanyEmailSettings | undefined) ?? null
  );
}

/** Writes the fields given (the others keep their value, or the default on a first write). */
export async function saveCompanyEmailSettings(
  db: Db,
  companyId: string,
  changes: Partial<Omit<CompanyEmailSettings, 'company_id' | 'updated_at'>>,
): Promise<CompanyEmailSettings> {
  const [row] = await db('company_email_settings')
    .insert({ ...DEFAULT_EMAIL_SETTINGS, ...changes, company_id: companyId })
    .onConflict('company_id')
    .merge({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row as CompanyEmailSettings;
}
