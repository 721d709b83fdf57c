import { expect } from 'chai';
import { verifySignature } from '../../examples/webhook-receiver';
import { createWebhookActivities } from '../../activities/webhooks';
import { secretBoxFrom } from '../../core/config';
import { findDocument, recordOutcome } from '../../db/documents';
import { toApiDocument } from '../../db/document-presentation';
import { beginResolutionNotice, findDelivery, listAttempts, openOriginalDelivery } from '../../db/webhooks';
import { findCompanyById } from '../../db/companies';
import type { Db } from '../../db/knex';
import { getTestDb, testConfig } from '../support/services';
import {
  companyWithWebhook,
  localTlsCertificate,
  resolvedDocument,
  startReceiver,
  type Receiver,
  type Script,
  type TlsFiles,
} from './support';

/**
 * One attempt at a time, with the real activities, real PostgreSQL and real https receivers on 127.0.0.1: what is
 * sent (headers, signature, body), what counts as a failure, and what each attempt records. The workflow's schedule
 * of attempts is covered in workflow.test.ts.
 */
describe('webhook attempts (activities against real receivers)', function () {
  this.timeout(30_000);
  let db: Db;
  let tls: TlsFiles;
  const receivers: Receiver[] = [];
  const config = testConfig();
  const secrets = secretBoxFrom(config);

  before(async () => {
    db = await getTestDb();
    tls = localTlsCertificate();
  });
  after(async () => Promise.all(receivers.map((r) => r.close())));

  const receiver = async (script?: Script) => {
    const r = await startReceiver(tls, script);
    receivers.push(r);
    return r;
  };
  const activities = (overrides: Partial<typeof config> = {}) =>
    createWebhookActivities({
      config: { ...config, webhookAllowPrivate: true, webhookCaFile: tls.certFile, ...overrides },
      db,
      secrets,
    });

  /** A company whose webhook points at `url`, one resolved document, and its opened delivery. */
  async function delivery(url: string | null) {
    const { company, secret } = await companyWithWebhook(db, secrets, url ?? 'https://127.0.0.1:9/unused');
    const doc = await resolvedDocument(db, company);
    const opened = (await activities().openWebhookDelivery(doc.id))!;
    if (url === null)
      await db('companies').where({ id: company.id }).update({ webhook_url: null, webhook_secret_sealed: null });
    return { company, secret, doc, deliveryId: opened.deliveryId };
  }

  it('begins a notice in one statement: the event is marked taken, the document comes without XML or CDR, with its company', async () => {
    const { company } = await companyWithWebhook(db, secrets, 'https://127.0.0.1:9/hook');
    const doc = await resolvedDocument(db, company);
    const notice = await beginResolutionNotice(db, doc.id, 'cpe.resolved');
    expect(notice!.doc).to.include({ id: doc.id, status: 'accepted', has_cdr: false });
    expect(notice!.doc).to.not.have.any.keys('xml', 'cdr_zip');
    expect(notice!.company).to.deep.equal(await findCompanyById(db, company.id));
    const event = await db('document_events').where({ document_id: doc.id, event: 'cpe.resolved' }).first();
    expect(event.webhook_started_at).to.be.an.instanceOf(Date);
    // Begun again (a rerun), the mark stays the first one.
    await beginResolutionNotice(db, doc.id, 'cpe.resolved');
    expect((await db('document_events').where({ id: event.id }).first()).webhook_started_at).to.deep.equal(
      event.webhook_started_at,
    );
    expect(await beginResolutionNotice(db, '00000000-0000-4000-8000-000000000000', 'cpe.resolved')).to.equal(null);
  });

  it('opens one original delivery per document and event, however many open it at once', async () => {
    const { company } = await companyWithWebhook(db, secrets, 'https://127.0.0.1:9/hook');
    const doc = await resolvedDocument(db, company);
    const opened = await Promise.all(Array.from({ length: 8 }, () => openOriginalDelivery(db, doc, 'cpe.resolved')));
    expect(new Set(opened.map((d) => d.id)).size).to.equal(1);
    expect(opened[0]).to.include({
      document_id: doc.id,
      company_id: company.id,
      status: 'pending',
      attempts: 0,
      redelivery_of: null,
    });
    expect(opened[0].created_at).to.be.an.instanceOf(Date);
    expect(await db('webhook_deliveries').where({ document_id: doc.id })).to.have.length(1);

    // The row of a transaction still inserting it: the opening waits for it and reads it once committed (its own
    // statement's snapshot predates that row).
    const other = await resolvedDocument(db, company, 2);
    const trx = await db.transaction();
    const [held] = await trx('webhook_deliveries')
      .insert({ company_id: company.id, document_id: other.id, event: 'cpe.resolved' })
      .returning('id');
    const waiting = openOriginalDelivery(db, other, 'cpe.resolved');
    await new Promise((r) => setTimeout(r, 200));
    await trx.commit();
    expect((await waiting).id).to.equal(held.id);
  });

  it('opens a delivery and makes attempt 1 in one call when asked (the document workflow), once even when run again', async () => {
    const r = await receiver();
    const { company } = await companyWithWebhook(db, secrets, r.url);
    const doc = await resolvedDocument(db, company);
    const opened = await activities().openWebhookDelivery(doc.id, { attemptFirst: true });
    expect(opened).to.deep.include({ status: 'pending', attempts: 0 });
    expect(opened!.first).to.deep.equal({ status: 'delivered', attempts: 1, httpStatus: 200, error: null });
    expect(r.requests).to.have.length(1);
    expect(r.requests[0].headers).to.include({ 'x-entrega': opened!.deliveryId });
    // A rerun (its workflow task lost after the attempt) gets the delivery as it stands and POSTs nothing more.
    const again = await activities().openWebhookDelivery(doc.id, { attemptFirst: true });
    expect(again).to.deep.include({ deliveryId: opened!.deliveryId, status: 'delivered', attempts: 1 });
    expect(again!.first).to.include({ status: 'delivered', attempts: 1 });
    expect(r.requests).to.have.length(1);
    const stored = await db('webhook_attempts').where({ delivery_id: opened!.deliveryId });
    expect(stored).to.have.length(1);
  });

  it('POSTs the signed notice: headers, X-Firma verifiable by the example receiver, document equal to the API one', async () => {
    const r = await receiver();
    const { secret, doc, deliveryId } = await delivery(r.url);
    const outcome = await activities().attemptWebhookDelivery(deliveryId, 1);
    expect(outcome).to.deep.equal({ status: 'delivered', attempts: 1, httpStatus: 200, error: null });

    expect(r.requests).to.have.length(1);
    const [request] = r.requests;
    expect(request.headers).to.include({
      'content-type': 'application/json',
      'x-evento': 'cpe.resuelto',
      'x-entrega': deliveryId,
    });
    expect(verifySignature(secret, Buffer.from(request.body), request.headers['x-firma'])).to.equal(true);
    expect(
      verifySignature(
        'another secret of 48 characters..................',
        Buffer.from(request.body),
        request.headers['x-firma'],
      ),
    ).to.equal(false);
    const body = JSON.parse(request.body);
    expect(Object.keys(body)).to.deep.equal(['event', 'sent_at', 'document']);
    expect(body.event).to.equal('cpe.resolved');
    expect(body.sent_at).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-05:00$/);
    expect(Math.abs(Date.parse(body.sent_at) - request.at)).to.be.below(5_000);
    expect(body.document).to.deep.equal(JSON.parse(JSON.stringify(toApiDocument((await findDocument(db, doc.id))!))));
    expect(body.document).to.include({ external_id: doc.id, status: 'accepted', resolved: true });

    const [attempt] = await listAttempts(db, deliveryId);
    expect(attempt).to.include({ number: 1, url: r.url, http_status: 200, error: null, delivered: true });
    expect(attempt.latency_ms).to.be.a('number').within(0, 5_000);
    expect(await findDelivery(db, deliveryId)).to.include({ status: 'delivered', attempts: 1, next_attempt_at: null });
  });

  it('a non-2xx answer is a failed attempt with its status; the next is due 30 s later; the fifth failure ends it', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const { deliveryId } = await delivery(r.url);
    const before = Date.now();
    const first = await activities().attemptWebhookDelivery(deliveryId, 1);
    expect(first).to.deep.equal({ status: 'pending', attempts: 1, httpStatus: 503, error: 'HTTP 503' });
    const row = (await findDelivery(db, deliveryId))!;
    expect(row.next_attempt_at!.getTime() - before).to.be.within(29_000, 35_000);
    for (const n of [2, 3, 4])
      expect((await activities().attemptWebhookDelivery(deliveryId, n)).status).to.equal('pending');
    expect(await activities().attemptWebhookDelivery(deliveryId, 5)).to.include({ status: 'failed', attempts: 5 });
    const attempts = await listAttempts(db, deliveryId);
    expect(attempts.map((a) => [a.number, a.http_status, a.delivered])).to.deep.equal(
      [1, 2, 3, 4, 5].map((n) => [n, 503, false]),
    );
    expect(new Set(r.requests.map((q) => q.headers['x-entrega']))).to.deep.equal(new Set([deliveryId]));
  });

  it('a receiver slower than the timeout is a failure (timeout injected: 300 ms instead of 10 s)', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 2_000 }));
    const { deliveryId } = await delivery(r.url);
    const outcome = await activities({ webhookTimeoutMs: 300 }).attemptWebhookDelivery(deliveryId, 1);
    expect(outcome).to.deep.equal({
      status: 'pending',
      attempts: 1,
      httpStatus: null,
      error: 'no answer within 300 ms',
    });
    const [attempt] = await listAttempts(db, deliveryId);
    expect(attempt.latency_ms).to.be.within(250, 1_500);
  });

  it('redirects are not followed: a 302 is a failure and its target is never called', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, location: target.url }));
    const { deliveryId } = await delivery(r.url);
    const outcome = await activities().attemptWebhookDelivery(deliveryId, 1);
    expect(outcome).to.include({ status: 'pending', httpStatus: 302, error: 'HTTP 302 (redirects are not followed)' });
    expect(target.requests).to.have.length(0);
  });

  it('a private target is refused at delivery time when private addresses are not allowed; nothing is sent', async () => {
    const r = await receiver();
    const { deliveryId } = await delivery(r.url);
    const outcome = await activities({ webhookAllowPrivate: false }).attemptWebhookDelivery(deliveryId, 1);
    expect(outcome.status).to.equal('pending');
    expect(outcome.error).to.match(/^target refused: the URL must point to a public address/);
    expect(r.requests).to.have.length(0);
    expect((await listAttempts(db, deliveryId))[0]).to.include({
      http_status: null,
      latency_ms: null,
      delivered: false,
    });
  });

  it('an IPv6 spelling of a loopback IPv4 (::/96, ::ffff:0:0/96, 64:ff9b::/96) is refused at delivery time too', async () => {
    const r = await receiver();
    for (const host of ['[::127.0.0.1]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]', '2130706433']) {
      const { deliveryId } = await delivery(r.url.replace('127.0.0.1', host));
      const outcome = await activities({ webhookAllowPrivate: false }).attemptWebhookDelivery(deliveryId, 1);
      expect(outcome.error, host).to.match(/^target refused: the URL must point to a public address/);
    }
    expect(r.requests).to.have.length(0);
  });

  it('a disabled webhook cancels the delivery before its next attempt; nothing is sent', async () => {
    const { deliveryId } = await delivery(null);
    const outcome = await activities().attemptWebhookDelivery(deliveryId, 1);
    expect(outcome).to.deep.equal({
      status: 'cancelled',
      attempts: 0,
      httpStatus: null,
      error: 'the webhook was disabled before this attempt',
    });
    expect(await listAttempts(db, deliveryId)).to.have.length(0);
  });

  it('a changed URL and secret apply from the next attempt; an attempt run twice is sent and recorded once', async () => {
    const old = await receiver(() => ({ status: 500 }));
    const next = await receiver();
    const { company, deliveryId } = await delivery(old.url);
    await activities().attemptWebhookDelivery(deliveryId, 1);
    const newSecret = 'f'.repeat(48);
    await db('companies')
      .where({ id: company.id })
      .update({ webhook_url: next.url, webhook_secret_sealed: secrets.seal(newSecret) });
    expect(await activities().attemptWebhookDelivery(deliveryId, 2)).to.include({ status: 'delivered', attempts: 2 });
    expect(await activities().attemptWebhookDelivery(deliveryId, 2)).to.include({ status: 'delivered', attempts: 2 });
    expect(old.requests).to.have.length(1);
    expect(next.requests).to.have.length(1);
    expect(
      verifySignature(newSecret, Buffer.from(next.requests[0].body), next.requests[0].headers['x-firma']),
    ).to.equal(true);
    expect((await listAttempts(db, deliveryId)).map((a) => a.url)).to.deep.equal([old.url, next.url]);
  });

  it('opens one original delivery per document, and none for a company without webhook; either way the resolution is marked handled', async () => {
    const { doc, deliveryId } = await delivery('https://127.0.0.1:9/x');
    expect((await activities().openWebhookDelivery(doc.id))!.deliveryId).to.equal(deliveryId);
    const { company } = await companyWithWebhook(db, secrets, null);
    const plain = await resolvedDocument(db, company);
    expect(await activities().openWebhookDelivery(plain.id)).to.equal(null);
    const events = await db('document_events').whereIn('document_id', [doc.id, plain.id]);
    expect(events.map((e) => e.webhook_started_at))
      .to.have.length(2)
      .and.satisfy((dates: unknown[]) => dates.every((d) => d instanceof Date));
  });

  it('resolving decides in the same statement: no webhook, the event is stored handled (no delivery to start); a webhook, it waits for one', async () => {
    const plain = await resolvedDocument(db, (await companyWithWebhook(db, secrets, null)).company, 2);
    expect(plain.resolution_notice).to.equal('no_webhook');
    const hooked = await resolvedDocument(
      db,
      (await companyWithWebhook(db, secrets, 'https://127.0.0.1:9/x')).company,
      2,
    );
    expect(hooked.resolution_notice).to.equal('webhook_due');
    const events = await db('document_events').whereIn('document_id', [plain.id, hooked.id]);
    expect(events.find((e) => e.document_id === plain.id).webhook_started_at).to.be.an.instanceOf(Date);
    expect(events.find((e) => e.document_id === hooked.id).webhook_started_at).to.equal(null);
    // A second report of the same resolution changes nothing and cannot tell: the workflow then starts the delivery.
    const again = await recordOutcome(db, plain.id, { status: 'rejected', result: null });
    expect(again).to.include({ status: 'accepted', resolution_notice: 'not_resolved_here' });
  });
});
