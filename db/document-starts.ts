/**
 * A document's workflow start, as the documents table keeps it: marked once started (the API after its answer, a void,
 * the sweeper), and the sweeper's query of documents whose start a crash lost (docs/delivery.md).
 */
import { run, statement, type Db } from './knex';
import { AWAITING_SUMMARY } from '../lifecycle/transitions';
import type { DocumentRow } from './document-row';

// One text for any number of ids (= any of an array), so the statement stays one prepared statement.
const MARK_STARTED = statement(
  'mark_started',
  'update documents set workflow_started_at = now() where id = any($1::uuid[]) and workflow_started_at is null',
);

export async function markWorkflowStarted(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await run(db, MARK_STARTED, [ids]);
}

/** What a workflow start needs of a document (workflows/document-types.ts StartableDocument): its columns. */
const START = ['id', 'ruc', 'doc_type', 'status', 'series', 'number', 'filename', 'issue_date', 'account_id'] as const;
export type UnstartedDocument = Pick<DocumentRow, (typeof START)[number]> & { company_name: string | null };

/** Documents committed over `olderThanSeconds` ago with no workflow started, accounts in turn (no flood goes first). */
export async function findUnstartedDocuments(
  db: Db,
  olderThanSeconds: number,
  limit = 500,
): Promise<UnstartedDocument[]> {
  return db('documents as d')
    .join('companies as c', 'c.id', 'd.company_id')
    .select(...START.map((column) => `d.${column}`), 'c.business_name as company_name')
    .whereNull('d.workflow_started_at')
    .whereNot('d.status', AWAITING_SUMMARY)
    .where('d.created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [olderThanSeconds]))
    .orderByRaw('row_number() over (partition by d.account_id order by d.created_at), d.created_at')
    .limit(limit);
}
