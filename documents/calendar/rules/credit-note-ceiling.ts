import { defineRule } from '../rule';
import { REVISION_2026, REVISION_2026_SOURCE } from './sources';

export const CREDIT_NOTE_CEILING = defineRule({
  id: 'credit-note-ceiling',
  effective: '2027-01-01',
  docTypes: ['07'],
  summary: "A credit note's amounts may not exceed the referenced document's; a note modifies one document only",
  source: REVISION_2026_SOURCE,
  confidence: 'reported',
  dated: REVISION_2026,
  answers: {
    aboveInvoice: {
      code: '3286',
      rows: [
        { file: 'revisions', row: 14, severity: 'ERROR', condition: "modifica' es '01'" },
        { file: 'NotaCredito2_0', row: 85, severity: 'ERROR', condition: "diferente de '10'" },
      ],
    },
    aboveReceipt: {
      code: '3503',
      rows: [{ file: 'revisions', row: 13, severity: 'ERROR', condition: "modifica' es '03'" }],
    },
    oneDocument: {
      code: '3261',
      rows: [{ file: 'revisions', row: 12, severity: 'ERROR', condition: 'más de un tag' }],
    },
    receiptObserved: {
      code: '4028',
      rows: [{ file: 'NotaCredito2_0', row: 86, severity: 'OBSERV', condition: "modifica' es '03'" }],
    },
  },
});
