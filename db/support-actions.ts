import type { Db } from './knex';

export type SupportActionName = 'send' | 'recheck' | 'resend' | 'redeliver' | 'email';
/** done: handed to the workflow; refused: the document's state does not allow it (nothing changed); failed: an error. */
export type SupportActionResult = 'done' | 'refused' | 'failed';

export interface SupportActionRow {
  id: string;
  document_id: string;
  operator: string;
  action: SupportActionName;
  result: SupportActionResult;
  detail: string | null;
  created_at: Date;
}

/** The audit record of one `chasqui support` action on one document (who, when, what, what came of it). */
export async function recordSupportAction(
  db: Db,
  action: {
    documentId: string;
    operator: string;
    action: SupportActionName;
    result: SupportActionResult;
    detail: string | null;
  },
): Promise<void> {
  await db('support_actions').insert({
    document_id: action.documentId,
    operator: action.operator,
    action: action.action,
    result: action.result,
    detail: action.detail,
  });
}

export function listSupportActions(db: Db, documentId: string): Promise<SupportActionRow[]> {
  return db<SupportActionRow>('support_actions').where({ document_id: documentId }).orderBy('id');
}
