import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA1, 6 digits, 30-second steps): what every
 * authenticator app computes from the secret the enrolment's QR carries. Secrets travel in base32 (RFC 4648).
 */
export const TOTP_STEP_SECONDS = 30;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => ALPHABET[parseInt(chunk.padEnd(5, '0'), 2)]).join('');
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = '';
  for (const char of clean) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) throw new Error('not base32');
    bits += value.toString(2).padStart(5, '0');
  }
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
}

/** A new secret: 20 random bytes, the HMAC-SHA1 key size RFC 4226 recommends. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** RFC 4226's HOTP of `counter` with dynamic truncation, `digits` long. */
export function hotp(key: Buffer, counter: bigint, digits = 6, algorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, '0');
}

/** The time step of an instant (milliseconds since the epoch). */
export const totpStep = (atMs: number) => BigInt(Math.floor(atMs / 1000 / TOTP_STEP_SECONDS));

export const totp = (secret: string, atMs: number) => hotp(base32Decode(secret), totpStep(atMs));

/**
 * The step a code matches at `atMs`, one step of clock drift either way allowed; null when none matches or when it is
 * not later than `lastStep` (a code, once used, is refused for the rest of its window: no replay).
 */
export function matchTotp(secret: string, code: string, atMs: number, lastStep: bigint | null): bigint | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const now = totpStep(atMs);
  for (const step of [now - 1n, now, now + 1n]) {
    if (lastStep !== null && step <= lastStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return null;
}

/** The otpauth:// URI authenticator apps read from the QR (Key Uri Format). */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${TOTP_STEP_SECONDS}`;
}
