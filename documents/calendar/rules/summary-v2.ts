import { defineRule } from '../rule';
import { REVISION_2026, REVISION_2026_SOURCE } from './sources';

export const SUMMARY_V2 = defineRule({
  id: 'summary-v2',
  effective: '2027-01-01',
  docTypes: ['rc'],
  summary:
    'Daily summary 2.0: free operations by InstructionID 06-09 instead of 05, the IGV of free operations (9996), ' +
    "the buyer's name",
  source: REVISION_2026_SOURCE,
  confidence: 'reported',
  dated: REVISION_2026,
  answers: {
    freeByKind: {
      code: '2256',
      rows: [{ file: 'revisions', row: 15, severity: 'ERROR', condition: "'06' (gravadas)" }],
    },
    percent: {
      code: '2992',
      rows: [{ file: 'revisions', row: 16, severity: 'ERROR', condition: 'no existe el Tag UBL' }],
    },
    rate: {
      code: '3504',
      rows: [{ file: 'revisions', row: 17, severity: 'ERROR', condition: 'no es una tasa vigente' }],
    },
    amount: {
      code: '3102',
      rows: [{ file: 'revisions', row: 18, severity: 'ERROR', condition: 'decimal positivo' }],
    },
    buyerName: {
      code: '2022',
      rows: [{ file: 'revisions', row: 19, severity: 'ERROR', condition: 'alfanumérico de 3 hasta 1000' }],
    },
  },
});
