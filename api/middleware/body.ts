import type { Context, Next } from 'koa';
import { ApiError } from '../errors';
import { readCappedBody } from '../read-body';
import { DOCUMENT_MAX_BYTES } from '../../documents/xml/bounds';
import { parseJsonPayload } from '../../documents/input/json';
import { inspectJson } from '../../documents/input/inspect';
import { DocumentValidationError, formatIssue } from '../../documents/errors';
import { toValidationResponse } from '../../documents/validation-response';

/**
 * Largest JSON body accepted (docs/issuing.md, "Input rules"; OpenAPI): a 999-line invoice is far below it. It is a
 * document's limit, the same for the signed XML of `{"xml": …}` (documents/xml/bounds.ts).
 */
export const JSON_BODY_LIMIT = DOCUMENT_MAX_BYTES;
/** `{"xml": "<base64>"}` on the issue paths: the XML may be as large as a JSON document, and base64 is a third larger. */
export const ISSUE_BODY_LIMIT = Math.ceil(DOCUMENT_MAX_BYTES / 3) * 4 + 1024;
/** POST /v1/cpe and the legacy send, whose errors use their own shape (spec 7.2) rather than the envelope. */
const ISSUE_PATHS = /^\/(v1\/cpe|api\/cpe\/enviar)\/?$/;
const CONSULTA_PATH = /^\/consulta\/?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** 415 unless the declared type is JSON in UTF-8 (the only charset JSON may travel in, RFC 8259). */
function checkContentType(ctx: Context): void {
  const declared = ctx.get('Content-Type');
  if (!ctx.is('application/json', '+json')) {
    throw new ApiError(
      415,
      `Send JSON with Content-Type: application/json (got ${declared ? JSON.stringify(declared) : 'no Content-Type'})`,
      {
        headers: { 'Accept-Post': 'application/json' },
      },
    );
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(declared)?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new ApiError(415, `JSON bodies are UTF-8 only (got charset=${charset})`, {
      headers: { 'Accept-Post': 'application/json' },
    });
  }
}

/** `{"xml": "…"}` and nothing else: an externally signed document in base64. */
export function isXmlEnvelope(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { xml?: unknown }).xml === 'string' &&
    Object.keys(value).length === 1
  );
}

/** Which byte starts the first invalid UTF-8 sequence (only the error path pays for it). */
function firstInvalidByte(bytes: Buffer): number {
  let lo = 0;
  let hi = bytes.length;
  // The longest valid prefix, by halving: a prefix that decodes may end mid-character, so the answer is approximate to 3 bytes.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

/**
 * Reads JSON bodies: the declared type must be JSON in UTF-8 (else 415), the bytes valid UTF-8 (else 400, never a
 * replacement character), the text valid JSON (else 422 naming line and column), the value within the input rules
 * of `inspectJson` (else 422 naming the field). The raw text stays on `ctx.state.rawBody` (idempotency and the
 * one-number rule compare it). Multipart and image bodies (certificate, logo) are left to the route that
 * expects them.
 */
export function jsonBody(limit = JSON_BODY_LIMIT) {
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    const startedAt = Date.now();
    // The consultation page's form is read by its own route (api/consulta/routes.ts).
    if (
      !['POST', 'PUT', 'PATCH'].includes(ctx.method) ||
      ctx.is('multipart') ||
      ctx.is('image/*') ||
      CONSULTA_PATH.test(ctx.path)
    )
      return next();
    const issuing = ISSUE_PATHS.test(ctx.path);
    const tooLarge = () => new ApiError(413, `The body is larger than ${limit} bytes`);
    const bytes = await readCappedBody(ctx, issuing ? Math.max(limit, ISSUE_BODY_LIMIT) : limit, tooLarge);
    if (/^[ \t\r\n]*$/.test(bytes.toString('latin1'))) {
      ctx.state.rawBody = '';
      ctx.request.body = undefined;
      return next();
    }
    checkContentType(ctx);
    let raw: string;
    try {
      raw = UTF8.decode(bytes);
    } catch {
      throw new ApiError(
        400,
        `The body is not valid UTF-8 (an invalid, overlong or surrogate byte sequence near byte ${firstInvalidByte(bytes)}); send JSON encoded in UTF-8`,
      );
    }
    ctx.state.rawBody = raw;
    try {
      const value = parseJsonPayload(raw);
      // Only the signed XML's envelope may use the issue paths' larger limit.
      if (bytes.length > limit && !isXmlEnvelope(value)) throw tooLarge();
      const problems = inspectJson(value);
      if (problems.length) throw new DocumentValidationError(problems);
      ctx.request.body = value;
    } catch (err) {
      if (!(err instanceof DocumentValidationError)) throw err;
      // The issue operations answer every document problem, malformed JSON included, with the 7.2 body.
      if (ISSUE_PATHS.test(ctx.path))
        throw new ApiError(422, 'The document was not issued', { body: { ...toValidationResponse(err, startedAt) } });
      const detail = err.issues[0];
      // Keyed by field paths the client chose (`constructor`, `__proto__`…): a map without a prototype.
      const errors: Record<string, string[]> = Object.create(null);
      for (const i of err.issues) (errors[i.path ?? 'body'] ??= []).push(formatIssue(i));
      throw new ApiError(422, detail.message, {
        ...(detail.line !== null ? { data: { line: detail.line, col: detail.col, snippet: detail.snippet } } : {}),
        errors,
      });
    }
    return next();
  };
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
