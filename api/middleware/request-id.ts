import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { logger } from '../../core/logger';

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every request gets an X-Request-Id (the caller's when sane) and one log line with its outcome and latency. */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const given = ctx.get('X-Request-Id');
  const id = VALID_ID.test(given) ? given : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  const started = process.hrtime.bigint();
  try {
    await next();
  } finally {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info(
      {
        requestId: id,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
        ip: ctx.ip,
      },
      'request',
    );
  }
}
