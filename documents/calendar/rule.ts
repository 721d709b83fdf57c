/**
 * What a dated rule of SUNAT's is, as documents/calendar/rules/ declares each one in its own file: its id, its date,
 * the document types it judges, and every code it answers with, each beside the rows of SUNAT's validation sheets
 * (sunat/rules/) that carry it. The builders, `chasqui validate`, the simulator, `chasqui rules` and the citations'
 * test read these declarations; a code is written nowhere else.
 */
import type { DocType } from '../doc-type';

/** sure: read in SUNAT's own files or law, or seen in SUNAT's answers; reported: told by one implementer, unverified. */
export type Confidence = 'sure' | 'reported';

export interface SheetRowCitation {
  /** A file of sunat/rules/ without `.csv`: a sheet (`Factura2_0`, …) or `revisions`. */
  file: string;
  row: number;
  severity: 'ERROR' | 'OBSERV';
  /** Words of the row's condition, as the sheet writes them. */
  condition: string;
  /** The code the row carries, only where it is not the answer's (an answer that says `instead`). */
  code?: string;
}

/** One code a rule answers with. */
export interface RuleAnswer {
  code: string;
  /** The rows of SUNAT's sheets that carry the code (or, with `instead`, the codes chasqui answers this one for). */
  rows: readonly SheetRowCitation[];
  /** Why chasqui answers this code where the rows cited carry others. */
  instead?: string;
  /** SUNAT's answer where its catalog (sunat/codes/return-codes.csv) carries no text for the code yet. */
  text?: string;
}

/** A dated rule as its file declares it; `answers` by a name its checks use. */
export interface RuleDeclaration<Id extends string = string, Name extends string = string> {
  id: Id;
  /** First issue date (YYYY-MM-DD, Lima) judged by the rule. */
  effective: string;
  /** Document types the rule judges. */
  docTypes: readonly DocType[];
  summary: string;
  source: string;
  confidence: Confidence;
  /** Where the rule's date comes from. */
  dated: string;
  answers: Readonly<Record<Name, RuleAnswer>>;
}

/** A declaration with the codes it answers with, in the order it names them. */
export type DatedRule<Id extends string = string, Name extends string = string> = RuleDeclaration<Id, Name> & {
  codes: readonly string[];
};

export function defineRule<Id extends string, Name extends string>(
  rule: RuleDeclaration<Id, Name>,
): DatedRule<Id, Name> {
  return { ...rule, codes: Object.values<RuleAnswer>(rule.answers).map((a) => a.code) };
}

/** A rule's rows and its date's source, flat: `chasqui rules --json`'s `citation` and what the citations' test holds. */
export interface RuleCitation {
  rows: readonly (Required<Omit<SheetRowCitation, 'code'>> & { code: string })[];
  date: string;
  reading: Confidence;
  /** Codes chasqui answers with that no cited row carries, each with why. */
  divergences?: Readonly<Record<string, string>>;
}

export function citationOf(rule: RuleDeclaration): RuleCitation {
  const answers = Object.values<RuleAnswer>(rule.answers);
  const rows = answers
    .flatMap((a) => a.rows.map((r) => ({ ...r, code: r.code ?? a.code })))
    .sort((a, b) => a.file.localeCompare(b.file) || a.row - b.row);
  const divergences = Object.fromEntries(answers.filter((a) => a.instead).map((a) => [a.code, a.instead!]));
  return {
    rows,
    date: rule.dated,
    reading: rule.confidence,
    ...(Object.keys(divergences).length ? { divergences } : {}),
  };
}
