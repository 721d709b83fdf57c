import type { Knex } from 'knex';
import { nowOf, type AppDeps } from '../../deps';
import { recordChange, secretChange, type Actor } from '../../../db/audit';
import { findAccount } from '../../../db/accounts';
import { listCompanies } from '../../../db/companies';
import {
  clearTotp,
  createLink,
  findUser,
  insertUser,
  listUsers,
  peekLink,
  peopleSettings,
  removeUser,
  setPassword,
  updateUserRole,
  useLink,
  type LinkKind,
  type UserRole,
  type UserRow,
} from '../../../db/users';
import { ROLE_NAMES, ROLE_PERMISSIONS, type Role } from '../permissions';
import { limaLabelled } from '../words';
import { canMail, linkUrl, sendPeopleMail } from './mail';
import { hashPassword, passwordProblem } from './passwords';

/**
 * What the users page, the invitation and the reset links do (issue 43), each change and its audit row in one
 * transaction. A refusal names its field and says why in Spanish (these are the console's alone).
 */
export type Outcome<T = void> = { ok: true; value: T } | { ok: false; field: string; message: string };

const refuse = (field: string, message: string) => ({ ok: false as const, field, message });
const EMAIL = /^[^\s@<>"(),;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]{1,63})+$/;

export const isRole = (value: string): value is Role => Object.hasOwn(ROLE_PERMISSIONS, value);

/** What the user form says of who and where, checked: a known role, the account's own companies, an owner unlimited. */
export interface Assignment {
  role: UserRole;
  companyIds: string[] | null;
}

export async function readAssignment(
  deps: AppDeps,
  accountId: string,
  form: URLSearchParams,
): Promise<Outcome<Assignment>> {
  const role = form.get('role') ?? '';
  if (!isRole(role)) return refuse('role', 'Elija uno de los roles de la lista.');
  const chosen = form.getAll('company');
  if (chosen.length > 1000) return refuse('company', 'Demasiadas empresas elegidas.');
  if (form.get('alcance') !== 'algunas') return { ok: true, value: { role, companyIds: null } };
  if (role === 'owner') return refuse('company', 'El rol propietario abarca todas las empresas de la cuenta.');
  const own = new Set((await listCompanies(deps.db, accountId, { limit: 10_000 })).map((c) => c.id));
  if (!chosen.length) return refuse('company', 'Elija al menos una empresa, o «todas las empresas».');
  if (chosen.some((id) => !own.has(id))) return refuse('company', 'Una de las empresas elegidas no es de su cuenta.');
  return { ok: true, value: { role, companyIds: [...new Set(chosen)] } };
}

/** A role and its companies as the audit log records them: the companies by RUC, or «todas». */
async function describe(db: Knex | Knex.Transaction, accountId: string, a: Assignment) {
  if (!a.companyIds) return { role: a.role, companies: 'todas' as const };
  const companies = await listCompanies(db, accountId, { limit: 10_000 });
  return { role: a.role, companies: companies.filter((c) => a.companyIds!.includes(c.id)).map((c) => c.ruc) };
}

/** Each field of `after` with its value before, as the audit log records a change. */
const changed = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(after).map((field) => [field, { from: before[field], to: after[field] }]));

/** Sends one link of `kind` to a user; false when the mail server did not take it. */
async function mailLink(deps: AppDeps, user: UserRow, kind: LinkKind, secret: string, lines: string[]) {
  const subject = kind === 'invite' ? 'Invitación a la consola de chasqui' : 'Restablecer su contraseña de chasqui';
  return sendPeopleMail(deps, { to: user.email, subject, lines, link: linkUrl(deps, kind, secret)! });
}

/**
 * Invites a person: a user without a password, and a link by e-mail that names the role and the companies and works
 * once until it expires. Nothing stays when the mail server refuses (the transaction holds the send).
 */
export async function inviteUser(
  deps: AppDeps,
  accountId: string,
  email: string,
  assignment: Assignment,
  actor: Actor,
): Promise<Outcome<UserRow>> {
  const address = email.trim().toLowerCase();
  if (address.length > 254 || !EMAIL.test(address)) return refuse('email', 'Escriba una dirección de correo válida.');
  if (!canMail(deps))
    return refuse(
      'email',
      'El servicio no tiene servidor de correo ni dirección pública configurados: no puede invitar.',
    );
  const at = nowOf(deps);
  const account = (await findAccount(deps.db, accountId))!;
  const companies = assignment.companyIds
    ? (await listCompanies(deps.db, accountId, { limit: 10_000 })).filter((c) => assignment.companyIds!.includes(c.id))
    : null;
  try {
    return await deps.db.transaction(async (trx) => {
      const user = await insertUser(trx, { accountId, email: address, ...assignment });
      const secret = await createLink(trx, user.id, 'invite', at, deps.config.people.inviteSeconds);
      const { role, companies: scope } = await describe(trx, accountId, assignment);
      await recordChange(trx, {
        accountId,
        actor,
        action: 'user.invite',
        changes: { email: { to: address }, role: { to: role }, companies: { to: scope } },
      });
      const until = limaLabelled(new Date(at.getTime() + deps.config.people.inviteSeconds * 1000));
      const where = companies
        ? `Solo en las empresas: ${companies.map((c) => `${c.business_name} (RUC ${c.ruc})`).join(', ')}.`
        : 'En todas las empresas de la cuenta.';
      const sent = await mailLink(deps, user, 'invite', secret, [
        `${actor.name} le invita a la cuenta «${account.name}» en chasqui con el rol ${ROLE_NAMES[assignment.role]}.`,
        where,
        `Abra el enlace para elegir su contraseña. Sirve una sola vez y vence el ${until}.`,
      ]);
      if (!sent) throw new MailRefused();
      return { ok: true as const, value: user };
    });
  } catch (err) {
    if (err instanceof MailRefused)
      return refuse('email', 'El servidor de correo no aceptó la invitación: inténtelo más tarde.');
    if ((err as { constraint?: string }).constraint === 'account_users_email')
      return refuse('email', 'Esa dirección ya tiene un usuario en chasqui.');
    throw err;
  }
}

class MailRefused extends Error {}

/** Whether `userId` is the account's only owner: it may not be removed or made anything else (the account keeps one). */
async function lastOwner(db: Knex | Knex.Transaction, accountId: string, userId: string): Promise<boolean> {
  const owners = (await listUsers(db, accountId)).filter((u) => u.role === 'owner');
  return owners.length === 1 && owners[0].id === userId;
}

export async function changeUser(
  deps: AppDeps,
  accountId: string,
  userId: string,
  assignment: Assignment,
  actor: Actor,
): Promise<Outcome> {
  return deps.db.transaction(async (trx) => {
    const user = await findUser(trx, accountId, userId);
    if (!user) return refuse('user', 'Ese usuario no existe en su cuenta.');
    if (assignment.role !== 'owner' && (await lastOwner(trx, accountId, userId)))
      return refuse('role', 'Es el único propietario: nombre antes a otro propietario.');
    await updateUserRole(trx, userId, assignment.role, assignment.companyIds);
    const before = await describe(trx, accountId, { role: user.role, companyIds: user.company_ids });
    const after = await describe(trx, accountId, assignment);
    await recordChange(trx, {
      accountId,
      actor,
      action: 'user.role',
      changes: { email: { from: user.email, to: user.email }, ...changed(before, after) },
    });
    return { ok: true as const, value: undefined };
  });
}

export async function dropUser(deps: AppDeps, accountId: string, userId: string, actor: Actor): Promise<Outcome> {
  return deps.db.transaction(async (trx) => {
    const user = await findUser(trx, accountId, userId);
    if (!user) return refuse('user', 'Ese usuario no existe en su cuenta.');
    if (await lastOwner(trx, accountId, userId))
      return refuse('user', 'Es el único propietario: nombre antes a otro propietario.');
    await removeUser(trx, userId, nowOf(deps));
    await recordChange(trx, { accountId, actor, action: 'user.remove', changes: { email: { from: user.email } } });
    return { ok: true as const, value: undefined };
  });
}

/** The owner takes away a user's second factor (phone and codes lost): audited; the user enrols again. */
export async function resetSecondFactor(
  deps: AppDeps,
  accountId: string,
  userId: string,
  actor: Actor,
): Promise<Outcome> {
  return deps.db.transaction(async (trx) => {
    const user = await findUser(trx, accountId, userId);
    if (!user?.totp_enabled_at) return refuse('totp', 'Este usuario no tiene segundo factor.');
    await clearTotp(trx, userId, nowOf(deps));
    await recordChange(trx, {
      accountId,
      actor,
      action: 'user.totp_reset',
      changes: { email: { from: user.email, to: user.email }, totp: secretChange(true, null) },
    });
    return { ok: true as const, value: undefined };
  });
}

/**
 * Sets the password through a one-time link (an invitation accepted, or a reset): the link is used in the same
 * transaction as the change, so a link works once; every session of the user ends.
 */
export async function setPasswordByLink(
  deps: AppDeps,
  kind: LinkKind,
  secret: string,
  password: string,
  address: string | null,
): Promise<Outcome<UserRow>> {
  const at = nowOf(deps);
  return deps.db.transaction(async (trx) => {
    // A password that will not do leaves the link usable: judged before the link is used.
    const seen = await peekLink(trx, secret, kind, at);
    const problem = seen.ok ? passwordProblem(password, seen.user.email) : null;
    if (problem) return refuse('password', problem);
    const link = await useLink(trx, secret, kind, at);
    if (!link.ok) return refuse('link', LINK_REFUSALS[link.reason]);
    await setPassword(trx, link.user.id, await hashPassword(deps, link.user.account_id, password), at);
    await recordChange(trx, {
      accountId: link.user.account_id,
      actor: { kind: 'user', name: link.user.email, address },
      action: kind === 'invite' ? 'user.accept' : 'user.password_reset',
      changes: { password: secretChange(link.user.password_hash, true) },
    });
    return { ok: true as const, value: link.user };
  });
}

export const LINK_REFUSALS = {
  unknown: 'Este enlace no es válido: pida uno nuevo.',
  used: 'Este enlace ya se usó: cada enlace sirve una sola vez. Pida uno nuevo.',
  expired: 'Este enlace venció: pida uno nuevo.',
} as const;

/** Mails a reset link to a user (the form answers the same whether or not the address has a user). */
export async function mailReset(deps: AppDeps, user: UserRow, address: string | null): Promise<void> {
  const at = nowOf(deps);
  const secret = await deps.db.transaction(async (trx) => {
    const made = await createLink(trx, user.id, 'reset', at, deps.config.people.resetSeconds);
    await recordChange(trx, {
      accountId: user.account_id,
      actor: { kind: 'user', name: user.email, address },
      action: 'user.reset_requested',
    });
    return made;
  });
  const until = limaLabelled(new Date(at.getTime() + deps.config.people.resetSeconds * 1000));
  await mailLink(deps, user, 'reset', secret, [
    'Alguien pidió restablecer la contraseña de su usuario de la consola de chasqui.',
    `Abra el enlace para elegir una nueva. Sirve una sola vez y vence el ${until}; al usarlo se cierran sus sesiones abiertas.`,
  ]);
}

/** The owner's settings: require a second factor of every user; let the account token open the console. */
export async function setPeopleSettings(
  deps: AppDeps,
  accountId: string,
  next: { requireTwoFactor: boolean; tokenConsole: boolean },
  actor: Actor,
): Promise<Outcome> {
  return deps.db.transaction(async (trx) => {
    const before = await peopleSettings(trx, accountId);
    const owners = (await listUsers(trx, accountId)).filter((u) => u.role === 'owner' && u.password_hash);
    if (!next.tokenConsole && !owners.length)
      return refuse('token_console', 'Antes de cerrar la consola al token, un propietario debe aceptar su invitación.');
    await trx('accounts')
      .where({ id: accountId })
      .update({ require_two_factor: next.requireTwoFactor, token_console: next.tokenConsole });
    await recordChange(trx, {
      accountId,
      actor,
      action: 'account.people',
      changes: changed(
        { require_two_factor: before.requireTwoFactor, token_console: before.tokenConsole },
        { require_two_factor: next.requireTwoFactor, token_console: next.tokenConsole },
      ),
    });
    return { ok: true as const, value: undefined };
  });
}
