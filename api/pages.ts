import type { Context } from 'koa';

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

/** A body that is not the page's form, or too large for it; the message is for the person in front of the page. */
export class FormError extends Error {}

/** An application/x-www-form-urlencoded body of at most `maxBytes`. */
export async function readForm(ctx: Context, maxBytes: number): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new FormError('Envíe el formulario de la página.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new FormError('El formulario es demasiado grande.');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
