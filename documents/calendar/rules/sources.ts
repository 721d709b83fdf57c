/** Sources and sheet rows more than one dated rule cites (documents/calendar/rules/). */
import type { SheetRowCitation } from '../rule';

export const REVISION_2026 =
  "SUNAT 'Reglas de validación' 2026-04-24 (Control de Cambios), moved to 2027-01-01 by the revision of 2026-07-24, as eriquegasparcarlos/esolutions-xml reads them (docs/sunat-changes-2026-08.md)";

/** What the summaries of the rules of that revision say of their source. */
export const REVISION_2026_SOURCE =
  "SUNAT 'Reglas de validación' 2026-04-24, moved to 2027-01-01 by the 2026-07-24 revision; reported by esolutions-xml";

export const RATE_3103 =
  'chasqui answers a rate not in force on the issue date with 3103; the sheet checks the IGV total against "la tasa vigente" (3291) and the lines\' rate (3462), which is what SUNAT itself answers';

/**
 * The notes' rows of the IGV rate (fields 46/47 of NotaCredito2_0 and NotaDebito2_0): every taxed line at one rate
 * "que corresponda con una tasa vigente" (3462). The notes' sheets name 10 beside 10.5 because a note takes the rate
 * of the document it modifies.
 */
export const NOTE_LINE_RATE_ROWS: readonly SheetRowCitation[] = [
  { file: 'NotaCredito2_0', row: 301, code: '3462', severity: 'ERROR', condition: 'diferente tasa de tributo' },
  { file: 'NotaDebito2_0', row: 299, code: '3462', severity: 'ERROR', condition: 'diferente tasa de tributo' },
];
