import { defineRule } from '../rule';

export const SUMMARY_IGV_PERCENT = defineRule({
  id: 'summary-igv-percent',
  effective: '2026-02-01',
  docTypes: ['rc'],
  summary: 'Each daily summary line carries the IGV rate (cbc:Percent) on its IGV category',
  source: 'greenter issue #266 and discussion #265 (a ticket answered 2992, February 2026); greenter PR #267',
  confidence: 'reported',
  dated: 'greenter issue #266 and discussion #265: a real ticket answered 2992 in February 2026',
  answers: {
    percent: {
      code: '2992',
      rows: [{ file: 'revisions', row: 20, severity: 'ERROR', condition: "'Código de tributo' es '1000'" }],
    },
  },
});
