/**
 * SUNAT's dated rules: the only list of them. SUNAT judges a document by the rules in force on its issue date
 * (`cbc:IssueDate`, a Lima date), and moves those dates; an operator moves them with CHASQUI_RULE_DATES
 * (docs/rules.md). Facts and their sources: sunat/SOURCES.md ("Rules after June 2024").
 */
import type { DocType } from '../doc-type';

export type RuleId =
  | 'summary-igv-percent'
  | 'gre-loading-date'
  | 'product-code-required'
  | 'summary-v2'
  | 'debit-note-13'
  | 'credit-note-ceiling'
  | 'mype-rate-2027'
  | 'mype-rate-end';

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
    docTypes: ['09', '31'],
    summary:
      'Guides by public transport (modalidad 01) carry the date the goods were handed to the carrier ' +
      '(ShipmentStage/LoadingTransportEvent/OccurrenceDate), not before the issue date',
    source:
      'SUNAT ValidaExprRegGreRemitente-2.0.1.xsl (PAS20251U210700095); greenter issue #269, lycet issue #650, greenter PR #272',
    confidence: 'sure',
  },
  {
    id: 'product-code-required',
    effective: '2027-01-01',
    codes: ['3496'],
    docTypes: ['01', '03', '07', '08', '04'],
    summary:
      "Every line carries SUNAT's product code (catalog 25, cac:CommodityClassification/cbc:ItemClassificationCode)",
    source:
      "SUNAT 'Reglas de validación' 2026-04-24, lines 516-545, moved by the 2026-07-24 revision (line 562); reported by esolutions-xml",
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
    codes: ['3507', '2524'],
    docTypes: ['08'],
    summary: 'Debit note reason 13 (catalog 10), only for unaffected (inafecta) operations',
    source:
      "SUNAT 'Reglas de validación' 2026-04-24, moved to 2027-01-01 by the 2026-07-24 revision; reported by esolutions-xml",
    confidence: 'reported',
  },
  {
    id: 'credit-note-ceiling',
    effective: '2027-01-01',
    codes: ['3286', '3503', '3261'],
    docTypes: ['07'],
    summary: "A credit note's amounts may not exceed the referenced document's; a note modifies one document only",
    source:
      "SUNAT 'Reglas de validación' 2026-04-24, moved to 2027-01-01 by the 2026-07-24 revision; reported by esolutions-xml",
    confidence: 'reported',
  },
  {
    id: 'mype-rate-2027',
    effective: '2027-01-01',
    codes: ['3103'],
    docTypes: ['01', '03', '07', '08'],
    summary: 'Reduced IGV rate of MYPE restaurants, hotels and lodging: 14 (12 + 2 IPM) instead of 10',
    source: 'Ley 31556, extended in December 2024 (reported as Ley 32219); larepublica.pe 2024-12-27, gestion.pe',
    confidence: 'sure',
  },
  {
    id: 'mype-rate-end',
    effective: '2028-01-01',
    codes: ['3103'],
    docTypes: ['01', '03', '07', '08'],
    summary: 'The reduced MYPE rate ends: 18 for everyone',
    source: 'Ley 31556, extended in December 2024 (reported as Ley 32219); larepublica.pe 2024-12-27, gestion.pe',
    confidence: 'sure',
  },
];
