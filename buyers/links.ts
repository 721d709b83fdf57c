import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';

/** Issue 27: the consultation page's download links last one hour. */
export const LINK_TTL_SECONDS = 3600;

export type FileKind = 'pdf' | 'xml' | 'cdr';
export const FILE_KINDS: readonly FileKind[] = ['pdf', 'xml', 'cdr'];

function signature(secrets: SecretBox, documentId: string, kind: FileKind, expires: number): string {
  return createHmac('sha256', secrets.derive('consulta links'))
    .update(`${documentId}\n${kind}\n${expires}`)
    .digest('base64url');
}

/**
 * A link to one file of one document that works without a token until it expires: the document, the file and the
 * expiry are signed (HMAC with a key derived from the master key), so none can be changed or guessed.
 */
export function signedFilePath(secrets: SecretBox, documentId: string, kind: FileKind, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + LINK_TTL_SECONDS;
  return `/consulta/archivo/${documentId}/${kind}?vence=${expires}&firma=${signature(secrets, documentId, kind, expires)}`;
}

/** Whether a link's signature holds and it has not expired. */
export function checkFileLink(
  secrets: SecretBox,
  documentId: string,
  kind: FileKind,
  expires: string,
  given: string,
  now = Date.now(),
): boolean {
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 < now) return false;
  const expected = Buffer.from(signature(secrets, documentId, kind, Number(expires)));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The consultation page's public address (CHASQUI_PUBLIC_URL), for the e-mail; null when chasqui does not know it. */
export function consultaUrl(config: Pick<Config, 'buyers'>): string | null {
  return config.buyers.publicUrl ? `${config.buyers.publicUrl}/consulta` : null;
}
