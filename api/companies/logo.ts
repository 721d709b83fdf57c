import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError, badRequest, notFound } from '../errors';
import { guard } from '../guard';
import { ACCOUNT_SCOPE } from '../../db/tokens';
import { deleteLogo, findLogo, saveLogo, type LogoRow } from '../../db/logos';
import type { CompanyRow } from '../../db/companies';
import type { Db } from '../../db/knex';
import { recordChange, type Actor } from '../../db/audit';
import { requestActor } from '../audit';
import { LOGO_TYPES, validateLogo } from '../../documents/printed';
import { loadCompany } from './routes';
import { readCappedBody } from '../read-body';

/** The raw body, refused past `maxBytes` without reading the rest. */
function readImage(ctx: Context, maxBytes: number): Promise<Buffer> {
  return readCappedBody(
    ctx,
    maxBytes,
    () =>
      new ApiError(413, `The logo is larger than ${maxBytes} bytes`, {
        errors: { logo: [`at most ${maxBytes} bytes`] },
      }),
  );
}

/**
 * `PUT /v1/companies/{ruc}/logo` (the image as the body, Content-Type image/png or image/jpeg), `GET` (the stored
 * image) and `DELETE`, with the account token. Printed documents (GET /v1/cpe/{id}/pdf) carry the logo.
 */
export function logoRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies' });
  const guarded = guard(deps, ACCOUNT_SCOPE);

  router.put('/:ruc/logo', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const declared = ctx.get('Content-Type').split(';')[0].trim().toLowerCase();
    if (!(LOGO_TYPES as readonly string[]).includes(declared)) {
      throw new ApiError(
        415,
        `Send the logo as the body with Content-Type ${LOGO_TYPES.join(' or ')} (got ${declared || 'none'})`,
      );
    }
    const image = await readImage(ctx, deps.config.logoMaxBytes);
    const row = await storeLogo(deps, company, image, declared, requestActor(ctx));
    ctx.body = {
      success: true,
      message: `Logo of ${company.ruc} stored; its printed documents carry it from now on`,
      data: {
        logo: {
          content_type: row.content_type,
          bytes: image.length,
          width: row.width,
          height: row.height,
          updated_at: row.updated_at.toISOString(),
        },
      },
    };
  });

  router.get('/:ruc/logo', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const logo = await findLogo(deps.db, company.id);
    if (!logo) throw notFound(`Company ${company.ruc} has no logo`);
    ctx.type = logo.content_type;
    ctx.body = logo.image;
  });

  router.delete('/:ruc/logo', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    if (!(await removeLogo(deps, company, requestActor(ctx)))) throw notFound(`Company ${company.ruc} has no logo`);
    ctx.body = { success: true, message: `Logo of ${company.ruc} removed` };
  });

  return router;
}

const logoAudit = (db: Db, company: CompanyRow, actor: Actor, to: string | null) =>
  recordChange(db, {
    accountId: company.account_id,
    companyId: company.id,
    companyRuc: company.ruc,
    actor,
    action: 'company.logo',
    changes: { logo: { to } },
  });

/** Checks and stores (or replaces) the logo with its audit row: 422 naming `logo` when it cannot be used. */
export async function storeLogo(
  deps: AppDeps,
  company: CompanyRow,
  image: Buffer,
  declaredType: string,
  actor: Actor,
): Promise<LogoRow> {
  const check = validateLogo(image, declaredType, deps.config.logoMaxBytes);
  if (!check.ok) throw badRequest(`The logo cannot be used: ${check.reason}`, { logo: [check.reason] });
  return deps.db.transaction(async (trx) => {
    const row = await saveLogo(trx, {
      company_id: company.id,
      content_type: check.type,
      image,
      width: check.width,
      height: check.height,
    });
    await logoAudit(trx, company, actor, `${check.type} ${check.width}×${check.height}`);
    return row;
  });
}

/** Removes the logo with its audit row; false when there was none (nothing recorded). */
export function removeLogo(deps: AppDeps, company: CompanyRow, actor: Actor): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    if (!(await deleteLogo(trx, company.id))) return false;
    await logoAudit(trx, company, actor, null);
    return true;
  });
}
