/** The document types chasqui issues (catalog 01, and the summaries rc, ra, rr); its own module so the rule calendar can name them without importing what it configures. */
export type DocType = '01' | '03' | '04' | '07' | '08' | '09' | '20' | '31' | '40' | 'rc' | 'ra' | 'rr';
