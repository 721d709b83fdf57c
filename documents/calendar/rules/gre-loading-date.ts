import { defineRule } from '../rule';

export const GRE_LOADING_DATE = defineRule({
  id: 'gre-loading-date',
  effective: '2026-06-01',
  // SUNAT's GRE transportista XSL has none of the three (sunat/xsl/commons/xsl/ValidaExprRegGreTransportista-2.0.1.xsl).
  docTypes: ['09'],
  summary:
    'Guides by public transport (modalidad 01) carry the date the goods were handed to the carrier ' +
    '(ShipmentStage/LoadingTransportEvent/OccurrenceDate), not before the issue date',
  source:
    'SUNAT ValidaExprRegGreRemitente-2.0.1.xsl (PAS20251U210700095); greenter issue #269, lycet issue #650, greenter PR #272',
  confidence: 'sure',
  dated: 'first refusals in production on 2026-06-01: greenter issue #269, lycet issue #650, greenter PR #272',
  answers: {
    missing: {
      code: '3617',
      rows: [{ file: 'revisions', row: 1, severity: 'ERROR', condition: "modalidad de traslado es '01'" }],
    },
    early: {
      code: '3618',
      rows: [{ file: 'revisions', row: 3, severity: 'ERROR', condition: 'menor a la fecha de emisión' }],
    },
    format: {
      code: '3619',
      rows: [{ file: 'revisions', row: 2, severity: 'ERROR', condition: 'diferente de YYYY-MM-DD' }],
    },
  },
});
