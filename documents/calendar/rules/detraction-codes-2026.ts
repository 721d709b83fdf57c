import { defineRule } from '../rule';

export const DETRACTION_2026 = defineRule({
  id: 'detraction-codes-2026',
  effective: '2026-09-01',
  docTypes: ['01', '08'],
  summary: 'Catalog 54 (detracción) accepts codes 038, 042, 043, 046 and 047; a document using one states its rate',
  source: 'reported by one implementer (sunat/rules/revisions.csv row 21); names and rates not found',
  confidence: 'reported',
  dated: 'reported by one implementer, unverified (sunat/SOURCES.md, Rules after June 2024)',
  answers: {
    unknownCode: {
      code: '3033',
      rows: [
        { file: 'Factura2_0', row: 492, severity: 'ERROR', condition: 'diferente al listado' },
        { file: 'NotaDebito2_0', row: 404, severity: 'ERROR', condition: 'diferente al listado' },
        { file: 'revisions', row: 21, severity: 'ERROR', condition: "'038', '042', '043', '046' y '047'" },
      ],
    },
  },
});

/**
 * The catalog 54 codes SUNAT accepts from the rule's date (reported: sunat/rules/revisions.csv row 21); the rest of
 * the catalog is documents/catalogs/detraction.ts. Their names and rates were not found, so a document using one
 * states its porcentaje.
 */
export const DETRACTION_CODES_2026: readonly string[] = ['038', '042', '043', '046', '047'];
