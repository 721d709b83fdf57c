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
  /** The result as a lifecycle message ({code, params}), rendered by each surface; null before issue 34 and on failures. */
  message: { code: string; params: Record<string, unknown> } | null;
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
    message?: SupportActionRow['message'];
  },
): Promise<void> {
  await db('support_actions').insert({
    document_id: action.documentId,
    operator: action.operator,
    action: action.action,
    result: action.result,
    detail: action.detail,
    message: action.message ? JSON.stringify(action.message) : null,
  });
}

export function listSupportActions(db: Db, documentId: string): Promise<SupportActionRow[]> {
  return db<SupportActionRow>('support_actions').where({ document_id: documentId }).orderBy('id');
}
