import type { Context } from 'koa';

/**
 * A request body of at most `limit` bytes, for every reader of a raw body (JSON, the logo, the pages' forms). Past the
 * limit, declared by Content-Length or counted while a chunked body arrives, `tooLarge()` is thrown and the answer
 * closes the connection, so the rest is never read. The request is not destroyed: a destroyed socket could carry no
 * answer at all, where the client must get the same 413 whether or not it declared a length.
 */
export async function readCappedBody(ctx: Context, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const refuse = () => {
    ctx.set('Connection', 'close');
    return tooLarge();
  };
  if (Number(ctx.get('Content-Length') || 0) > limit) throw refuse();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw refuse();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
