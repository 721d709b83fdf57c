import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../../db/knex';
import { findDocument, type DocumentRow } from '../../db/documents';
import { isSentWithoutVerdict } from '../../lifecycle/transitions';

const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 500;

/**
 * Response mode `wait` and the legacy endpoint: polls the document row (the workflow's activities keep it current)
 * until the authority pronounced (resolved) or gave a ticket. `answered: false` when the time ran out, or at once
 * when the send timed out (status `sent`: Pending, a verdict only reconciliation will bring).
 */
export async function waitForVerdict(
  db: Db,
  id: string,
  timeoutMs: number,
): Promise<{ row: DocumentRow; answered: boolean }> {
  const deadline = Date.now() + timeoutMs;
  let pause = FIRST_POLL_MS;
  for (;;) {
    const row = (await findDocument(db, id))!;
    if (row.resolved || row.ticket) return { row, answered: true };
    const left = deadline - Date.now();
    if (isSentWithoutVerdict(row.status) || left <= 0) return { row, answered: false };
    await delay(Math.min(pause, left));
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
}
