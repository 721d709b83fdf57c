import fs from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { logger } from '../../core/logger';
import { setPageHeaders, FormError } from '../pages';
import { html, notice, page } from './html';
import { consoleSession, cookie, sameSecret, SESSION_COOKIE, setCookie } from './session';
import { consoleForm, forbiddenPage, loginPage, signIn, signOut } from './sign-in';
import { notFoundPage, viewerOf, visibleDocument, writePage } from './context';
import { documentPage, searchPage } from './documents';
import { stuckPage } from './stuck';
import { companiesPage } from './companies';
import { documentFile } from './files';
import type { FileKind } from '../../buyers/links';
import { actionPreview, actionRun, doneNotice, isActionName } from './actions';
import { companyPage, isCompanyPage } from './panel/routes';
import { createCompanyPost } from './panel/create-company';
import { panelDoneNotice } from './panel/issue';
import { voidPost } from './panel/void';
import { findDocument } from '../../db/documents';
import { publicPeoplePage } from './people/links';
import { actionRefused, peoplePage } from './people/routes';
import { SECOND_FACTOR_PATHS } from './people/paths';

const CSS = fs.readFileSync(path.join(__dirname, 'console.css'), 'utf8');

/**
 * The support console at /console (docs/operations.md): server-rendered pages for support staff (support tokens)
 * and account holders (their own companies). Mounted before the JSON API's envelope: these answers are HTML.
 * This file routes; sign-in.ts holds the forms and the session, documents.ts, stuck.ts and companies.ts the pages,
 * actions.ts the support actions, files.ts the downloads.
 */
export function consolePages(deps: AppDeps): Middleware {
  return async function console(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== '/console' && !ctx.path.startsWith('/console/')) return next();
    setPageHeaders(ctx, 'same-origin');
    try {
      await route(ctx, deps);
    } catch (err) {
      logger.error({ err, path: ctx.path, requestId: ctx.state.requestId }, 'console page failed');
      writePage(
        ctx,
        500,
        page(
          { title: 'Error' },
          notice(
            'refused',
            `Algo falló al preparar esta página (solicitud ${ctx.state.requestId ?? '—'}). Inténtelo de nuevo.`,
          ),
        ),
      );
    }
  };
}

/** The sign-in page's notice: after signing out, or after a password was set by a link. */
function loginNotice(ctx: Context) {
  if (ctx.query.salida) return notice('ok', 'Sesión cerrada.');
  return ctx.query.listo ? notice('ok', 'Contraseña guardada: inicie sesión con ella.') : null;
}

const DOCUMENT = /^\/console\/documents\/([^/]+)(?:\/(xml|cdr|pdf)|\/acciones\/([a-z]+))?$/;
const VOID = /^\/console\/documents\/([^/]+)\/anular$/;

async function route(ctx: Context, deps: AppDeps): Promise<void> {
  const { method } = ctx;
  const p = ctx.path.replace(/\/+$/, '') || '/console';
  if (p === '/console/assets/console.css' && method === 'GET') {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = CSS;
    return;
  }
  if (p === '/console/login' && method === 'GET') return loginPage(ctx, deps, 200, loginNotice(ctx));
  if (p === '/console/login' && method === 'POST') return signIn(ctx, deps);
  if (await publicPeoplePage(ctx, deps, p)) return;

  const session = await consoleSession(deps, ctx);
  if (session?.pending && ![...Object.values(SECOND_FACTOR_PATHS), '/console/logout'].includes(p)) {
    ctx.status = 303;
    return ctx.redirect(SECOND_FACTOR_PATHS[session.pending]);
  }
  if (method === 'POST') {
    if (!session) return forbiddenPage(ctx, 'Su sesión terminó: inicie sesión de nuevo.');
    // An upload (certificate, logo) carries its CSRF field inside the multipart body: its page checks it once read.
    if (isCompanyPage(p) && ctx.is('multipart/form-data'))
      return companyPage(ctx, deps, session, viewerOf(session), 'multipart');
    const form = await consoleForm(ctx);
    if (form instanceof FormError) return forbiddenPage(ctx, form.message, form.status === 413 ? 413 : 403);
    if (!sameSecret(form.get('csrf'), session.csrf))
      return forbiddenPage(ctx, 'Falta el token del formulario (CSRF) o no corresponde a su sesión.');
    if (p === '/console/logout') return signOut(ctx, deps);
    const viewer = viewerOf(session);
    if (p === '/console/companies') return createCompanyPost(ctx, deps, viewer, form);
    if (isCompanyPage(p)) return companyPage(ctx, deps, session, viewer, form);
    const voiding = VOID.exec(p);
    if (voiding) {
      const doc = await visibleDocument(deps, session, voiding[1]);
      if (!doc) return notFoundPage(ctx, viewer);
      return voidPost(ctx, deps, viewer, (await findDocument(deps.db, doc.id))!, form, (status, shown) =>
        documentPage(ctx, deps, viewer, doc, { status, notice: shown }),
      );
    }
    if (await peoplePage({ ctx, deps, session, viewer, form }, p)) return;
    const act = DOCUMENT.exec(p);
    if (act?.[3] && isActionName(act[3])) {
      const doc = await visibleDocument(deps, session, act[1]);
      if (!doc) return notFoundPage(ctx, viewer);
      if (actionRefused(ctx, viewer, doc.company_id)) return;
      const outcome = await actionRun(deps, viewer, doc, act[3]);
      if (outcome !== 'done') return documentPage(ctx, deps, viewer, doc, outcome);
      ctx.status = 303;
      return ctx.redirect(`/console/documents/${doc.id}?hecho=${act[3]}`);
    }
    return writePage(ctx, 404, page(viewer.frame('No encontrado'), html`<p>Esa acción no existe.</p>`));
  }
  if (method !== 'GET' && method !== 'HEAD') {
    ctx.set('Allow', 'GET, POST');
    return writePage(ctx, 405, page({ title: 'Método no permitido' }, html`<p>Use la consola desde el navegador.</p>`));
  }
  if (!session) {
    if (cookie(ctx, SESSION_COOKIE)) setCookie(ctx, deps, SESSION_COOKIE, '', 0);
    return loginPage(
      ctx,
      deps,
      401,
      cookie(ctx, SESSION_COOKIE) ? notice('info', 'Su sesión terminó: inicie sesión de nuevo.') : null,
    );
  }
  const viewer = viewerOf(session);
  if (p === '/console') return ctx.redirect('/console/documents');
  if (p === '/console/documents') return searchPage(ctx, deps, viewer);
  if (p === '/console/stuck') return stuckPage(ctx, deps, viewer);
  if (p === '/console/companies') return companiesPage(ctx, deps, viewer);
  if (isCompanyPage(p)) return companyPage(ctx, deps, session, viewer, null);
  if (await peoplePage({ ctx, deps, session, viewer, form: null }, p)) return;
  const m = DOCUMENT.exec(p);
  if (m && (!m[3] || isActionName(m[3]))) {
    const doc = await visibleDocument(deps, session, m[1]);
    if (!doc) return notFoundPage(ctx, viewer);
    if (m[3] && isActionName(m[3]) && !actionRefused(ctx, viewer, doc.company_id))
      return actionPreview(ctx, deps, viewer, doc, m[3]);
    if (m[3]) return;
    if (m[2]) return documentFile(ctx, deps, viewer, doc, m[2] as FileKind);
    const done = String(ctx.query.hecho ?? '');
    return documentPage(ctx, deps, viewer, doc, {
      status: 200,
      notice: isActionName(done) ? await doneNotice(deps, viewer, doc, done) : panelDoneNotice(done),
    });
  }
  writePage(
    ctx,
    404,
    page(
      viewer.frame('No encontrado'),
      html`<p>Esta página no existe. <a href="/console/documents">Ir a documentos</a></p>`,
    ),
  );
}
