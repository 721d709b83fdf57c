/**
 * The 422 body of spec 7.2 for a document that failed local validation: built in one place so the API
 * (`POST /v1/cpe`) and `chasqui xml` answer alike.
 */
import { formatIssue, type DocumentValidationError } from './errors';

export interface ValidationResponseBody {
  success: false;
  message: string;
  errors: string[];
  details: {
    code: string | null;
    message: string;
    path: string | null;
    line: number | null;
    col: number | null;
    snippet: string | null;
  }[];
  time: number;
  origin: 'validation';
  origin_description: string;
  action: 'correct';
  reached_sunat: false;
}

/** `startedAt`: `Date.now()` when the request began; `time` is then the seconds spent, as in the 202 body. */
export function toValidationResponse(err: DocumentValidationError, startedAt?: number): ValidationResponseBody {
  const { issues } = err;
  const message =
    issues.length === 1
      ? `The document was not issued: ${formatIssue(issues[0])}`
      : `The document was not issued: ${issues.length} problems to correct (see errors)`;
  return {
    success: false,
    message,
    errors: issues.map(formatIssue),
    details: issues.map((i) => ({
      code: i.code,
      message: i.message,
      path: i.path,
      line: i.line,
      col: i.col,
      snippet: i.snippet,
    })),
    time: startedAt === undefined ? 0 : Math.max(0, Date.now() - startedAt) / 1000,
    origin: 'validation',
    origin_description: 'The document failed local validation; nothing was signed or sent to SUNAT',
    action: 'correct',
    reached_sunat: false,
  };
}
