import type { ListedDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import { findDocumentsByReference } from '../../db/document-references';
import { listFailedDeliveries } from '../../db/webhooks';
import { iso, table } from './explain';
import type { SupportDeps } from './deps';
import { durationOf, positiveInt, statusesOf, UsageError, type Values } from './options';

/** Which documents a command works on: references, the stuck ones, those whose webhook delivery failed. */

/** The unresolved documents `stuck` (and a selector without references) selects. */
export function stuckSelection(deps: SupportDeps, values: Values): Promise<ListedDocument[]> {
  const olderThan = durationOf(values['older-than'], '30m', '--older-than');
  return listDocuments(deps.db, {
    resolved: false,
    statuses: statusesOf(values),
    ruc: values.ruc,
    createdBefore: new Date(Date.now() - olderThan * 1000),
    limit: positiveInt(values.limit, 1000, '--limit'),
  });
}

/** References (one document each; an ambiguous one is a usage error listing its candidates), narrowed by --ruc. */
export async function byReferences(
  deps: SupportDeps,
  references: string[],
  ruc: string | undefined,
): Promise<ListedDocument[]> {
  const docs: ListedDocument[] = [];
  for (const reference of references) {
    const found = (await findDocumentsByReference(deps.db, reference)).filter((d) => !ruc || d.ruc === ruc);
    if (found.length === 0) throw new UsageError(`no document matches '${reference}'${ruc ? ` for RUC ${ruc}` : ''}`);
    if (found.length > 1) {
      throw new UsageError(
        `'${reference}' matches ${found.length} documents; name one by external_id or add --ruc:\n${candidates(found)}`,
      );
    }
    if (!docs.some((d) => d.id === found[0].id)) docs.push(found[0]);
  }
  return docs;
}

export function candidates(docs: ListedDocument[]): string {
  return table([
    ['DOCUMENT', 'STATUS', 'ISSUED', 'EXTERNAL_ID'],
    ...docs.map((d) => [d.filename, d.status, iso(d.created_at), d.id]),
  ]);
}

/** Documents whose latest webhook delivery failed within --failed-since. */
export async function failedDeliverySelection(deps: SupportDeps, values: Values): Promise<ListedDocument[]> {
  const since = durationOf(values['failed-since'], '24h', '--failed-since');
  const ids = await listFailedDeliveries(deps.db, {
    ruc: values.ruc,
    since: new Date(Date.now() - since * 1000),
    limit: positiveInt(values.limit, 1000, '--limit'),
  });
  return ids.length ? listDocuments(deps.db, { ids, limit: ids.length }) : [];
}
