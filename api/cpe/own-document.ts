import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { forbidden, notFound } from '../errors';
import { authOf } from '../auth';
import { findDocument, type DocumentRow } from '../../db/documents';

/** The caller's document named in the path: 404 unknown (or not an id at all), 403 another company's. */
export async function ownDocument(deps: AppDeps, ctx: Context): Promise<DocumentRow> {
  const row = await findDocument(deps.db, String(ctx.params.external_id));
  if (!row) throw notFound(`No document ${ctx.params.external_id}`);
  if (row.company_id !== authOf(ctx).companyId) throw forbidden('The document belongs to another company');
  return row;
}
