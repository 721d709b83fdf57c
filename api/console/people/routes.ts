import type { Context } from 'koa';
import { html, notice, page } from '../html';
import { writePage, type Viewer } from '../context';
import { mayDo, rolesFor, type Permission } from '../permissions';
import { askStepUp, needsStepUp, secondFactorPage, type PeopleCall } from './two-factor';
import { usersPages } from './users';
import { auditCsv, auditPage } from './audit';

/** 403 for a page the role may not open, naming the roles that may; nothing is shown or changed. */
function refused(ctx: Context, viewer: Viewer, permission: Permission): void {
  const text = `Su rol no permite esta página: necesita el rol ${rolesFor(permission)}.`;
  writePage(ctx, 403, page(viewer.frame('Sin permiso'), html`${notice('refused', text)}`));
}

/**
 * A document's support actions (send again, query, redeliver, e-mail the buyer) change its course: a user needs a role
 * that issues (a contador or desarrollador reads only). Writes the 403 and answers true when refused.
 */
export function actionRefused(ctx: Context, viewer: Viewer, companyId: string): boolean {
  const { principal } = viewer.session;
  if (principal.kind !== 'user' || mayDo(principal, 'documents.issue', companyId)) return false;
  refused(ctx, viewer, 'documents.issue');
  return true;
}

/**
 * The people's pages behind a session (issue 43): the second factor, the users page (owner; a POST asks for the second
 * factor again past CHASQUI_STEP_UP_MINUTES) and the audit log. False for a path that is none of them.
 */
export async function peoplePage(call: PeopleCall, path: string): Promise<boolean> {
  const { ctx, deps, session, viewer, form } = call;
  if (await secondFactorPage(call, path)) return true;
  if (path === '/console/users' || path.startsWith('/console/users/')) {
    if (!mayDo(session.principal, 'users.manage')) return (refused(ctx, viewer, 'users.manage'), true);
    if (form && needsStepUp(deps, session)) return (askStepUp(ctx, '/console/users'), true);
    return usersPages(ctx, deps, viewer, path, form);
  }
  if ((path === '/console/audit' || path === '/console/audit.csv') && !form) {
    if (!mayDo(session.principal, 'audit.read')) return (refused(ctx, viewer, 'audit.read'), true);
    await (path === '/console/audit' ? auditPage(ctx, deps, viewer) : auditCsv(ctx, deps, viewer));
    return true;
  }
  return false;
}
