import { defineRule } from '../rule';
import { REVISION_2026, REVISION_2026_SOURCE } from './sources';

export const DEBIT_NOTE_13 = defineRule({
  id: 'debit-note-13',
  effective: '2027-01-01',
  docTypes: ['08'],
  summary:
    'Debit note reason 13 (catalog 10), only for unaffected (inafecta) operations; a debit note modifies one ' +
    'document only (3194, every reason)',
  source: REVISION_2026_SOURCE,
  confidence: 'reported',
  dated: REVISION_2026,
  answers: {
    unaffectedOnly: {
      code: '3507',
      rows: [{ file: 'revisions', row: 10, severity: 'ERROR', condition: 'no es inafecta' }],
      // Reported from SUNAT's 2026 revisions: no SUNAT file found carries its text yet.
      text: 'El tipo de nota de débito 13 solo corresponde a operaciones inafectas',
    },
    reference: {
      code: '2524',
      rows: [{ file: 'revisions', row: 9, severity: 'ERROR', condition: "diferente de '13'" }],
    },
    oneDocument: {
      code: '3194',
      rows: [{ file: 'revisions', row: 11, severity: 'ERROR', condition: 'Si existe más de un tag' }],
    },
  },
});

/** A line of a debit note of reason 13 is unaffected (inafecta): its catalog 07 code is one of 30–37. */
export function isUnaffectedReason(code: string): boolean {
  return /^3[0-7]$/.test(code);
}
