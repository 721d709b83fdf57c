import type { Context } from 'koa';

/**
 * A request body of at most `limit` bytes, for every reader of a raw body (JSON, the logo, the pages' forms): past
 * the limit, declared by Content-Length or counted while a chunked body arrives, `tooLarge()` is thrown and nothing
 * more is read. Leaving the loop releases the request (`ctx.req.socket` becomes null) while the connection still
 * carries the answer: anything that needs the socket afterwards reads what was captured when the request started
 * (api/client-address.ts).
 */
export async function readCappedBody(ctx: Context, limit: number, tooLarge: () => Error): Promise<Buffer> {
  if (Number(ctx.get('Content-Length') || 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
