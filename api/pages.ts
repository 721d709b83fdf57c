import type { Context } from 'koa';
import { readCappedBody } from './read-body';

/**
 * What the server-rendered pages (the console, /consulta) share: their security headers (nosniff is every answer's,
 * api/middleware/nosniff.ts) and their form reader.
 * They run no script at all, load nothing from elsewhere, post only to themselves and are never framed or cached.
 */
const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function setPageHeaders(ctx: Context, referrerPolicy: 'no-referrer' | 'same-origin'): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Referrer-Policy', referrerPolicy);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
}

/**
 * A body that is not the page's form (400), or too large for it (413, as any other body past its limit); the message
 * is for the person in front of the page.
 */
export class FormError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
  }
}

/** An application/x-www-form-urlencoded body of at most `maxBytes`. */
export async function readForm(ctx: Context, maxBytes: number): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new FormError('Envíe el formulario de la página.');
  const body = await readCappedBody(ctx, maxBytes, () => new FormError('El formulario es demasiado grande.', 413));
  return new URLSearchParams(body.toString('utf8'));
}
