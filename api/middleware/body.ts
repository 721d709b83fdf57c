import type { Context, Next } from 'koa';
import { ApiError } from '../errors';
import { parseJsonPayload } from '../../documents/input/json';
import { DocumentValidationError, formatIssue } from '../../documents/errors';
import { toValidationResponse } from '../../documents/validation-response';

const DEFAULT_LIMIT = 2 * 1024 * 1024;
/** POST /v1/cpe and the legacy send, whose errors use their own shape (spec 7.2) rather than the envelope. */
const ISSUE_PATHS = /^\/(v1\/cpe|api\/cpe\/enviar)\/?$/;

/**
 * Reads JSON bodies. The raw text stays on `ctx.state.rawBody` (idempotency compares it); malformed JSON is a 422
 * naming line and column. Multipart and image bodies (certificate, logo) are left to the route that expects them.
 */
export function jsonBody(limit = DEFAULT_LIMIT) {
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    const startedAt = Date.now();
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method) || ctx.is('multipart') || ctx.is('image/*')) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limit) throw new ApiError(413, `The body is larger than ${limit} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new ApiError(413, `The body is larger than ${limit} bytes`);
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    ctx.state.rawBody = raw;
    if (raw.trim() === '') {
      ctx.request.body = undefined;
      return next();
    }
    if (ctx.get('Content-Type') && !ctx.is('json') && !ctx.is('text/plain')) {
      throw new ApiError(415, `Send JSON with Content-Type: application/json (got ${ctx.get('Content-Type')})`);
    }
    try {
      ctx.request.body = parseJsonPayload(raw);
    } catch (err) {
      if (!(err instanceof DocumentValidationError)) throw err;
      // The issue operations answer every document problem, malformed JSON included, with the 7.2 body.
      if (ISSUE_PATHS.test(ctx.path)) throw new ApiError(422, 'The document was not issued', { body: { ...toValidationResponse(err, startedAt) } });
      const detail = err.issues[0];
      throw new ApiError(422, detail.message, {
        data: { line: detail.line, col: detail.col, snippet: detail.snippet },
        errors: { body: err.issues.map(formatIssue) },
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
