import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import type { Db } from '../db/knex';
import { findDocument, releaseForSending, type DocumentRow, type ListedDocument } from '../db/documents';
import { listDocuments } from '../db/document-lists';
import { recordEmailAttempt, restartEmail } from '../db/document-email';
import { admitKeyed } from '../db/rate-limits';
import { holdForSending } from '../db/issuing';
import { findCompanyById, type CompanyRow } from '../db/companies';
import {
  deleteDelivery,
  insertRedelivery,
  listDeliveries,
  openOriginalDelivery,
  type DeliveryRow,
} from '../db/webhooks';
import { recordSupportAction, type SupportActionName } from '../db/support-actions';
import { logger } from '../core/logger';
import { isEmailAddress, MAX_BUYER_EMAILS } from '../documents/input/parties';
import { startBuyerEmailAgain } from '../workflows/buyer-email-client';
import { signalDocumentWorkflow, signalOrStart, type StartableDocument } from '../workflows/document-client';
import { startRedeliveryWorkflow } from '../workflows/webhook-client';
import { taskPriority } from '../workflows/priority-types';
import { WEBHOOK_EVENT } from '../workflows/webhook-types';
import { done, refused, type ActionResult } from '../lifecycle/result';
import { english, message, type Message } from '../lifecycle/messages';
import { RELEASE } from '../lifecycle/transitions';
import {
  recheckRefusal,
  resendRefusal,
  sendRefusal,
  supportResendRefusal,
  type ActionSubject,
} from '../lifecycle/refusals';
import { afterEmailAttempt, mayEmailBuyer } from '../lifecycle/email';
import { historyMayBePruned, isPendingDelivery } from '../lifecycle/webhooks';

/**
 * What support may do to a document, and what the API does when an integrator asks: send, resend, recheck,
 * redeliver. Each answers an ActionResult (done, or refused with a reason) and never throws for a refusal; a failure
 * (PostgreSQL or Temporal unreachable) is thrown. The rules are lifecycle/transitions.ts's; the SQL is db/'s.
 */

export interface LifecycleDeps {
  db: Db;
  /** The Temporal client, or a function connecting on first use (a dry run never connects). */
  temporal: Client | (() => Promise<Client>);
  taskQueue: string;
  /** CHASQUI_FAIRNESS: whether starts carry a priority and the account's fairness key. */
  fairness: boolean;
  /** CHASQUI_WEBHOOK_HISTORY_DAYS (null or absent: kept for good): a document older may have no delivery left. */
  webhookHistoryDays?: number | null;
}

/** The lifecycle's view of a process's dependencies (the API's, `chasqui support`'s). */
export function lifecycleDeps(deps: {
  db: Db;
  temporal: LifecycleDeps['temporal'];
  config: Pick<Config, 'temporal' | 'webhookHistoryDays'>;
}): LifecycleDeps {
  return {
    db: deps.db,
    temporal: deps.temporal,
    taskQueue: deps.config.temporal.taskQueue,
    fairness: deps.config.temporal.fairness,
    webhookHistoryDays: deps.config.webhookHistoryDays,
  };
}

export interface ActOptions {
  /**
   * Who acts (support staff, a console user): the result is recorded in `support_actions`, visible in the document's
   * timeline. Absent when the API acts for the integrator who owns the document (not audited).
   */
  actor?: string;
  /** Decide only: a `done` says what would be done ("would resend"), nothing changes and nothing is recorded. */
  dryRun?: boolean;
}

/** The send signal could not be handed to Temporal; the document was put back and still waits (the API's 503). */
export class SendNotHandedOver extends Error {
  override name = 'SendNotHandedOver';
}

type Refusal = Extract<ActionResult<never>, { outcome: 'refused' }>;
const refuse = (reason: Message | null, code: Refusal['code'] = 'conflict'): Refusal | null =>
  reason === null ? null : (refused(code, reason) as Refusal);

/** A document row as the API and support hold it (DocumentRow and ListedDocument both are). */
type Subject = ActionSubject & StartableDocument & { company_id: string };

/** What support or the account asks for by hand goes ahead of batch work, within the account's fair share. */
const byHand = (deps: LifecycleDeps, accountId: string) => taskPriority(deps, 'urgent', accountId);

/** The Temporal client of `deps`, connected on first use when it is a function. */
export const client = async (deps: LifecycleDeps) =>
  typeof deps.temporal === 'function' ? deps.temporal() : deps.temporal;

/** The document as it is now: a support plan may be minutes old when its turn comes. */
async function current<T extends { id: string }>(deps: LifecycleDeps, doc: T): Promise<ListedDocument | T> {
  return (await listDocuments(deps.db, { ids: [doc.id], limit: 1 }))[0] ?? doc;
}

/**
 * Decides, then (unless a dry run) acts, and records the result for an actor: done, refused, or failed (then rethrown).
 * A dry run answers the refusal, or `would` (by default "would <name>").
 */
async function act<T>(
  deps: LifecycleDeps,
  name: SupportActionName,
  /** Null for a company check's notice (no document to record it on). */
  documentId: string | null,
  options: ActOptions,
  refusal: Refusal | null,
  run: () => Promise<ActionResult<T>>,
  would: ActionResult<T> = done(message('action.would', { action: name })),
): Promise<ActionResult<T>> {
  if (options.dryRun) return refusal ?? would;
  const audit = (result: 'done' | 'refused' | 'failed', detail: string, said: Message | null = null) =>
    options.actor && documentId
      ? recordSupportAction(deps.db, {
          documentId,
          operator: options.actor,
          action: name,
          result,
          detail,
          message: said,
        })
      : undefined;
  if (refusal) {
    await audit('refused', refusal.reason, refusal.message);
    return refusal;
  }
  let result: ActionResult<T>;
  try {
    result = await run();
  } catch (err) {
    await audit('failed', (err as Error).message);
    throw err;
  }
  await audit(result.outcome, result.outcome === 'done' ? result.detail : result.reason, result.message);
  return result;
}

/** `POST /v1/cpe/{id}/send`: a manual-mode document (to_send) is queued and its workflow signalled. */
export async function send(
  deps: LifecycleDeps,
  doc: Subject,
  options: ActOptions = {},
): Promise<ActionResult<{ status: string }>> {
  const reason = sendRefusal(doc);
  return act(deps, 'send', doc.id, options, refuse(reason), async () => {
    if (!(await releaseForSending(deps.db, doc.id))) {
      const now = (await findDocument(deps.db, doc.id)) ?? doc;
      return refused(
        'conflict',
        sendRefusal(now) ?? message('send.now', { filename: doc.filename, status: now.status }),
      );
    }
    try {
      // A workflow not started yet (API crash at issue) is started by the sweeper and finds the document queued.
      await signalDocumentWorkflow(await client(deps), doc.id, 'send');
    } catch (err) {
      await holdForSending(deps.db, doc.id);
      logger.error({ err, externalId: doc.id }, 'send signal not delivered');
      throw new SendNotHandedOver(english(message('send.not_handed_over')));
    }
    return done(message('send.done', { filename: doc.filename }), { status: RELEASE.to });
  });
}

/**
 * The same signed XML sent again (no signature, no quota) through the workflow's `resend` signal, starting the
 * workflow when it does not run. An integrator (the API, `mayHaveArrived`) may resend a timed-out document, which
 * SUNAT answers "already reported" and turns into a state query; support staff resend only what never arrived.
 */
export async function resend(
  deps: LifecycleDeps,
  doc: Subject,
  options: ActOptions & { mayHaveArrived?: boolean } = {},
): Promise<ActionResult> {
  const now = options.mayHaveArrived ? doc : await current(deps, doc);
  const reason = options.mayHaveArrived ? resendRefusal(now) : supportResendRefusal(now);
  return act(deps, 'resend', doc.id, options, refuse(reason), async () => {
    await signalOrStart(await client(deps), deps.taskQueue, doc, 'resend', byHand(deps, doc.account_id));
    return done(
      options.mayHaveArrived ? message('resend.done.api', { filename: doc.filename }) : message('resend.done'),
    );
  });
}

/** Ask the authority for the real state now: a timed-out send is queried, a ticket polled. Never sends. */
export async function recheck(deps: LifecycleDeps, doc: Subject, options: ActOptions = {}): Promise<ActionResult> {
  const reason = recheckRefusal(await current(deps, doc));
  return act(deps, 'recheck', doc.id, options, refuse(reason), async () => {
    await signalOrStart(await client(deps), deps.taskQueue, doc, 'recheck', byHand(deps, doc.account_id));
    return done(message('recheck.done'));
  });
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const noWebhook = refuse(message('redeliver.no_webhook'), 'invalid');

/** Why a delivery is not delivered again, or null: the company needs a webhook now, and the delivery must have ended. */
function redeliveryRefusal(company: Pick<CompanyRow, 'webhook_url'>, delivery: DeliveryRow): Refusal | null {
  if (!company.webhook_url) return noWebhook;
  if (isPendingDelivery(delivery.status))
    return refuse(message('redeliver.pending', { delivery: delivery.id, next: iso(delivery.next_attempt_at) }));
  return null;
}

/**
 * A new delivery (new X-Entrega) of the same `cpe.resolved` notice to the URL configured now, started at once.
 * `data.delivery` is the new delivery's row.
 */
export async function redeliver(
  deps: LifecycleDeps,
  company: Pick<CompanyRow, 'webhook_url' | 'account_id'>,
  delivery: DeliveryRow,
  options: ActOptions = {},
): Promise<ActionResult<{ delivery: DeliveryRow }>> {
  return act(deps, 'redeliver', delivery.document_id, options, redeliveryRefusal(company, delivery), async () =>
    startDelivery(deps, company.account_id, delivery.document_id, await insertRedelivery(deps.db, delivery)),
  );
}

/** Starts a new delivery's workflow at once. */
async function startDelivery(
  deps: LifecycleDeps,
  accountId: string,
  documentId: string | null,
  delivery: DeliveryRow,
): Promise<ActionResult<{ delivery: DeliveryRow }>> {
  try {
    await startRedeliveryWorkflow(await client(deps), deps.taskQueue, documentId, delivery.id, byHand(deps, accountId));
  } catch (err) {
    // Without its workflow the row would stay pending forever: the caller retries instead.
    await deleteDelivery(deps.db, delivery.id);
    throw err;
  }
  return done(message('redeliver.done', { delivery: delivery.id }), { delivery });
}

/** `redeliver` of a document's latest delivery (support names documents, not deliveries). */
export async function redeliverDocument(
  deps: LifecycleDeps,
  doc: Subject & { resolved_at: Date | null },
  options: ActOptions = {},
): Promise<ActionResult<{ delivery: DeliveryRow }>> {
  const [latest] = await listDeliveries(deps.db, doc.company_id, { documentId: doc.id, limit: 1 });
  const company = await findCompanyById(deps.db, doc.company_id);
  if (latest && company) return redeliver(deps, company, latest, options);
  // Its history may have been pruned (docs/webhooks.md, "History"): the notice is delivered as a fresh delivery.
  if (company && historyMayBePruned(doc.resolved_at, deps.webhookHistoryDays ?? null, Date.now()))
    return act(deps, 'redeliver', doc.id, options, company.webhook_url ? null : noWebhook, async () =>
      startDelivery(deps, doc.account_id, doc.id, await openOriginalDelivery(deps.db, doc, WEBHOOK_EVENT)),
    );
  const nothing = doc.resolved ? message('redeliver.none') : message('redeliver.no_verdict', { status: doc.status });
  return act(deps, 'redeliver', doc.id, options, refuse(nothing), async () => refused('conflict', nothing));
}

/** How often one document may be e-mailed again: 3 times an hour (the buyer's inbox is not a target). */
export const EMAIL_AGAIN_LIMIT = { limit: 3, windowSeconds: 3600 };

/** Why the document cannot be e-mailed again to `to`, or null. */
function emailRefusal(doc: DocumentRow, to: string[]): Refusal | null {
  const { filename } = doc;
  if (!to.length) return refuse(message('email.no_address', { filename }), 'invalid');
  if (to.length > MAX_BUYER_EMAILS)
    return refuse(message('email.too_many', { max: MAX_BUYER_EMAILS, got: to.length }), 'invalid');
  const wrong = to.find((address) => !isEmailAddress(address));
  if (wrong !== undefined)
    return refuse(message('email.bad_address', { address: wrong.replace(/[\u0000-\u001F]/g, '?') }), 'invalid');
  if (!mayEmailBuyer(doc.status)) return refuse(message('email.not_accepted', { filename, status: doc.status }));
  return null;
}

/**
 * "Send again" of the buyer's e-mail (POST /v1/cpe/{id}/email, support staff): to `to`, or to the payload's
 * addresses. The document's e-mail state restarts (attempts counted afresh) and a new e-mail workflow sends it with the
 * same retries as the first; one already under way is not doubled. Every answer, done, refused or failed, is recorded
 * in the document's support timeline (support_actions); a dry run (the console's preview) uses no rate limit.
 */
export async function emailAgain(
  deps: LifecycleDeps,
  documentId: string,
  request: { to?: string[]; operator: string; dryRun?: boolean },
): Promise<ActionResult<{ to: string[] }>> {
  const doc = await findDocument(deps.db, documentId);
  if (!doc) return refused('not_found', message('email.not_found', { id: documentId }));
  const to = (request.to ?? doc.email_to ?? []).map((address) => address.trim());
  const options = { actor: request.operator, dryRun: request.dryRun };
  const would = done(message('email.would', { filename: doc.filename, to }), { to });
  return act(
    deps,
    'email',
    doc.id,
    options,
    emailRefusal(doc, to),
    async () => {
      const { limit, windowSeconds } = EMAIL_AGAIN_LIMIT;
      const decision = await admitKeyed(deps.db, `email-again:${doc.id}`, limit, windowSeconds);
      if (!decision.admitted)
        return refused(
          'rate_limited',
          message('email.rate_limited', { filename: doc.filename, limit, seconds: decision.resetSeconds }),
        );
      if (!(await restartEmail(deps.db, doc.id, to)))
        return refused('conflict', message('email.pending', { filename: doc.filename }));
      try {
        await startBuyerEmailAgain(await client(deps), {
          taskQueue: deps.taskQueue,
          externalId: doc.id,
          runSuffix: randomUUID(),
          summary: `buyer e-mail of ${doc.filename}, sent again`,
          priority: byHand(deps, doc.account_id),
        });
      } catch (err) {
        // Not left pending with nothing to send it: the next request may try again.
        await recordEmailAttempt(deps.db, doc.id, {
          ...afterEmailAttempt('not_started', true),
          error: `not started: ${(err as Error).message}`,
        });
        throw err;
      }
      return done(message('email.done', { filename: doc.filename, to }), { to });
    },
    would,
  );
}
