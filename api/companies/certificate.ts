import busboy from 'busboy';
import type { Context } from 'koa';
import { ApiError, badRequest } from '../errors';
import type { Certificate } from '../../documents/signing';
import type { AppDeps } from '../deps';
import { runHeavy } from '../heavy';

/** How long opening one uploaded PFX may take; the bounded rounds (documents/signing/pfx-cost.ts) need under a second. */
export const PFX_TIME_BOX_MS = 10_000;

interface CertificateForm {
  file: Buffer | null;
  tooLarge: boolean;
  password: string | null;
}

/** What the form may hold besides the file: ten fields of 4 KB (busboy's limits below) and each part's headers. */
const FORM_ALLOWANCE = 64 * 1024;

/**
 * 413 for a body past `total` bytes, closing the connection after the answer so nothing more of it is read (the
 * body is left unread, never drained).
 */
function bodyTooLarge(total: number): ApiError {
  return new ApiError(413, `The certificate upload is larger than ${total} bytes`, {
    errors: { certificate: [`the whole form may hold at most ${total} bytes`] },
    headers: { Connection: 'close' },
  });
}

/**
 * Reads the multipart form of `POST /{ruc}/certificate`; the file is capped at `maxBytes`, nothing else is kept.
 * The whole body is counted as it arrives: past the file's limit and the fields' allowance, reading stops at once.
 */
function readForm(ctx: Context, maxBytes: number): Promise<CertificateForm> {
  const total = maxBytes + FORM_ALLOWANCE;
  if (Number(ctx.get('Content-Length') || 0) > total) return Promise.reject(bodyTooLarge(total));
  return new Promise((resolve, reject) => {
    const form: CertificateForm = { file: null, tooLarge: false, password: null };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 4096 },
      });
    } catch (err) {
      reject(
        badRequest(`The multipart form cannot be read: ${(err as Error).message}`, {
          certificate: ['send multipart/form-data'],
        }),
      );
      return;
    }
    parser.on('file', (name, stream) => {
      if (name !== 'certificate') {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      // A form that ends inside the file fails the part's stream too; unheard, that error would end the process.
      // The parser reports the same error, answered below as a 422.
      stream.on('error', () => undefined);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (form.tooLarge = true));
      stream.on('end', () => (form.file = Buffer.concat(chunks)));
    });
    parser.on('field', (name, value) => {
      if (name === 'password') form.password = value;
    });
    parser.on('close', () => resolve(form));
    parser.on('error', (err: Error) =>
      reject(
        badRequest(`The multipart form cannot be read: ${err.message}`, { certificate: ['malformed multipart body'] }),
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
      reject(bodyTooLarge(total));
    };
    ctx.req.on('data', count);
    ctx.req.pipe(parser);
  });
}

/**
 * The certificate of an upload, or a 422 that says what is wrong with it: missing fields, too large, not a PFX,
 * wrong password, no private key, expired, not yet valid, or issued to another RUC. The password is used here
 * to open the file and then dropped.
 */
export async function readCertificateUpload(
  ctx: Context,
  deps: AppDeps,
  options: { maxBytes: number; ruc: string; account: string },
): Promise<Certificate> {
  if (!ctx.is('multipart/form-data')) {
    throw badRequest(
      'Send the certificate as multipart/form-data with a file field "certificate" and a text field "password"',
      {
        certificate: ['is required (multipart file field)'],
      },
    );
  }
  const form = await readForm(ctx, options.maxBytes);
  const errors: Record<string, string[]> = {};
  if (!form.file) errors.certificate = ['is required (multipart file field)'];
  if (form.password === null) errors.password = ['is required (multipart text field)'];
  if (Object.keys(errors).length) throw badRequest('The certificate upload is incomplete', errors);
  if (form.tooLarge) {
    throw rejected('too_large', `the certificate file is larger than ${options.maxBytes} bytes`);
  }
  // node-forge is synchronous JavaScript: the file is opened in the heavy-work pool, in the account's turn.
  const input = { pfx: form.file!, password: form.password!, maxBytes: options.maxBytes };
  const result = await runHeavy(deps, options.account, 'pfx', input, {
    timeoutMs: PFX_TIME_BOX_MS,
    failed: (err) =>
      rejected(
        'too_costly',
        err.reason === 'timeout'
          ? `opening the file takes longer than ${err.limitMs / 1000} s; export it again with the default settings`
          : `opening the file needs more memory than allowed (${err.message}); export it again with the default settings`,
      ),
  });
  if (!result.ok) throw rejected(result.reason, result.message);
  if (result.certificate.ruc && result.certificate.ruc !== options.ruc) {
    throw rejected('other_ruc', `the certificate was issued to RUC ${result.certificate.ruc}, not to ${options.ruc}`);
  }
  return result.certificate;
}

function rejected(reason: string, message: string): ApiError {
  const field = reason === 'wrong_password' ? 'password' : 'certificate';
  return new ApiError(422, `The certificate cannot be used: ${message}`, {
    errors: { [field]: [message] },
    data: { reason },
  });
}
