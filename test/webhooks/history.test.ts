import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { startIssuingStack, type IssuingStack } from '../issuing/support';
import {
  companyWithWebhook,
  eventually,
  localTlsCertificate,
  resolvedDocument,
  startReceiver,
  type TlsFiles,
} from './support';
import type { Db } from '../../db/knex';
import { findCompanyById, type CompanyRow } from '../../db/companies';
import { findDocument } from '../../db/documents';
import { listDocuments } from '../../db/document-lists';
import {
  insertRedelivery,
  markResolutionNotified,
  openOriginalDelivery,
  pruneSettledDeliveries,
  type DeliveryRow,
} from '../../db/webhooks';
import { createWebhookHistoryActivities } from '../../activities/webhook-history';
import { documentTimeline } from '../../support/timeline';
import { english, spanish } from '../../lifecycle/messages';
import { redeliverDocument, type LifecycleDeps } from '../../support/actions';
import {
  DELIVERY_TRANSITIONS,
  OPENED_DELIVERY,
  SETTLED_DELIVERY_STATUSES,
  type DeliveryStatus,
} from '../../lifecycle/webhooks';
import { webhookHistoryPruned } from '../../core/metrics';
import { loadConfig } from '../../core/config';
import { testDatabaseUrl, testTemporalAddress } from '../support/services';
import { documentSweeperWorkflow } from '../../workflows/sweeper';

/**
 * Retention of settled webhook delivery history (CHASQUI_WEBHOOK_HISTORY_DAYS, docs/webhooks.md "History"), against
 * real PostgreSQL and Temporal: ages are set on the rows (no waiting), the sweep is the sweeper's own activity.
 */
describe('webhooks: settled delivery history older than CHASQUI_WEBHOOK_HISTORY_DAYS is pruned', function () {
  this.timeout(120_000);
  let s: IssuingStack;
  let db: Db;
  let tls: TlsFiles;
  let number = 0;

  before(async function () {
    this.timeout(180_000);
    tls = localTlsCertificate();
    // The stack's own sweeper keeps history for good: only the sweeps the tests run prune.
    s = await startIssuingStack({ webhookAllowPrivate: true, webhookCaFile: tls.certFile, webhookHistoryDays: null });
    db = s.stack.db;
  });
  after(async () => s?.stop());

  /** `chasqui support …` as support staff run it: its own process, reading CHASQUI_WEBHOOK_HISTORY_DAYS=90. */
  async function support(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = {
      ...process.env,
      DATABASE_URL: await testDatabaseUrl(),
      TEMPORAL_ADDRESS: await testTemporalAddress(),
      TEMPORAL_TASK_QUEUE: s.stack.config.temporal.taskQueue,
      CHASQUI_WEBHOOK_HISTORY_DAYS: '90',
      LOG_LEVEL: 'silent',
    };
    const chasqui = path.resolve(__dirname, '../../bin/chasqui');
    return new Promise((resolve) =>
      execFile(process.execPath, [chasqui, 'support', ...args], { env, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
  }

  /** A document resolved `daysAgo` days ago (its cpe.resolved notice handled). */
  async function oldDocument(company: CompanyRow, daysAgo: number) {
    const doc = await resolvedDocument(db, company, ++number);
    await markResolutionNotified(db, doc.id, 'cpe.resolved');
    await db('documents')
      .where({ id: doc.id })
      .update({ resolved_at: db.raw('now() - make_interval(days => ?)', [daysAgo]) });
    return (await findDocument(db, doc.id))!;
  }

  /** `delivery` made `status` by one attempt, ended `daysAgo` days ago (null: still pending, created 200 days ago). */
  async function settle(delivery: DeliveryRow, status: DeliveryStatus, daysAgo: number | null) {
    await db('webhook_attempts').insert({
      delivery_id: delivery.id,
      number: 1,
      url: 'https://receiver.example/hook',
      started_at: db.fn.now(),
      http_status: 500,
      latency_ms: 12,
      error: 'HTTP 500',
      delivered: status === DELIVERY_TRANSITIONS.answered,
    });
    await db('webhook_deliveries')
      .where({ id: delivery.id })
      .update({
        status,
        attempts: 1,
        completed_at: daysAgo === null ? null : db.raw('now() - make_interval(days => ?)', [daysAgo]),
        created_at: db.raw('now() - make_interval(days => ?, hours => 1)', [daysAgo ?? 200]),
      });
  }

  async function deliveryOf(company: CompanyRow, status: DeliveryStatus, daysAgo: number | null) {
    const doc = await oldDocument(company, (daysAgo ?? 0) + 1);
    const delivery = await openOriginalDelivery(db, doc, 'cpe.resolved');
    await settle(delivery, status, daysAgo);
    return { doc, delivery };
  }

  const remaining = async (ids: string[]) => (await db('webhook_deliveries').whereIn('id', ids).pluck('id')).sort();
  const sweep = (days: number | null, batch?: number) =>
    createWebhookHistoryActivities({ db, config: { ...s.stack.config, webhookHistoryDays: days } }, batch)
      .pruneWebhookHistory;

  it('deletes settled deliveries (and their attempts) older than the window; keeps recent, pending, and a notice with a pending redelivery; never the document', async () => {
    const { company } = await companyWithWebhook(db, s.stack.secrets, 'https://receiver.example/hook');
    const oldDelivered = await deliveryOf(company, DELIVERY_TRANSITIONS.answered, 120);
    const oldFailed = await deliveryOf(company, DELIVERY_TRANSITIONS.exhausted, 95);
    const oldCancelled = await deliveryOf(company, DELIVERY_TRANSITIONS.disabled, 91);
    const recent = await deliveryOf(company, DELIVERY_TRANSITIONS.exhausted, 89);
    const pending = await deliveryOf(company, OPENED_DELIVERY, null);
    // An old failed original whose redelivery still has attempts: deleting the original would cascade to it.
    const repeated = await deliveryOf(company, DELIVERY_TRANSITIONS.exhausted, 200);
    const redelivery = await insertRedelivery(db, repeated.delivery);
    const all = [oldDelivered, oldFailed, oldCancelled, recent, pending, repeated].map((d) => d.delivery.id);
    const before = (await webhookHistoryPruned.get()).values[0]?.value ?? 0;

    expect(await sweep(90)()).to.equal(3);
    expect(await remaining([...all, redelivery.id])).to.deep.equal(
      [recent.delivery.id, pending.delivery.id, repeated.delivery.id, redelivery.id].sort(),
    );
    const gone = [oldDelivered, oldFailed, oldCancelled].map((d) => d.delivery.id);
    expect(await db('webhook_attempts').whereIn('delivery_id', gone).count({ n: '*' })).to.deep.equal([{ n: '0' }]);
    expect(await db('webhook_attempts').where({ delivery_id: recent.delivery.id }).count({ n: '*' })).to.deep.equal([
      { n: '1' },
    ]);
    expect((await webhookHistoryPruned.get()).values[0].value - before).to.equal(3);
    // The tax record stays whole.
    for (const { doc } of [oldDelivered, oldFailed, oldCancelled]) {
      expect(await findDocument(db, doc.id)).to.deep.equal(doc);
    }
    // Once the redelivery has ended long ago too, the notice goes whole (a second sweep finds nothing more).
    await settle(redelivery, DELIVERY_TRANSITIONS.answered, 150);
    expect(await sweep(90)()).to.be.at.least(1);
    expect(await remaining([repeated.delivery.id, redelivery.id])).to.deep.equal([]);
    expect(await sweep(90)()).to.equal(0);
    // Kept for good: nothing is deleted however old.
    const ancient = await deliveryOf(company, DELIVERY_TRANSITIONS.answered, 3000);
    expect(await sweep(null)()).to.equal(0);
    expect(await remaining([ancient.delivery.id])).to.deep.equal([ancient.delivery.id]);
    expect(await sweep(90)()).to.equal(1);
  });

  it('deletes in bounded batches, oldest first', async () => {
    const { company } = await companyWithWebhook(db, s.stack.secrets, 'https://receiver.example/hook');
    const made = [];
    for (const days of [300, 250, 200, 150, 100])
      made.push(await deliveryOf(company, DELIVERY_TRANSITIONS.answered, days));
    const ids = made.map((d) => d.delivery.id);
    const batch = sweep(90, 2);
    expect(await batch()).to.equal(2);
    expect(await remaining(ids)).to.deep.equal(ids.slice(2).sort());
    expect(await batch()).to.equal(2);
    expect(await remaining(ids)).to.deep.equal([ids[4]]);
    expect(await batch()).to.equal(1);
    expect(await batch()).to.equal(0);
  });

  it('the support timeline of a pruned document says its webhook history is not kept; a recent one without deliveries says nothing', async () => {
    const { company } = await companyWithWebhook(db, s.stack.secrets, 'https://receiver.example/hook');
    const pruned = await deliveryOf(company, DELIVERY_TRANSITIONS.answered, 100);
    await sweep(90)();
    const fresh = await oldDocument(company, 2);
    const [listedPruned, listedFresh] = await Promise.all(
      [pruned.doc.id, fresh.id].map(async (id) => (await listDocuments(db, { ids: [id], limit: 1 }))[0]),
    );
    const entry = (await documentTimeline(db, listedPruned, 90)).find((t) => t.event.code === 'event.delivery');
    expect(entry && english(entry.detail)).to.equal('webhook history older than 90 days is not kept');
    expect(entry && spanish(entry.detail)).to.equal('El historial del webhook de más de 90 días no se conserva.');
    expect(entry!.at.getTime()).to.equal(new Date(listedPruned.resolved_at!).getTime());
    expect((await documentTimeline(db, listedFresh, 90)).map((t) => t.event.code)).not.to.include('event.delivery');
    const find = await support('find', pruned.doc.id);
    expect(find.code, find.stderr).to.equal(0);
    expect(find.stdout).to.match(/webhook delivery\s+webhook history older than 90 days is not kept/);
    // History kept for good: nothing was pruned, nothing to say.
    expect((await documentTimeline(db, listedPruned, null)).map((t) => t.event.code)).not.to.include('event.delivery');
  });

  it('redeliver after pruning opens a new delivery that reaches the receiver', async () => {
    const receiver = await startReceiver(tls);
    try {
      const { company: created } = await companyWithWebhook(db, s.stack.secrets, receiver.url);
      const company = (await findCompanyById(db, created.id))!;
      const { doc, delivery } = await deliveryOf(company, DELIVERY_TRANSITIONS.exhausted, 100);
      await sweep(90)();
      expect(await remaining([delivery.id])).to.deep.equal([]);
      const deps: LifecycleDeps = {
        db,
        temporal: s.stack.temporal,
        taskQueue: s.stack.config.temporal.taskQueue,
        fairness: true,
        webhookHistoryDays: 90,
      };
      // Without the window it reads as never delivered, as before.
      expect(await redeliverDocument({ ...deps, webhookHistoryDays: null }, doc)).to.include({ outcome: 'refused' });

      const preview = await support('redeliver', doc.id, '--dry-run');
      expect(preview.code, preview.stderr).to.equal(0);
      expect(preview.stdout).to.match(/^redeliver: 1 document\(s\) to act on, 0 left alone\n/);
      expect(preview.stdout).to.match(/nothing was changed: 1 would\n$/);

      const result = await redeliverDocument(deps, doc, { actor: 'erin' });
      if (result.outcome !== 'done') throw new Error(`refused: ${result.reason}`);
      const fresh = result.data!.delivery;
      expect(fresh.id).not.to.equal(delivery.id);
      expect(fresh).to.include({ document_id: doc.id, status: OPENED_DELIVERY });
      const received = await eventually(() => receiver.requests[0]);
      expect(received.headers['x-entrega']).to.equal(fresh.id);
      expect(JSON.parse(received.body).document.external_id).to.equal(doc.id);
      await eventually(async () => {
        const row = await db('webhook_deliveries').where({ id: fresh.id }).first();
        return row.status === DELIVERY_TRANSITIONS.answered ? row : undefined;
      });
    } finally {
      await receiver.close();
    }
  });

  it('the minute sweeper runs the sweep after its starts (off the issuing path)', async () => {
    const handle = await s.stack.temporal.workflow.start(documentSweeperWorkflow, {
      taskQueue: s.stack.config.temporal.taskQueue,
      workflowId: `history-sweeper-${randomUUID()}`,
    });
    await handle.result();
    const scheduled = (await handle.fetchHistory()).events!.flatMap((e) =>
      e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name] : [],
    );
    expect(scheduled).to.deep.equal(['startUnstartedDocuments', 'startUnnotifiedResolutions', 'pruneWebhookHistory']);
  });

  it("the prune judges the window from a given now (bench:soak's phase after retention), the database's clock otherwise", async () => {
    const { company } = await companyWithWebhook(db, s.stack.secrets, 'https://receiver.example/hook');
    const { delivery } = await deliveryOf(company, DELIVERY_TRANSITIONS.answered, 30);
    const { rows } = await db.raw<{ rows: { at: Date }[] }>("select now() + interval '61 days' as at");
    expect(await pruneSettledDeliveries(db, SETTLED_DELIVERY_STATUSES, 90, 1000)).to.equal(0);
    expect(await remaining([delivery.id])).to.deep.equal([delivery.id]);
    expect(await pruneSettledDeliveries(db, SETTLED_DELIVERY_STATUSES, 90, 1000, rows[0].at)).to.be.at.least(1);
    expect(await remaining([delivery.id])).to.deep.equal([]);
  });

  it('CHASQUI_WEBHOOK_HISTORY_DAYS: 90 by default; 0 or forever keep history for good; anything else is refused', () => {
    const env = (value?: string) => ({ ...process.env, CHASQUI_WEBHOOK_HISTORY_DAYS: value });
    expect(loadConfig(env(undefined)).webhookHistoryDays).to.equal(90);
    expect(loadConfig(env('30')).webhookHistoryDays).to.equal(30);
    expect(loadConfig(env('0')).webhookHistoryDays).to.equal(null);
    expect(loadConfig(env('Forever')).webhookHistoryDays).to.equal(null);
    expect(() => loadConfig(env('-1'))).to.throw(/CHASQUI_WEBHOOK_HISTORY_DAYS must be a non-negative integer/);
    expect(() => loadConfig(env('3 months'))).to.throw(/CHASQUI_WEBHOOK_HISTORY_DAYS/);
  });
});
