import type { Context, Next } from 'koa';

/**
 * `X-Content-Type-Options: nosniff` on every answer: a browser takes each body as the type it is served with, so a
 * download whose bytes a company or a buyer chose (an XML, a CDR, a logo, a PDF) is never run as HTML or script.
 */
export async function nosniff(ctx: Context, next: Next): Promise<void> {
  ctx.set('X-Content-Type-Options', 'nosniff');
  await next();
}
