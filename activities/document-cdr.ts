/**
 * Whose CDR the authority holds for a document's number (docs/delivery.md): ours, or another document's that took the
 * number first. Changes when the evidence of ownership changes (hashes, restores, earlier attempts).
 */
import type { AuthorityResult } from '../authority';
import { numberTaken } from '../authority/classify';
import type { DocumentRow } from '../db/documents';
import { answeredInLostWindow } from '../db/restores';
import type { Db } from '../db/knex';
import { isSentWithoutVerdict } from '../lifecycle/transitions';

/**
 * Whether an earlier send of this document may have got through unseen: a worker died mid-send (`send_started_at`
 * left), a send timed out (`reached_sunat` null), or it was left `sent` with no verdict.
 */
export function earlierAttemptMayHaveReached(before: DocumentRow): boolean {
  return (
    before.send_started_at !== null ||
    isSentWithoutVerdict(before.status) ||
    (before.result !== null && before.result.reached_sunat === null)
  );
}

/**
 * The CDR the authority holds for this document's number, judged as ours or another document's (docs/delivery.md):
 * a CDR carrying a DocumentHash (OSE, GRE) is ours when the hash is ours; one without (SUNAT's invoice CDRs) is ours
 * only when an earlier attempt of this very document may have reached the authority (or, `lostWithRestore`, the
 * document is one lost with a restore and posted again). Otherwise the document is rejected with the authority's code
 * (1033, or 1032 for a number whose document was rejected): never reported accepted with another document's CDR.
 */
export function whoseCdr(
  doc: DocumentRow,
  known: AuthorityResult,
  mayHaveReached: boolean,
  code = '1033',
): AuthorityResult {
  if (!known.cdr) return known;
  const theirHash = known.cdr.documentHash;
  const ours = theirHash !== null ? theirHash === doc.hash : mayHaveReached;
  return ours ? known : numberTaken(code, known.httpStatus);
}

/**
 * A hash-less CDR (SUNAT's invoices) of a document posted after a restore, for its issue date, answered between the
 * backup and the restore: the document acknowledged then and lost with the restore, posted again (docs/operations.md).
 */
export async function lostWithRestore(db: Db, doc: DocumentRow, known: AuthorityResult): Promise<boolean> {
  const cdr = known.cdr;
  if (!cdr || cdr.documentHash !== null || !cdr.responseDate || !cdr.responseTime) return false;
  if (cdr.issueDate?.slice(0, 10) !== doc.issue_date) return false;
  // SUNAT writes its response time in Lima's (UTC−5 all year), without an offset.
  const answeredAt = new Date(`${cdr.responseDate}T${cdr.responseTime}-05:00`);
  return !Number.isNaN(answeredAt.getTime()) && answeredInLostWindow(db, answeredAt, doc.created_at);
}
