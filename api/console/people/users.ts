import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { listCompanies, type CompanyRow } from '../../../db/companies';
import { findUser, listUsers, peopleSettings, type UserRow } from '../../../db/users';
import { html, notice, page, table, type Html } from '../html';
import { consoleActor, writePage, type Viewer } from '../context';
import { ROLE_NAMES, ROLE_PERMISSIONS, type Role } from '../permissions';
import { limaTime } from '../words';
import {
  changeUser,
  dropUser,
  inviteUser,
  readAssignment,
  resetSecondFactor,
  setPeopleSettings,
  type Outcome,
} from './service';

/**
 * The owner's users page (/console/users, docs/panel.md "People"): the account's people with their role, companies
 * and second factor; invite; change a role or its companies; remove; and the account's settings for people. Every POST
 * goes through service.ts (the change and its audit row together), then redirects to the list with a notice.
 */
const DONE: Record<string, string> = {
  invitado: 'Invitación enviada.',
  cambiado: 'Rol actualizado.',
  quitado: 'Usuario quitado: sus sesiones se cerraron.',
  'segundo-factor': 'Segundo factor quitado: el usuario lo activará de nuevo al entrar.',
  ajustes: 'Ajustes guardados.',
};

const ROLE_HINTS: Record<Role, string> = {
  owner: 'todo, también los usuarios',
  administrator: 'todo salvo los usuarios',
  emisor: 'emite y ve documentos',
  contador: 've y exporta documentos',
  desarrollador: 'tokens, webhook y correo',
};

/** A refusal beside its field. */
type Problem = { field: string; message: string } | null;
const fieldError = (problem: Problem, field: string) =>
  problem?.field === field ? html`<p class="field-error" role="alert">${problem.message}</p>` : '';

function assignmentFields(companies: CompanyRow[], problem: Problem, current?: UserRow): Html {
  const limited = current?.company_ids ?? null;
  return html`<label for="role">Rol</label>
    <p class="hint" id="role-hint">
      ${(Object.keys(ROLE_HINTS) as Role[]).map((r) => `${ROLE_NAMES[r]}: ${ROLE_HINTS[r]}`).join('; ')}.
    </p>
    ${fieldError(problem, 'role')}
    <select id="role" name="role" aria-describedby="role-hint">
      ${(Object.keys(ROLE_PERMISSIONS) as Role[]).map(
        (r) => html`<option value="${r}" ${current?.role === r ? html`selected` : ''}>${ROLE_NAMES[r]}</option>`,
      )}
    </select>
    <fieldset class="choices">
      <legend>Empresas</legend>
      ${fieldError(problem, 'company')}
      <label class="choice"
        ><input type="radio" name="alcance" value="todas" ${limited ? '' : html`checked`} /> Todas las empresas</label
      >
      <label class="choice"
        ><input type="radio" name="alcance" value="algunas" ${limited ? html`checked` : ''} /> Solo las marcadas:</label
      >
      ${companies.map(
        (c) =>
          html`<label class="choice"
            ><input type="checkbox" name="company" value="${c.id}" ${limited?.includes(c.id) ? html`checked` : ''} />
            <span>${c.business_name} (RUC ${c.ruc})</span></label
          >`,
      )}
    </fieldset>`;
}

const stateOf = (u: UserRow, at: Date) =>
  !u.password_hash ? 'invitado' : u.locked_until && u.locked_until > at ? 'bloqueado' : 'activo';

async function usersList(ctx: Context, deps: AppDeps, viewer: Viewer, status = 200, problem: Problem = null) {
  const accountId = (viewer.session.principal as { accountId: string }).accountId;
  const [users, companies, settings] = await Promise.all([
    listUsers(deps.db, accountId),
    listCompanies(deps.db, accountId, { limit: 1000 }),
    peopleSettings(deps.db, accountId),
  ]);
  const names = new Map(companies.map((c) => [c.id, c.business_name]));
  const done = DONE[String(ctx.query.hecho ?? '')];
  const rows = users.map((u) => [
    u.email,
    ROLE_NAMES[u.role],
    u.company_ids ? u.company_ids.map((id) => names.get(id) ?? '—').join(', ') : 'todas',
    u.totp_enabled_at ? 'activo' : 'no',
    stateOf(u, new Date()),
    limaTime(u.created_at, false),
    html`<a href="/console/users/${u.id}">Cambiar o quitar</a>`,
  ]);
  writePage(
    ctx,
    status,
    page(
      viewer.frame('Usuarios', 'users'),
      html`${done ? notice('ok', done) : ''}
        ${
          users.length
            ? table(
                'Usuarios de la cuenta (fechas en hora de Lima)',
                ['Correo', 'Rol', 'Empresas', 'Segundo factor', 'Estado', 'Alta', 'Acciones'],
                rows,
              )
            : html`<p>Todavía no hay usuarios: invite al primero.</p>`
        }
        <h2>Invitar</h2>
        <form class="card" method="post" action="/console/users">
          <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
          <label for="email">Correo</label>
          ${fieldError(problem, 'email')}
          <input id="email" name="email" type="email" maxlength="254" required />
          ${assignmentFields(companies, problem)}
          <button type="submit">Enviar la invitación</button>
        </form>
        <h2>Ajustes de la cuenta</h2>
        <form class="card" method="post" action="/console/users/ajustes">
          <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
          ${fieldError(problem, 'token_console')}
          <label class="choice"
            ><input
              type="checkbox"
              name="require_two_factor"
              value="1"
              ${settings.requireTwoFactor ? html`checked` : ''}
            />
            Exigir segundo factor a todos los usuarios</label
          >
          <label class="choice"
            ><input type="checkbox" name="token_console" value="1" ${settings.tokenConsole ? html`checked` : ''} /> El
            token de cuenta también abre la consola</label
          >
          <button type="submit">Guardar</button>
        </form>`,
    ),
  );
}

async function userPage(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  user: UserRow,
  status = 200,
  problem: Problem = null,
) {
  const companies = await listCompanies(deps.db, user.account_id, { limit: 1000 });
  writePage(
    ctx,
    status,
    page(
      viewer.frame('Cambiar un usuario', 'users'),
      html`<p>Usuario <strong>${user.email}</strong></p>
        <form class="card" method="post" action="/console/users/${user.id}">
          <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
          ${assignmentFields(companies, problem, user)}
          <button type="submit">Guardar el rol</button>
        </form>
        ${
          user.totp_enabled_at
            ? html`<h2>Segundo factor</h2>
                <form class="card" method="post" action="/console/users/${user.id}/segundo-factor">
                  <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
                  ${fieldError(problem, 'totp')}
                  <p>Si perdió el teléfono y sus códigos: se le quita y lo activa de nuevo al entrar.</p>
                  <button type="submit">Quitar su segundo factor</button>
                </form>`
            : ''
        }
        <h2>Quitar</h2>
        <form class="card" method="post" action="/console/users/${user.id}/quitar">
          <input type="hidden" name="csrf" value="${viewer.session.csrf}" />
          ${fieldError(problem, 'user')}
          <p>Quitar a ${user.email} cierra sus sesiones al instante.</p>
          <button type="submit">Quitar este usuario</button>
        </form>
        <p><a href="/console/users">Volver a los usuarios</a></p>`,
    ),
  );
}

const USER_PATH = /^\/console\/users\/([0-9a-f-]{36})(?:\/(quitar|segundo-factor))?$/;

/** The users pages (the caller checked `users.manage` and the step-up); false for a path that is none of them. */
export async function usersPages(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  path: string,
  form: URLSearchParams | null,
): Promise<boolean> {
  const accountId = (viewer.session.principal as { accountId: string }).accountId;
  const actor = consoleActor(ctx, viewer.session);
  const done = (outcome: Outcome<unknown>, notice: string, again: (p: Problem) => Promise<void>) =>
    outcome.ok ? ((ctx.status = 303), ctx.redirect(`/console/users?hecho=${notice}`)) : again(outcome);
  if (path === '/console/users') {
    if (!form) return usersList(ctx, deps, viewer).then(() => true);
    const assignment = await readAssignment(deps, accountId, form);
    const outcome = assignment.ok
      ? await inviteUser(deps, accountId, form.get('email') ?? '', assignment.value, actor)
      : assignment;
    await done(outcome, 'invitado', (p) => usersList(ctx, deps, viewer, 400, p));
    return true;
  }
  if (path === '/console/users/ajustes' && form) {
    const next = {
      requireTwoFactor: form.get('require_two_factor') === '1',
      tokenConsole: form.get('token_console') === '1',
    };
    await done(await setPeopleSettings(deps, accountId, next, actor), 'ajustes', (p) =>
      usersList(ctx, deps, viewer, 400, p),
    );
    return true;
  }
  const match = USER_PATH.exec(path);
  const user = match ? await findUser(deps.db, accountId, match[1]) : undefined;
  if (!match || !user || (match[2] && !form)) return false;
  if (!form) return userPage(ctx, deps, viewer, user).then(() => true);
  if (match[2]) {
    const outcome = await (match[2] === 'quitar' ? dropUser : resetSecondFactor)(deps, accountId, user.id, actor);
    await done(outcome, match[2] === 'quitar' ? 'quitado' : match[2], (p) => userPage(ctx, deps, viewer, user, 409, p));
    return true;
  }
  const assignment = await readAssignment(deps, accountId, form);
  const outcome = assignment.ok ? await changeUser(deps, accountId, user.id, assignment.value, actor) : assignment;
  await done(outcome, 'cambiado', (p) => userPage(ctx, deps, viewer, user, 400, p));
  return true;
}
