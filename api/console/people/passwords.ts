import type { AppDeps } from '../../deps';
import {
  checkDerivation,
  formatHash,
  newDerivation,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_PARAMS,
  sameHash,
} from '../../../core/passwords';

/** Why a new password is refused, in Spanish; null when it will do. Long passphrases welcome, no composition rules. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `La contraseña necesita al menos ${PASSWORD_MIN_LENGTH} caracteres (una frase sirve).`;
  if (password.length > PASSWORD_MAX_LENGTH) return `La contraseña admite hasta ${PASSWORD_MAX_LENGTH} caracteres.`;
  if (password.toLowerCase().includes(email.split('@')[0].toLowerCase()))
    return 'La contraseña no puede contener su dirección de correo.';
  return null;
}

/** A new password's stored hash, derived in the heavy-work pool under the account's queue. */
export async function hashPassword(deps: AppDeps, accountId: string, password: string): Promise<string> {
  const input = newDerivation(password);
  return formatHash(input, await deps.heavy.run(accountId, 'password', input));
}

/** The cost of a check for nobody: an unknown address takes as long as a known one (no list of users by timing). */
const NOBODY = formatHash({ password: '', salt: 'c2FsdC1mb3Itbm9ib2R5', ...PASSWORD_PARAMS }, 'AAAA');

/**
 * Whether `password` is the one `stored` hashes (null: an unknown user or one still invited: always false, after the
 * same work). Too long a password is refused before any work.
 */
export async function passwordMatches(
  deps: AppDeps,
  queue: string,
  password: string,
  stored: string | null,
): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  const check = checkDerivation(password, stored ?? NOBODY);
  if (!check) return false;
  const derived = await deps.heavy.run(queue, 'password', check.input);
  return stored !== null && sameHash(derived, check.hash);
}
