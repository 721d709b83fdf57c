import type { Context, Next } from 'koa';
import { ApiError } from '../errors';
import { logger } from '../../core/logger';
import { FileIntegrityError, FileStoreUnavailableError } from '../../files/store';
import { XmlBoundsError } from '../../documents/xml/bounds';

/** The body an ApiError answers with (also what idempotency stores for a failed first request). */
export function errorBody(err: ApiError): Record<string, unknown> {
  return (
    err.extra.body ?? {
      success: false,
      message: err.message,
      ...(err.extra.errors ? { errors: err.extra.errors } : {}),
      ...(err.extra.data !== undefined ? { data: err.extra.data } : {}),
    }
  );
}

/** An error that only says the client went away (an aborted upload, a cancelled call, a connection cut mid-body). */
export function isClientAbort(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === 'ECONNRESET' ||
    e?.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    e?.message === 'aborted' ||
    /^HPE_/.test(e?.code ?? '')
  );
}

function clientAborted(ctx: Context, err: unknown): boolean {
  return ctx.req.destroyed && isClientAbort(err);
}

/**
 * What Koa reports outside a request's own handling (a response stream cut by the client): client aborts are not
 * server errors; anything else is logged once as an error, never printed raw to stderr.
 */
export function onAppError(err: unknown, ctx?: Context): void {
  const at = { requestId: ctx?.state.requestId, method: ctx?.method, path: ctx?.path };
  if (isClientAbort(err)) logger.info({ ...at, code: (err as { code?: string }).code }, 'client aborted the request');
  else logger.error({ ...at, err }, 'request stream failed');
}

/**
 * Every answer leaves in the standard envelope `{success, message, data}` (spec 2.7); errors never leak a stack trace.
 * Handlers set `ctx.body` to `{message, data}` (or a full body with `success`), and may set `ctx.status`.
 */
export async function envelope(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      throw new ApiError(404, `No route for ${ctx.method} ${ctx.path}`);
    }
    // The router answers 501 to a method it does not implement (TRACE, QUERY, PROPFIND…): for a path that exists it
    // is a method not allowed there, with the Allow header the router computed; for any other path, a 404.
    if (ctx.status === 501 && ctx.body === undefined) {
      const allow = ctx.response.get('Allow');
      if (!allow) throw new ApiError(404, `No route for ${ctx.method} ${ctx.path}`);
      throw new ApiError(405, `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, {
        headers: { Allow: allow },
      });
    }
    if (ctx.status === 405 && ctx.body === undefined) {
      throw new ApiError(405, `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`, {
        headers: { Allow: ctx.response.get('Allow') },
      });
    }
  } catch (err) {
    if (clientAborted(ctx, err)) {
      // Nobody is left to answer: not a server error, and not logged as one.
      logger.info({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'client aborted the request');
      ctx.status = 499;
      ctx.body = null;
      return;
    }
    if (err instanceof ApiError) {
      ctx.status = err.status;
      for (const [k, v] of Object.entries(err.extra.headers ?? {})) ctx.set(k, v);
      ctx.body = errorBody(err);
      return;
    }
    // A stored document past the bounds of what is read back (a PDF of a 4,400-line invoice stored before them).
    if (err instanceof XmlBoundsError) {
      ctx.status = 422;
      ctx.body = { success: false, message: `The document cannot be read back: ${err.message}` };
      return;
    }
    // The file store down (503, Retry-After) or a stored file damaged (409): said as such (files/store.ts).
    if (err instanceof FileStoreUnavailableError || err instanceof FileIntegrityError) {
      logger.error({ err: err.message, requestId: ctx.state.requestId, path: ctx.path }, 'file store failure');
      ctx.status = err.status;
      if (err instanceof FileStoreUnavailableError) ctx.set(err.headers);
      ctx.body = {
        success: false,
        message:
          err instanceof FileStoreUnavailableError
            ? `The file store is unavailable; nothing was done. Try again in ${err.headers['Retry-After']} seconds`
            : `${err.message}; the operator has been alerted`,
      };
      return;
    }
    const status = (err as { status?: number; expose?: boolean }).status;
    if (status && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
      ctx.status = status;
      ctx.body = { success: false, message: (err as Error).message };
      return;
    }
    logger.error({ err, requestId: ctx.state.requestId, path: ctx.path }, 'request failed');
    ctx.status = 500;
    ctx.body = {
      success: false,
      message: 'Internal error; the request id identifies it in the logs',
      data: { request_id: ctx.state.requestId },
    };
  }
}
