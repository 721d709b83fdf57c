/**
 * Catalog 54 codes SUNAT accepts on documents issued from detraction-codes-2026's date (reported: sunat/rules/
 * revisions.csv row 21); the rest of the catalog is documents/catalogs/detraction.ts. Their names and rates were not
 * found, so a document using one states its porcentaje. Here, beside the calendar, for `chasqui validate` to read too.
 */
export const DETRACTION_CODES_2026: readonly string[] = ['038', '042', '043', '046', '047'];
