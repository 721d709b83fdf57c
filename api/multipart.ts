import busboy from 'busboy';
import type { Context } from 'koa';
import { ApiError, badRequest } from './errors';

/** A multipart form's one file (capped) and its text fields. */
export interface MultipartForm {
  file: Buffer | null;
  /** The type the file part declares (its Content-Type). */
  fileType: string | null;
  /** The file was cut at its limit: it is refused, whatever the rest says. */
  tooLarge: boolean;
  fields: Map<string, string>;
}

/** What the form may hold besides the file: ten fields of 4 KB (busboy's limits below) and each part's headers. */
const FORM_ALLOWANCE = 64 * 1024;

/**
 * 413 for a body past `total` bytes, closing the connection after the answer so nothing more of it is read (the
 * body is left unread, never drained).
 */
function bodyTooLarge(field: string, what: string, total: number): ApiError {
  return new ApiError(413, `The ${what} is larger than ${total} bytes`, {
    errors: { [field]: [`the whole form may hold at most ${total} bytes`] },
    headers: { Connection: 'close' },
  });
}

/**
 * Reads a multipart form (the API's certificate upload, the panel's certificate and logo forms): the file part named
 * `field` is capped at `maxBytes`, other files are skipped, text fields kept (ten of 4 KB at most). The whole body is
 * counted as it arrives: past the file's limit and the fields' allowance, reading stops at once (413). `what` names
 * the upload in the errors (`certificate upload`).
 */
export function readMultipart(
  ctx: Context,
  options: { field: string; maxBytes: number; what: string },
): Promise<MultipartForm> {
  const { field, maxBytes, what } = options;
  const total = maxBytes + FORM_ALLOWANCE;
  if (Number(ctx.get('Content-Length') || 0) > total) return Promise.reject(bodyTooLarge(field, what, total));
  return new Promise((resolve, reject) => {
    const form: MultipartForm = { file: null, fileType: null, tooLarge: false, fields: new Map() };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 4096 },
      });
    } catch (err) {
      reject(
        badRequest(`The multipart form cannot be read: ${(err as Error).message}`, {
          [field]: ['send multipart/form-data'],
        }),
      );
      return;
    }
    parser.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.resume();
        return;
      }
      form.fileType = info.mimeType.toLowerCase();
      const chunks: Buffer[] = [];
      // A form that ends inside the file fails the part's stream too; unheard, that error would end the process.
      // The parser reports the same error, answered below as a 422.
      stream.on('error', () => undefined);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (form.tooLarge = true));
      stream.on('end', () => (form.file = Buffer.concat(chunks)));
    });
    parser.on('field', (name, value) => form.fields.set(name, value));
    parser.on('close', () => resolve(form));
    parser.on('error', (err: Error) =>
      reject(
        badRequest(`The multipart form cannot be read: ${err.message}`, { [field]: ['malformed multipart body'] }),
      ),
    );
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= total) return;
      // Left unpiped, not destroyed: busboy would raise "Unexpected end of file" on the file part's stream.
      ctx.req.off('data', count);
      ctx.req.unpipe(parser);
      ctx.req.pause();
      reject(bodyTooLarge(field, what, total));
    };
    ctx.req.on('data', count);
    ctx.req.pipe(parser);
  });
}
