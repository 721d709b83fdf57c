import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { createSecureContext, rootCertificates } from 'node:tls';
import got, { CancelError, TimeoutError } from 'got';
import type { ActivityDeps } from './deps';
import { checkPublicHttpsUrl } from '../core/net-guard';
import { pinnedLookup } from '../core/pinned-lookup';
import { logger } from '../core/logger';
import { webhookAttempts } from '../core/metrics';
import { findCompanyById, type CompanyRow } from '../db/companies';
import { findCheckEvent, presentCheck, type CheckEventRow } from '../db/company-checks';
import { findDocument, type DocumentRow, type ListedDocument } from '../db/documents';
import { toApiDocument } from '../db/document-presentation';
import {
  beginResolutionNotice,
  cancelDelivery,
  findAttempt,
  findDelivery,
  findUnnotifiedResolutions,
  markResolutionNotified,
  openOriginalDelivery,
  recordAttempt,
  type DeliveryRow,
} from '../db/webhooks';
import { startWebhookDeliveryWorkflow } from '../workflows/webhook-client';
import { taskPriority } from '../workflows/priority-types';
import {
  CHECK_WEBHOOK_EVENT,
  CHECK_WEBHOOK_EVENT_HEADER,
  TEST_WEBHOOK_EVENT,
  TEST_WEBHOOK_EVENT_HEADER,
  WEBHOOK_EVENT,
  WEBHOOK_EVENT_HEADER,
  type AttemptOutcome,
  type WebhookActivities,
} from '../workflows/webhook-types';
import { afterAttempt, awaitsFirstAttempt, deliversNotice, isPendingDelivery } from '../lifecycle/webhooks';

/** Spec 6 body: `document` is exactly what GET /v1/cpe/{external_id} returns. */
export function webhookBody(doc: DocumentRow | ListedDocument, sentAt: Date): string {
  return JSON.stringify({ event: WEBHOOK_EVENT, sent_at: limaTimestamp(sentAt), document: toApiDocument(doc) });
}

/**
 * The `company.check` body: the company, and the check as GET /v1/companies/{ruc}/checks shows it at the change, with
 * the status it had before (null: its first known status).
 */
export function checkWebhookBody(
  event: CheckEventRow,
  company: Pick<CompanyRow, 'ruc' | 'business_name'>,
  sentAt: Date,
): string {
  return JSON.stringify({
    event: CHECK_WEBHOOK_EVENT,
    sent_at: limaTimestamp(sentAt),
    company: { ruc: company.ruc, business_name: company.business_name },
    check: { ...presentCheck(event), previous_status: event.previous_status },
  });
}

/**
 * The `webhook.test` body: signed like any notice, but with its own event and no document, so a receiver that acts on
 * `cpe.resolved` cannot take it for a resolution (docs/webhooks.md, "Test notice").
 */
export function testWebhookBody(
  company: Pick<CompanyRow, 'ruc' | 'business_name'>,
  deliveryId: string,
  sentAt: Date,
): string {
  return JSON.stringify({
    event: TEST_WEBHOOK_EVENT,
    sent_at: limaTimestamp(sentAt),
    test: true,
    company: { ruc: company.ruc, business_name: company.business_name },
    message: `Test notice ${deliveryId}: it concerns no document.`,
  });
}

/** What one delivery notifies: its body at the attempt's time, its X-Evento, and what the attempt's log line names. */
interface Notice {
  body(sentAt: Date): string;
  header: string;
  log: Record<string, string>;
}

const documentNotice = (doc: DocumentRow | ListedDocument): Notice => ({
  body: (at) => webhookBody(doc, at),
  header: WEBHOOK_EVENT_HEADER,
  log: { externalId: doc.id, ruc: doc.ruc },
});

/** X-Firma: hex HMAC-SHA256 of the raw body with the company's secret. */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** ISO 8601 with an explicit offset in Peru's time (UTC-5 all year, no daylight saving). */
export function limaTimestamp(at: Date): string {
  return new Date(at.getTime() - 5 * 3_600_000).toISOString().replace('Z', '-05:00');
}

/**
 * Only a receiver's status is used: its body is read no further than this (the URL is the account's, and an endless
 * body would fill the worker's memory). A longer body cuts the read short; the status already received still counts.
 */
const MAX_ANSWER_BYTES = 64 * 1024;

/** One attempt, one request: got's options every delivery shares are merged once (see authority/http.ts). */
const webhookClient = got.extend({ followRedirect: false, retry: { limit: 0 }, throwHttpErrors: false });

interface PostResult {
  url: string;
  httpStatus: number | null;
  latencyMs: number | null;
  error: string | null;
}

/** What a receiver's status means (lifecycle/webhooks.ts): delivered, or an error (redirects are not followed). */
function answered(url: string, status: number, latencyMs: number): PostResult {
  const ok = deliversNotice(status);
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return { url, httpStatus: status, latencyMs, error: ok ? null : `HTTP ${status}${redirect}` };
}

/**
 * Node's `ca` replaces the system roots, so the extra CA is added to them; the TLS context is built once, not per
 * connection (parsing the roots each time costs more than the request). Kept alive like Node's global agent (used
 * without a CA file): a receiver notified again soon costs no new TLS handshake.
 */
function webhookAgent(caFile: string | null | undefined) {
  return caFile
    ? {
        https: new https.Agent({
          keepAlive: true,
          secureContext: createSecureContext({ ca: [...rootCertificates, fs.readFileSync(caFile, 'utf8')] }),
        }),
      }
    : undefined;
}

type Config = ActivityDeps['config'];

/** One POST of a notice to `target`, signed with `secret`, after the target is checked again. */
async function post(
  config: Config,
  agent: ReturnType<typeof webhookAgent>,
  target: string,
  secret: string,
  delivery: DeliveryRow,
  notice: Notice,
): Promise<PostResult> {
  const check = await checkPublicHttpsUrl(target, { allowPrivate: config.webhookAllowPrivate });
  if (!check.ok)
    return { url: target, httpStatus: null, latencyMs: null, error: `target refused: the URL ${check.message}` };
  const body = notice.body(new Date());
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let status = null as number | null;
  try {
    const request = webhookClient.post(check.url, {
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'chasqui-webhooks',
        'X-Evento': notice.header,
        'X-Entrega': delivery.id,
        'X-Firma': webhookSignature(secret, body),
      },
      timeout: { request: config.webhookTimeoutMs },
      dnsLookup: pinnedLookup(check.addresses),
      agent,
    });
    // The status as soon as the headers arrive (got's own response event waits for the body).
    request.on('request', (outgoing: ClientRequest) =>
      outgoing.once('response', (incoming: IncomingMessage) => (status = incoming.statusCode ?? null)),
    );
    request.on('downloadProgress', (progress) => {
      if (progress.transferred > MAX_ANSWER_BYTES) request.cancel();
    });
    return answered(target, (await request).statusCode, latency());
  } catch (err) {
    if (err instanceof CancelError && status !== null) return answered(target, status, latency());
    const error =
      err instanceof TimeoutError
        ? `no answer within ${config.webhookTimeoutMs} ms`
        : `${(err as { code?: string }).code ?? 'ERROR'}: ${(err as Error).message}`;
    return { url: target, httpStatus: null, latencyMs: latency(), error };
  }
}

/** What an attempt (made now, or recorded before) tells the workflow. */
const outcomeOf = (row: DeliveryRow, httpStatus: number | null = null): AttemptOutcome => ({
  status: row.status,
  attempts: row.attempts,
  httpStatus,
  error: row.last_error,
});

/** What a delivery notifies: a webhook test, a company check's change, or a document's resolution. */
async function noticeOf(
  db: ActivityDeps['db'],
  delivery: DeliveryRow,
  company: CompanyRow | null | undefined,
): Promise<Notice> {
  if (delivery.event === TEST_WEBHOOK_EVENT)
    // Without a company there is no webhook: the attempt cancels the delivery before building the body.
    return {
      body: (at) => testWebhookBody(company!, delivery.id, at),
      header: TEST_WEBHOOK_EVENT_HEADER,
      log: { ruc: company?.ruc ?? '' },
    };
  if (delivery.check_event_id) {
    const event = await findCheckEvent(db, delivery.check_event_id);
    if (!event) throw new Error(`check event ${delivery.check_event_id} of delivery ${delivery.id} does not exist`);
    return {
      body: (at) => checkWebhookBody(event, company!, at),
      header: CHECK_WEBHOOK_EVENT_HEADER,
      log: { checkEventId: event.id, check: event.check, ruc: company?.ruc ?? '' },
    };
  }
  const doc = await findDocument(db, delivery.document_id!);
  if (!doc) throw new Error(`document ${delivery.document_id} of delivery ${delivery.id} does not exist`);
  return documentNotice(doc);
}

/**
 * The I/O of the webhook delivery workflow. Each attempt reads the company's current URL and secret (a disabled or
 * changed URL applies to attempts not yet made), re-checks the target, builds and signs the body from the current
 * document row and records the attempt. Safe to run twice: a recorded attempt is returned, not repeated.
 */
export function createWebhookActivities(deps: Pick<ActivityDeps, 'config' | 'db' | 'secrets'>): WebhookActivities {
  const { config, db } = deps;
  const agent = webhookAgent(config.webhookCaFile);

  /** Makes attempt `number` of a pending delivery with the company and its subject as they are now, and records it. */
  async function attempt(
    delivery: DeliveryRow,
    number: number,
    company: CompanyRow | null | undefined,
    notice: Notice,
  ): Promise<AttemptOutcome> {
    // DELIVERY_TRANSITIONS.disabled, carried out by cancelDelivery.
    if (!company?.webhook_url || !company.webhook_secret_sealed)
      return outcomeOf(await cancelDelivery(db, delivery.id, 'the webhook was disabled before this attempt'));
    const startedAt = new Date();
    const result = await post(
      config,
      agent,
      company.webhook_url,
      deps.secrets.open(company.webhook_secret_sealed),
      delivery,
      notice,
    );
    const delivered = result.error === null;
    webhookAttempts.inc({ outcome: delivered ? 'delivered' : 'failed' });
    const row = await recordAttempt(
      db,
      delivery.id,
      {
        number,
        url: result.url,
        started_at: startedAt,
        http_status: result.httpStatus,
        latency_ms: result.latencyMs,
        error: result.error,
        delivered,
      },
      afterAttempt(number, delivered, Date.now()),
    );
    logger.info(
      {
        deliveryId: delivery.id,
        ...notice.log,
        event: delivery.event,
        attempt: number,
        host: URL.canParse(result.url) ? new URL(result.url).host : null,
        httpStatus: result.httpStatus,
        latencyMs: result.latencyMs,
        error: result.error,
        status: row.status,
      },
      'webhook attempt recorded',
    );
    return outcomeOf(row, result.httpStatus);
  }

  return {
    async openWebhookDelivery(externalId, options) {
      const notice = await beginResolutionNotice(db, externalId, WEBHOOK_EVENT);
      if (!notice) throw new Error(`document ${externalId} does not exist`);
      const { doc, company } = notice;
      if (!company?.webhook_url) return null;
      const delivery = await openOriginalDelivery(db, doc, WEBHOOK_EVENT);
      const opened = { deliveryId: delivery.id, status: delivery.status, attempts: delivery.attempts };
      if (!options?.attemptFirst) return opened;
      // The first attempt with the rows just read. A rerun (its workflow task lost after the attempt) finds it made and
      // returns the delivery as it stands: the delivery workflow carries on after it, never sooner than its wait.
      return {
        ...opened,
        first: awaitsFirstAttempt(delivery)
          ? await attempt(delivery, 1, company, documentNotice(doc))
          : outcomeOf(delivery),
      };
    },

    async attemptWebhookDelivery(deliveryId, number) {
      const delivery = await findDelivery(db, deliveryId);
      if (!delivery) throw new Error(`webhook delivery ${deliveryId} does not exist`);
      const recorded = await findAttempt(db, deliveryId, number);
      if (!isPendingDelivery(delivery.status) || recorded) return outcomeOf(delivery, recorded?.http_status ?? null);
      const company = await findCompanyById(db, delivery.company_id);
      return attempt(delivery, number, company, await noticeOf(db, delivery, company));
    },
  };
}

/** A resolution younger than this is left to the workflow that resolved it (it starts the delivery as its child). */
const SWEEP_GRACE_SECONDS = 60;

export interface WebhookSweeperActivities {
  startUnnotifiedResolutions(): Promise<number>;
}

/**
 * Run by the minute sweeper: starts the delivery of every resolution no workflow started (receipts resolved by their
 * daily summary, or a worker lost between the verdict and the child's start).
 */
export function createWebhookSweeperActivities(deps: ActivityDeps): WebhookSweeperActivities {
  return {
    async startUnnotifiedResolutions() {
      const pending = await findUnnotifiedResolutions(deps.db, WEBHOOK_EVENT, SWEEP_GRACE_SECONDS);
      for (const { document_id, account_id } of pending) {
        await startWebhookDeliveryWorkflow(
          deps.temporal,
          deps.config.temporal.taskQueue,
          document_id,
          taskPriority(deps.config.temporal, 'interactive', account_id),
        );
        await markResolutionNotified(deps.db, document_id, WEBHOOK_EVENT);
      }
      if (pending.length)
        logger.info(
          { count: pending.length },
          'sweeper started webhook deliveries of resolutions no workflow notified',
        );
      return pending.length;
    },
  };
}
