import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { notFound } from '../errors';
import { authOf } from '../auth';
import { findDocument, type DocumentRow } from '../../db/documents';

/**
 * The caller's document named in the path; the same 404 whether it is unknown, not an id at all or another
 * company's, so an id says nothing about documents that are not the caller's (docs/security.md).
 */
export async function ownDocument(deps: AppDeps, ctx: Context): Promise<DocumentRow> {
  const row = await findDocument(deps.db, String(ctx.params.external_id));
  if (!row || row.company_id !== authOf(ctx).companyId) throw notFound(`No document ${ctx.params.external_id}`);
  return row;
}
