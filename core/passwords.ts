import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Console users' passwords (docs/security.md, "People"): scrypt, memory-hard, with the parameters stored beside each
 * hash so they can be raised later without locking anyone out. The derivation runs in the heavy-work pool
 * (heavy/tasks.ts `password`), never on the API's event loop. Stored as `scrypt$N$r$p$salt$hash` (base64url).
 */
export const PASSWORD_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;
/** Past this a password is refused before any work is spent on it (a long input costs scrypt nothing, the form does). */
export const PASSWORD_MAX_LENGTH = 256;
export const PASSWORD_MIN_LENGTH = 12;

export interface DeriveInput {
  password: string;
  salt: string;
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

/** The derivation itself (a pool thread runs it): 128·N·r bytes of memory, 32 MiB with the defaults. */
export function derivePassword(input: DeriveInput): string {
  const { N, r, p, keyLength } = input;
  return scryptSync(input.password.normalize('NFC'), Buffer.from(input.salt, 'base64url'), keyLength, {
    N,
    r,
    p,
    maxmem: 256 * N * r,
  }).toString('base64url');
}

/** What to derive for a new password: fresh salt, today's parameters. */
export function newDerivation(password: string): DeriveInput {
  return { password, salt: randomBytes(16).toString('base64url'), ...PASSWORD_PARAMS };
}

export const formatHash = (input: DeriveInput, hash: string) =>
  `scrypt$${input.N}$${input.r}$${input.p}$${input.salt}$${hash}`;

/** What to derive to check `password` against a stored hash, and the hash to compare with; null if unreadable. */
export function checkDerivation(password: string, stored: string): { input: DeriveInput; hash: string } | null {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return null;
  const keyLength = Buffer.from(hash, 'base64url').length;
  return { input: { password, salt, N: Number(N), r: Number(r), p: Number(p), keyLength }, hash };
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
