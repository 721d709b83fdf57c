/**
 * SUNAT's dated rules: the only list of them, one file each (or one file for the steps of one law). SUNAT judges a
 * document by the rules in force on its issue date (`cbc:IssueDate`, a Lima date), and moves those dates; an operator
 * moves them with CHASQUI_RULE_DATES (docs/rules.md). Facts and their sources: sunat/SOURCES.md ("Rules after June
 * 2024").
 */
import type { DatedRule } from '../rule';
import { CREDIT_NOTE_CEILING } from './credit-note-ceiling';
import { DEBIT_NOTE_13 } from './debit-note-13';
import { DETRACTION_2026 } from './detraction-codes-2026';
import { GRE_LOADING_DATE } from './gre-loading-date';
import { MYPE_RATE_2026, MYPE_RATE_2027, MYPE_RATE_END } from './mype-rate';
import { PRODUCT_CODE_VALID } from './product-code-valid';
import { SUMMARY_IGV_PERCENT } from './summary-igv-percent';
import { SUMMARY_V2 } from './summary-v2';

export const RULES = [
  SUMMARY_IGV_PERCENT,
  GRE_LOADING_DATE,
  PRODUCT_CODE_VALID,
  SUMMARY_V2,
  DEBIT_NOTE_13,
  CREDIT_NOTE_CEILING,
  MYPE_RATE_2026,
  MYPE_RATE_2027,
  MYPE_RATE_END,
  DETRACTION_2026,
] as const;

export type RuleId = (typeof RULES)[number]['id'];

/** A rule as every reader sees it, whichever codes it names. */
export type RuleDefinition = DatedRule<RuleId>;

export { CREDIT_NOTE_CEILING, DEBIT_NOTE_13, DETRACTION_2026, GRE_LOADING_DATE, PRODUCT_CODE_VALID };
export { MYPE_RATE_2026, MYPE_RATE_2027, MYPE_RATE_END, SUMMARY_IGV_PERCENT, SUMMARY_V2 };
export { isUnaffectedReason } from './debit-note-13';
export { DETRACTION_CODES_2026 } from './detraction-codes-2026';
