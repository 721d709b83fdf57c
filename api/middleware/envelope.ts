import type { Context, Next } from 'koa';
import { ApiError } from '../errors';
import { logger } from '../../core/logger';

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
    if (ctx.status === 405 && ctx.body === undefined) {
      throw new ApiError(405, `${ctx.method} is not allowed on ${ctx.path}`);
    }
  } catch (err) {
    if (err instanceof ApiError) {
      ctx.status = err.status;
      for (const [k, v] of Object.entries(err.extra.headers ?? {})) ctx.set(k, v);
      ctx.body = errorBody(err);
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
    ctx.body = { success: false, message: 'Internal error; the request id identifies it in the logs', data: { request_id: ctx.state.requestId } };
  }
}
