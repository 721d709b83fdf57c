/**
 * How the documents library reports a payload it cannot issue. The API turns a DocumentValidationError
 * into the 422 body of spec 7.2 (errors as "[<source> <code>] <text>", details with path/line/col/snippet).
 */
export interface ValidationIssue {
  /** SUNAT return code ("2017", "3291") or a chasqui rule code ("BR_SERIES_PREFIX"); null when neither applies. */
  code: string | null;
  /** Who defines the code: "SUNAT" for catalogue codes, "chasqui" for our own rules, "JSON" for malformed input. */
  source: 'SUNAT' | 'chasqui' | 'JSON';
  /** Plain words: what is wrong and, where useful, what was expected. */
  message: string;
  /** Where in the payload, e.g. "items[2].valorUnitario"; null for the whole document. */
  path: string | null;
  line: number | null;
  col: number | null;
  snippet: string | null;
}

export function formatIssue(issue: ValidationIssue): string {
  return issue.code ? `[${issue.source} ${issue.code}] ${issue.message}` : issue.message;
}

export class DocumentValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.length === 1 ? issues[0].message : `${issues.length} problems in the document`);
    this.name = 'DocumentValidationError';
  }
}

export function issue(
  source: ValidationIssue['source'],
  code: string | null,
  message: string,
  path: string | null = null,
): ValidationIssue {
  return { code, source, message, path, line: null, col: null, snippet: null };
}
