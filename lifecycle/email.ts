import { randomUUID } from 'node:crypto';
import { findDocument, recordEmailAttempt, restartEmail, type DocumentRow } from '../db/documents';
import { admitKeyed } from '../db/rate-limits';
import { recordSupportAction } from '../db/support-actions';
import { isEmailAddress, MAX_BUYER_EMAILS } from '../documents/input/parties';
import { buyerEmailWorkflow, buyerEmailWorkflowId } from '../workflows/buyer-email';
import { done, refused, type ActionResult } from './result';
import { message } from './messages';
import { client, type LifecycleDeps } from './actions';

/** How often one document may be e-mailed again: 3 times an hour (the buyer's inbox is not a target). */
export const EMAIL_AGAIN_LIMIT = { limit: 3, windowSeconds: 3600 };

/** Why the document cannot be e-mailed again to `to`, or null. */
function refusal(doc: DocumentRow, to: string[]): ActionResult<never> | null {
  const { filename } = doc;
  if (!to.length) return refused('invalid', message('email.no_address', { filename }));
  if (to.length > MAX_BUYER_EMAILS)
    return refused('invalid', message('email.too_many', { max: MAX_BUYER_EMAILS, got: to.length }));
  const wrong = to.find((address) => !isEmailAddress(address));
  if (wrong !== undefined)
    return refused('invalid', message('email.bad_address', { address: wrong.replace(/[\u0000-\u001F]/g, '?') }));
  if (doc.status !== 'accepted' && doc.status !== 'observed')
    return refused('conflict', message('email.not_accepted', { filename, status: doc.status }));
  return null;
}

/**
 * "Send again" of the buyer's e-mail (POST /v1/cpe/{id}/email, support staff): to `to`, or to the payload's
 * addresses. The document's e-mail state restarts (attempts counted afresh) and a new e-mail workflow sends it with the
 * same retries as the first; one already under way is not doubled. Every answer, done or refused, is recorded in the
 * document's support timeline (support_actions).
 */
export async function emailAgain(
  deps: LifecycleDeps,
  documentId: string,
  request: { to?: string[]; operator: string; dryRun?: boolean },
): Promise<ActionResult<{ to: string[] }>> {
  const doc = await findDocument(deps.db, documentId);
  if (!doc) return refused('not_found', message('email.not_found', { id: documentId }));
  const to = (request.to ?? doc.email_to ?? []).map((address) => address.trim());
  // What it would do (the console's preview): nothing changes, nothing is recorded, no rate-limit use.
  if (request.dryRun) return refusal(doc, to) ?? done(message('email.would', { filename: doc.filename, to }), { to });
  let result: ActionResult<{ to: string[] }> | null = refusal(doc, to);
  if (!result) {
    const decision = await admitKeyed(
      deps.db,
      `email-again:${doc.id}`,
      EMAIL_AGAIN_LIMIT.limit,
      EMAIL_AGAIN_LIMIT.windowSeconds,
    );
    if (!decision.admitted) {
      result = refused(
        'rate_limited',
        message('email.rate_limited', {
          filename: doc.filename,
          limit: EMAIL_AGAIN_LIMIT.limit,
          seconds: decision.resetSeconds,
        }),
      );
    } else if (!(await restartEmail(deps.db, doc.id, to))) {
      result = refused('conflict', message('email.pending', { filename: doc.filename }));
    } else {
      try {
        await (
          await client(deps)
        ).workflow.start(buyerEmailWorkflow, {
          taskQueue: deps.taskQueue,
          workflowId: `${buyerEmailWorkflowId(doc.id)}-${randomUUID()}`,
          args: [{ externalId: doc.id }],
          staticSummary: `buyer e-mail of ${doc.filename}, sent again`,
        });
      } catch (err) {
        // Not left pending with nothing to send it: the next request may try again.
        await recordEmailAttempt(deps.db, doc.id, {
          status: 'failed',
          error: `not started: ${(err as Error).message}`,
          counted: false,
        });
        throw err;
      }
      result = done(message('email.done', { filename: doc.filename, to }), { to });
    }
  }
  await recordSupportAction(deps.db, {
    documentId: doc.id,
    operator: request.operator,
    action: 'email',
    result: result.outcome,
    detail: result.outcome === 'done' ? result.detail : result.reason,
    message: result.message,
  });
  return result;
}
