import type { ConsolePrincipal } from '../../db/console-sessions';
import type { UserRole } from '../../db/users';

/**
 * What a console session may do in the account holder's panel (issue 42) and, with people and roles (issue 43), what
 * each role may do. Every panel page and form asks `mayDo` on the server before it shows or changes anything; a refusal
 * names the roles that may (`rolesFor`). Support staff read documents and run the support actions, never change an
 * account's settings. The account token opens the console as the account's owner (unless the owner turned that off).
 * A user's role may be limited to some companies: elsewhere it holds nothing (their pages answer 404).
 */
export type Permission =
  | 'companies.create'
  | 'companies.delete'
  | 'company.settings'
  | 'company.credentials'
  | 'company.tokens'
  | 'company.webhook'
  | 'company.email'
  | 'documents.read'
  | 'documents.issue'
  | 'documents.export'
  | 'users.manage'
  | 'audit.read';

export type Role = UserRole;

const EVERYTHING_BUT_PEOPLE: Permission[] = [
  'companies.create',
  'company.settings',
  'company.credentials',
  'company.tokens',
  'company.webhook',
  'company.email',
  'documents.read',
  'documents.issue',
  'documents.export',
  'audit.read',
];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: [...EVERYTHING_BUT_PEOPLE, 'companies.delete', 'users.manage'],
  administrator: EVERYTHING_BUT_PEOPLE,
  emisor: ['documents.read', 'documents.issue'],
  contador: ['documents.read', 'documents.export'],
  desarrollador: ['documents.read', 'company.tokens', 'company.webhook', 'company.email'],
};

export const ROLE_NAMES: Record<Role, string> = {
  owner: 'propietario',
  administrator: 'administrador',
  emisor: 'emisor',
  contador: 'contador',
  desarrollador: 'desarrollador',
};

/** What only the whole account may do: a user limited to some companies never may, whatever its role. */
const ACCOUNT_WIDE: readonly Permission[] = ['companies.create', 'companies.delete', 'users.manage'];

/**
 * The roles a principal holds for a company (undefined: the account as a whole). A user limited to some companies
 * holds its role in those alone, and none for the account as a whole where that would reach past them.
 */
function rolesOf(principal: ConsolePrincipal, permission: Permission, companyId?: string): readonly Role[] {
  if (principal.kind === 'account') return ['owner'];
  if (principal.kind !== 'user') return [];
  if (!principal.companyIds) return [principal.role];
  if (companyId === undefined) return ACCOUNT_WIDE.includes(permission) ? [] : [principal.role];
  return principal.companyIds.includes(companyId) ? [principal.role] : [];
}

export function mayDo(principal: ConsolePrincipal, permission: Permission, companyId?: string): boolean {
  if (principal.kind === 'support') return permission === 'documents.read';
  return rolesOf(principal, permission, companyId).some((role) => ROLE_PERMISSIONS[role].includes(permission));
}

/** The companies a principal is limited to (null: all it may see at all). */
export const companyLimit = (principal: ConsolePrincipal): string[] | null =>
  principal.kind === 'user' ? principal.companyIds : null;

/** The roles that may do something, in Spanish, for a refusal ("necesita el rol propietario o administrador"). */
export function rolesFor(permission: Permission): string {
  const names = (Object.keys(ROLE_PERMISSIONS) as Role[])
    .filter((role) => ROLE_PERMISSIONS[role].includes(permission))
    .map((role) => ROLE_NAMES[role]);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} o ${names[names.length - 1]}` : names[0];
}
