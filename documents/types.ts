/** What every document family hands back: the XML ready to sign and what the service stores about it. */
import type { RuleCalendar } from './calendar';
import type { DocType } from './doc-type';

export type { DocType };

export interface PrepareOptions {
  /**
   * SUNAT's dated rules, asked with the document's issue date (CHASQUI_RULE_DATES applied); DEFAULT_CALENDAR when
   * absent.
   */
  calendar?: RuleCalendar;
  /** Days before a rule's date from which a document that would fail it carries a warning; 0 or absent: none. */
  ruleWarnDays?: number;
  /**
   * The document a note modifies, when the issuing company's own documents hold it (the API looks it up): its
   * PayableAmount bounds a credit note's (warned, refused from `credit-note-ceiling`), its issue date a note's (2885).
   * Absent or null: not held, nothing to compare.
   */
  referenced?: ReferencedDocument | null;
  /** The RUC of the company whose token issues the document; `emisor.ruc` must match it (spec 4, issue rule 2). */
  issuerRuc?: string;
  /** Today's date in America/Lima (YYYY-MM-DD), for date-window rules; the library never reads the clock itself. */
  today?: string;
  /** SUNAT's sending window in days after fechaEmision (2108), checked with `today`; 0 or absent: not checked. */
  sendingWindowDays?: number;
  /**
   * SUNAT's registers (padrones) the issuing company declares it is on: the special IGV rate of MYPE restaurants and
   * hotels (ind_padron 01, else 4439 at that rate) and those obliged to send the product code (ind_padron 12, else
   * 4331 on a line with neither code nor GTIN). Absent: not known, neither observation is announced.
   */
  registers?: IssuerRegisters;
  /**
   * The company sends its receipts and B notes in the daily summary (receipts_mode summary), whose lines need the
   * document a note modifies (Resumen Diario1_1 row 40, 2524) even where the note's own sheet lets it be left out.
   */
  receiptsViaSummary?: boolean;
}

export interface IssuerRegisters {
  igvSpecialRate: boolean;
  productCode: boolean;
}

export interface ReferencedDocument {
  /** `F001-12` as issued. */
  serieNumero: string;
  /** The referenced document's monetary totals as stored (PreparedDocument.totals), two-decimal strings. */
  totals: Record<string, string>;
  /** Its issue date (YYYY-MM-DD), which a note may not precede (2885); absent when not known. */
  issueDate?: string;
}

export interface PreparedDocument {
  docType: DocType;
  ruc: string;
  /** `F001`, or `RC-20240101` style id prefix for summaries. */
  series: string;
  /** The correlative as an integer (summary sequence for rc/ra/rr). */
  number: number;
  /** `RUC-TT-SERIE-NUMERO` or `RUC-RC-YYYYMMDD-N`, without extension. */
  filename: string;
  issueDate: string;
  currency: string | null;
  /** Unsigned UBL in canonical form; the first `ext:UBLExtension/ext:ExtensionContent` is empty, ready for the signature. */
  xml: string;
  /** Monetary totals as two-decimal strings keyed by UBL name (e.g. `PayableAmount`); null for documents without totals. */
  totals: Record<string, string> | null;
  /** Non-blocking observations in plain words, `[<source> <code>] <text>` where a code applies. */
  warnings: string[];
  /** Where the accepted document is e-mailed (`cliente.correo`, `destinatario.correo`); absent when nowhere. */
  buyerEmail?: string[];
}
