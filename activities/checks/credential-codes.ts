/** SUNAT's answers to credentials it does not accept (catalog 0101–0104, and 0111 a user without the profile). */
export const CREDENTIAL_CODES = new Set(['0101', '0102', '0103', '0104', '0111']);
