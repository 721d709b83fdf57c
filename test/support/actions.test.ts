import { expect } from 'chai';
import { startIssuingStack, newCompany, payload, issue, until, type IssuingStack } from '../issuing/support';
import {
  companyWithWebhook,
  eventually,
  localTlsCertificate,
  resolvedDocument,
  startReceiver,
  type TlsFiles,
} from '../webhooks/support';
import { findCompanyById } from '../../db/companies';
import { findDocument } from '../../db/documents';
import { listSupportActions } from '../../db/support-actions';
import { findDelivery, markResolutionNotified, openOriginalDelivery } from '../../db/webhooks';
import { redeliveryWorkflowId } from '../../workflows/webhook-types';
import {
  lifecycleDeps,
  recheck,
  redeliver,
  redeliverDocument,
  resend,
  send,
  type LifecycleDeps,
} from '../../support/actions';

/**
 * The lifecycle's actions as the API, support staff and the console call them: against the real API, worker,
 * PostgreSQL, Temporal and the simulator, each answers done or refused (never throws for a refusal), a dry run
 * changes nothing, and an actor's action is audited.
 */
describe('lifecycle: support actions answer done or refused', function () {
  this.timeout(120_000);
  let s: IssuingStack;
  let deps: LifecycleDeps;
  let tls: TlsFiles;

  before(async function () {
    this.timeout(180_000);
    tls = localTlsCertificate();
    s = await startIssuingStack({ webhookAllowPrivate: true, webhookCaFile: tls.certFile });
    deps = lifecycleDeps(s.stack);
  });
  after(async () => s?.stop());

  it('send: a dry run decides only; the actor’s send queues a manual-mode document, which is then delivered; a second send is refused', async () => {
    const manual = await newCompany(s.stack, { settings: { sending_mode: 'manual' } });
    const issued = await issue(s.stack, manual.token, payload('invoice-basic.json', manual.ruc));
    const waiting = (await findDocument(s.stack.db, issued.body.external_id))!;
    expect(waiting.status).to.equal('to_send');

    expect(await send(deps, waiting, { actor: 'carol', dryRun: true })).to.deep.include({
      outcome: 'done',
      detail: 'would send',
    });
    expect((await findDocument(s.stack.db, waiting.id))!.status).to.equal('to_send');
    expect(await listSupportActions(s.stack.db, waiting.id)).to.deep.equal([]);

    // Before the send: nothing to recheck or resend yet, with the reason each surface shows.
    expect(await recheck(deps, waiting, { dryRun: true })).to.deep.include({
      outcome: 'refused',
      code: 'conflict',
      reason: 'not sent yet (waiting for POST /v1/cpe/{id}/send (company in manual sending mode))',
    });
    expect(await resend(deps, waiting, { mayHaveArrived: true })).to.deep.include({
      outcome: 'refused',
      code: 'conflict',
      reason: `Document ${waiting.filename} has not been sent yet: use POST /v1/cpe/${waiting.id}/send`,
    });

    const sent = await send(deps, waiting, { actor: 'carol' });
    expect(sent).to.deep.include({ outcome: 'done', detail: `Document ${waiting.filename} queued for sending` });
    const accepted = await until(s.stack, waiting.id, ['accepted']);

    expect(await send(deps, accepted, { actor: 'carol' })).to.deep.include({
      outcome: 'refused',
      code: 'conflict',
      reason: `Document ${waiting.filename} is accepted; only a document waiting in manual mode (to_send) can be sent`,
    });
    const audit = await listSupportActions(s.stack.db, waiting.id);
    expect(audit.map((a) => [a.operator, a.action, a.result])).to.deep.equal([
      ['carol', 'send', 'done'],
      ['carol', 'send', 'refused'],
    ]);
    expect(audit[1].detail).to.match(/is accepted; only a document waiting/);
  });

  it('recheck and resend of a resolved document are refused, audited for an actor and not for the API', async () => {
    const company = await newCompany(s.stack);
    const issued = await issue(s.stack, company.token, payload('invoice-basic.json', company.ruc));
    const accepted = await until(s.stack, issued.body.external_id, ['accepted']);

    expect(await recheck(deps, accepted, { actor: 'dave' })).to.deep.include({
      outcome: 'refused',
      code: 'conflict',
      reason: 'already accepted',
    });
    expect(await resend(deps, accepted, { actor: 'dave' })).to.deep.include({
      outcome: 'refused',
      code: 'conflict',
      reason: `Document ${accepted.filename} is already accepted; a resolved document is not sent again`,
    });
    // The API's call (no actor) leaves no audit record.
    expect((await resend(deps, accepted, { mayHaveArrived: true })).outcome).to.equal('refused');
    const audit = await listSupportActions(s.stack.db, accepted.id);
    expect(audit.map((a) => [a.operator, a.action, a.result])).to.deep.equal([
      ['dave', 'recheck', 'refused'],
      ['dave', 'resend', 'refused'],
    ]);
  });

  it('redeliver: refused without a webhook (invalid) or while attempts are pending (conflict); done makes a new delivery that reaches the receiver', async () => {
    const receiver = await startReceiver(tls);
    try {
      const { company: created } = await companyWithWebhook(s.stack.db, s.stack.secrets, receiver.url);
      const company = (await findCompanyById(s.stack.db, created.id))!;
      const doc = await resolvedDocument(s.stack.db, company, 11);
      await markResolutionNotified(s.stack.db, doc.id, 'cpe.resolved');
      const original = await openOriginalDelivery(s.stack.db, doc, 'cpe.resolved');

      const pending = await redeliver(deps, company, original, { actor: 'erin' });
      expect(pending).to.include({ outcome: 'refused', code: 'conflict' });
      expect(pending.outcome === 'refused' && pending.reason).to.match(
        new RegExp(`^Delivery ${original.id} still has attempts pending`),
      );

      await s.stack
        .db('webhook_deliveries')
        .where({ id: original.id })
        .update({ status: 'failed', attempts: 5, completed_at: s.stack.db.fn.now() });
      const failed = (await findDelivery(s.stack.db, original.id))!;
      expect(await redeliver(deps, { webhook_url: null, account_id: company.account_id }, failed)).to.deep.include({
        outcome: 'refused',
        code: 'invalid',
        reason: 'No webhook is configured: PATCH /v1/companies/{ruc}/webhook first',
      });
      expect(await redeliverDocument(deps, doc, { dryRun: true })).to.deep.include({
        outcome: 'done',
        detail: 'would redeliver',
      });

      const result = await redeliverDocument(deps, doc, { actor: 'erin' });
      if (result.outcome !== 'done') throw new Error(`refused: ${result.reason}`);
      const redelivery = result.data!.delivery;
      expect(redelivery).to.include({ redelivery_of: original.id, status: 'pending' });
      expect(result.detail).to.equal(`new delivery ${redelivery.id}`);
      const received = await eventually(() => receiver.requests[0]);
      expect(received.headers['x-entrega']).to.equal(redelivery.id);
      // Asked for by hand: ahead of interactive and batch work, in the account's turn (workflows/priority-types.ts).
      const started = await s.stack.temporal.workflow.getHandle(redeliveryWorkflowId(redelivery.id)).describe();
      expect(started.priority).to.deep.include({ priorityKey: 2, fairnessKey: company.account_id });

      const audit = await listSupportActions(s.stack.db, doc.id);
      expect(audit.map((a) => [a.operator, a.action, a.result, a.detail])).to.deep.equal([
        ['erin', 'redeliver', 'refused', pending.outcome === 'refused' ? pending.reason : null],
        ['erin', 'redeliver', 'done', `new delivery ${redelivery.id}`],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('redeliver of a document that never had a delivery is refused, naming why', async () => {
    const { company } = await companyWithWebhook(s.stack.db, s.stack.secrets, null);
    const doc = await resolvedDocument(s.stack.db, company, 12);
    expect(await redeliverDocument(deps, doc, { actor: 'erin' })).to.deep.include({
      outcome: 'refused',
      code: 'conflict',
      reason: 'no webhook delivery (no webhook was configured when it resolved)',
    });
    expect((await listSupportActions(s.stack.db, doc.id)).map((a) => a.result)).to.deep.equal(['refused']);
  });
});
