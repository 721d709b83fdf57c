/**
 * SUNAT's dated rules: the only list of them. SUNAT judges a document by the rules in force on its issue date
 * (`cbc:IssueDate`, a Lima date), and moves those dates; an operator moves them with CHASQUI_RULE_DATES
 * (docs/rules.md). Facts and their sources: sunat/SOURCES.md ("Rules after June 2024").
 */
import type { DocType } from '../doc-type';

export type RuleId =
  | 'summary-igv-percent'
  | 'gre-loading-date'
  | 'product-code-valid'
  | 'summary-v2'
  | 'debit-note-13'
  | 'credit-note-ceiling'
  | 'mype-rate-2026'
  | 'mype-rate-2027'
  | 'mype-rate-end'
  | 'detraction-codes-2026';

/** sure: read in SUNAT's own files or law, or seen in SUNAT's answers; reported: told by one implementer, unverified. */
export type Confidence = 'sure' | 'reported';

export interface RuleDefinition {
  id: RuleId;
  /** First issue date (YYYY-MM-DD, Lima) judged by the rule. */
  effective: string;
  /** SUNAT's return codes the rule answers with. */
  codes: readonly string[];
  /** Document types the rule judges. */
  docTypes: readonly DocType[];
  summary: string;
  source: string;
  confidence: Confidence;
}

export const RULES: readonly RuleDefinition[] = [
  {
    id: 'summary-igv-percent',
    effective: '2026-02-01',
    codes: ['2992'],
    docTypes: ['rc'],
    summary: 'Each daily summary line carries the IGV rate (cbc:Percent) on its IGV category',
    source: 'greenter issue #266 and discussion #265 (a ticket answered 2992, February 2026); greenter PR #267',
    confidence: 'reported',
  },
  {
    id: 'gre-loading-date',
    effective: '2026-06-01',
    codes: ['3617', '3618', '3619'],
    // SUNAT's GRE transportista XSL has none of the three (sunat/xsl/commons/xsl/ValidaExprRegGreTransportista-2.0.1.xsl).
    docTypes: ['09'],
    summary:
      'Guides by public transport (modalidad 01) carry the date the goods were handed to the carrier ' +
      '(ShipmentStage/LoadingTransportEvent/OccurrenceDate), not before the issue date',
    source:
      'SUNAT ValidaExprRegGreRemitente-2.0.1.xsl (PAS20251U210700095); greenter issue #269, lycet issue #650, greenter PR #272',
    confidence: 'sure',
  },
  {
    // Factura2_0 field 28 (Boleta2_0, NotaCredito2_0, NotaDebito2_0 and LiquidacionCompra2_0 the same rows), OBSERV
    // 4332 "El Código producto de SUNAT no es válido": "Si el tag existe, el formato del Tag UBL es diferente a
    // numérico de 8 dígitos" / "Si el tag existe, el valor del Tag UBL es diferente de 8 ceros ('00000000') y diferente
    // de 8 nueves ('99999999'), y no se encuentra en el listado"; OBSERV 4337 "termina en 6 ceros ('000000') o termina
    // en 4 ceros ('0000')" (not at class level). Judged only when the tag exists: an absent code is never this rule's
    // business. From its date these observations become error 3496 ("ERR-3496, reemplaza OBS-4332/OBS-4337").
    id: 'product-code-valid',
    effective: '2027-01-01',
    codes: ['3496', '4332', '4337'],
    docTypes: ['01', '03', '07', '08'],
    summary:
      "A line's SUNAT product code, when present, is 8 digits in catalog 25 at class level or below (or 00000000, " +
      '99999999): invalid ones are refused (3496) instead of observed (4332, 4337). A line without one is accepted',
    source:
      'SUNAT Validacionesv20260212 Factura2_0 field 28 (OBSERV 4332, "Si el tag existe"); error 3496 from 2027-01-01 ' +
      'as implementers read the 2026-08-26 revision (not read first-hand)',
    confidence: 'reported',
  },
  {
    id: 'summary-v2',
    effective: '2027-01-01',
    codes: ['2256', '2992', '3504', '3102', '2022'],
    docTypes: ['rc'],
    summary:
      'Daily summary 2.0: free operations by InstructionID 06-09 instead of 05, the IGV of free operations (9996), ' +
      "the buyer's name",
    source:
      "SUNAT 'Reglas de validación' 2026-04-24, moved to 2027-01-01 by the 2026-07-24 revision; reported by esolutions-xml",
    confidence: 'reported',
  },
  {
    id: 'debit-note-13',
    effective: '2027-01-01',
    codes: ['3507', '2524', '3194'],
    docTypes: ['08'],
    summary:
      'Debit note reason 13 (catalog 10), only for unaffected (inafecta) operations; a debit note modifies one ' +
      'document only (3194, every reason)',
    source:
      "SUNAT 'Reglas de validación' 2026-04-24, moved to 2027-01-01 by the 2026-07-24 revision; reported by esolutions-xml",
    confidence: 'reported',
  },
  {
    id: 'credit-note-ceiling',
    effective: '2027-01-01',
    codes: ['3286', '3503', '3261', '4028'],
    docTypes: ['07'],
    summary: "A credit note's amounts may not exceed the referenced document's; a note modifies one document only",
    source:
      "SUNAT 'Reglas de validación' 2026-04-24, moved to 2027-01-01 by the 2026-07-24 revision; reported by esolutions-xml",
    confidence: 'reported',
  },
  {
    // Factura2_0 fields 46/47, ERROR: "por la tasa vigente al IGV (18.00 o 10.50) a la fecha de emisión … Dado que la
    // tasa vigente del IGV es 10.5% y 18%"; every taxed line at "una tasa vigente". 8 % IGV + 2.5 % IPM (Ley 32387).
    id: 'mype-rate-2026',
    effective: '2026-01-01',
    codes: ['3103', '4439'],
    docTypes: ['01', '03', '07', '08'],
    summary:
      "Special IGV rate of MYPE restaurants and hotels on SUNAT's register (padrón, ind_padron 01): 10.5 " +
      '(8 IGV + 2.5 IPM) instead of 10; an issuer off the register is observed (4439)',
    source:
      'SUNAT Validacionesv20260212 Factura2_0 fields 46/47 (ERROR "tasa vigente … 18.00 o 10.50"; OBSERV 4439 ' +
      'ind_padron 01); Ley 32387 (IPM 2.5 in 2026), Ley 31556',
    confidence: 'sure',
  },
  {
    id: 'mype-rate-2027',
    effective: '2027-01-01',
    codes: ['3103'],
    docTypes: ['01', '03', '07', '08'],
    summary: 'Special IGV rate of MYPE restaurants and hotels: 15 (12 IGV + 3 IPM) instead of 10.5',
    source:
      'Ley 31556 as extended (12 % IGV in 2027) and Ley 32387 (IPM 3 in 2027), as one secondary source adds them up; ' +
      'not yet in a SUNAT sheet',
    confidence: 'reported',
  },
  {
    id: 'mype-rate-end',
    effective: '2028-01-01',
    codes: ['3103'],
    docTypes: ['01', '03', '07', '08'],
    summary: 'The special MYPE rate ends: 18 for everyone',
    source: 'Ley 31556, extended in December 2024 (reported as Ley 32219); larepublica.pe 2024-12-27, gestion.pe',
    confidence: 'sure',
  },
  {
    id: 'detraction-codes-2026',
    effective: '2026-09-01',
    codes: ['3033'],
    docTypes: ['01', '08'],
    summary: 'Catalog 54 (detracción) accepts codes 038, 042, 043, 046 and 047; a document using one states its rate',
    source: 'reported by one implementer (sunat/rules/revisions.csv row 21); names and rates not found',
    confidence: 'reported',
  },
];
