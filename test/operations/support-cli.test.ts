import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { testDatabaseUrl, testTemporalAddress } from '../support/services';
import { findDocument, type DocumentRow } from '../../db/documents';
import { listSupportActions } from '../../db/support-actions';
import { markResolutionNotified, openOriginalDelivery } from '../../db/webhooks';
import {
  companyWithWebhook,
  eventually,
  localTlsCertificate,
  resolvedDocument,
  startReceiver,
  type TlsFiles,
} from '../webhooks/support';

const CHASQUI = path.resolve(__dirname, '../../bin/chasqui');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `chasqui support` as support staff run it: a separate process on the stack's PostgreSQL and Temporal (no `temporal`
 * binary), against documents the real API issued and the simulator (SUNAT) answered, hung on, and recovered from.
 */
describe('chasqui support (CLI processes against the real stack)', function () {
  this.timeout(120_000);
  let s: IssuingStack;
  let company: TestCompany;
  let env: NodeJS.ProcessEnv;
  let accepted: DocumentRow;
  let stuckDoc: DocumentRow;
  let tls: TlsFiles;

  function support(...args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(process.execPath, [CHASQUI, 'support', ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  before(async function () {
    this.timeout(180_000);
    tls = localTlsCertificate();
    s = await startIssuingStack({ webhookAllowPrivate: true, webhookCaFile: tls.certFile });
    env = {
      ...process.env,
      DATABASE_URL: await testDatabaseUrl(),
      TEMPORAL_ADDRESS: await testTemporalAddress(),
      TEMPORAL_TASK_QUEUE: s.stack.config.temporal.taskQueue,
      TEMPORAL_UI_URL: 'http://temporal-ui.example',
      LOG_LEVEL: 'silent',
    };
    company = await newCompany(s.stack);
    const res = await issue(s.stack, company.token, payload('invoice-basic.json', company.ruc));
    accepted = await until(s.stack, res.body.external_id, ['accepted']);
  });
  after(async () => s?.stop());

  it('find: by the number a customer quotes, with state, timeline and the Temporal UI link', async () => {
    const run = await support('find', `${company.ruc}-01-F001-${accepted.number}`);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(accepted.filename);
    expect(run.stdout).to.match(/status\s+accepted \(06\), resolved/);
    expect(run.stdout).to.match(/send attempt\s+answered 0 → accepted/);
    expect(run.stdout).to.match(/verdict\s+accepted/);
    expect(run.stdout).to.include(`http://temporal-ui.example/namespaces/default/workflows/cpe-${accepted.id}`);

    const json = JSON.parse((await support('find', `${accepted.filename}.zip`, '--json')).stdout);
    expect(json.document).to.include({
      external_id: accepted.id,
      status: 'accepted',
      company: company.row.business_name,
    });
    expect(json.timeline.map((t: { event: string }) => t.event)).to.deep.equal(['issued', 'send attempt', 'verdict']);

    const unknown = await support('find', '20123456786-01-F999-99999999');
    expect(unknown.code).to.equal(3);
    expect(unknown.stderr).to.match(/no document matches/);
  });

  it('stuck: finds the document whose send timed out (simulator hang), grouped as waiting for reconciliation', async () => {
    // SUNAT received and judged it; only the answer was lost (the case reconciliation exists for).
    s.sim.addRule({ operation: 'sendBill', ruc: company.ruc, fault: { kind: 'hang', afterReceipt: true }, times: 1 });
    const res = await issue(s.stack, company.token, payload('invoice-basic.json', company.ruc));
    stuckDoc = await until(s.stack, res.body.external_id, ['sent']);
    expect(stuckDoc.result).to.include({ origin: 'timeout' });

    const run = await support('stuck', '--older-than', '0s', '--ruc', company.ruc, '--json');
    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout);
    const timeout = report.groups.find((g: { reason: string }) => g.reason === 'timeout');
    expect(timeout.documents.map((d: { external_id: string }) => d.external_id)).to.deep.equal([stuckDoc.id]);

    const human = await support('stuck', '--older-than', '0s', '--ruc', company.ruc);
    expect(human.stdout).to.match(/timeout \(1\): timed out at the authority/);
    // Nothing stuck is an answer (exit 0); a script that alerts on stuck documents asks for --fail-if-any.
    const none = await support('stuck', '--older-than', '1d', '--ruc', company.ruc);
    expect(none.code).to.equal(0);
    expect(none.stderr).to.match(/nothing unresolved older than 1d/);
    expect((await support('stuck', '--older-than', '1d', '--ruc', company.ruc, '--fail-if-any')).code).to.equal(0);
    expect((await support('stuck', '--older-than', '0s', '--ruc', company.ruc, '--fail-if-any')).code).to.equal(1);
    // A bulk action whose selection is empty has nothing to do: exit 0 too.
    const empty = await support('recheck', '--older-than', '1d', '--ruc', company.ruc, '--yes');
    expect(empty.code, empty.stderr).to.equal(0);
    expect(empty.stderr).to.match(/nothing to recheck: no document matches the selection/);
    expect((await support('stuck', '--older-than', 'soon')).code).to.equal(2);
  });

  it('resend --dry-run changes nothing (and a timed-out document is not resent blindly); without --yes off a terminal nothing happens', async () => {
    const sendsBefore = s.sim.log().filter((e) => e.operation === 'sendBill' && e.ruc === company.ruc).length;
    const dry = await support('resend', stuckDoc.id, '--dry-run', '--json');
    expect(dry.code, dry.stderr).to.equal(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan).to.include({ action: 'resend', dry_run: true });
    expect(plan.items[0]).to.include({ external_id: stuckDoc.id, outcome: 'skipped' });
    expect(plan.items[0].detail).to.match(/may have reached the authority \(timeout\): recheck/);

    const recheckPlan = JSON.parse(
      (await support('recheck', '--older-than', '0s', '--ruc', company.ruc, '--dry-run', '--json')).stdout,
    );
    expect(
      recheckPlan.items.map((i: { external_id: string; outcome: string }) => [i.external_id, i.outcome]),
    ).to.deep.equal([[stuckDoc.id, 'would']]);

    const unconfirmed = await support('recheck', stuckDoc.id);
    expect(unconfirmed.code).to.equal(2);
    expect(unconfirmed.stderr).to.match(/add --yes/);

    const after = (await findDocument(s.stack.db, stuckDoc.id))!;
    expect({ ...after, updated_at: null }).to.deep.equal({ ...stuckDoc, updated_at: null });
    expect(after.updated_at.getTime()).to.equal(stuckDoc.updated_at.getTime());
    expect(await listSupportActions(s.stack.db, stuckDoc.id)).to.deep.equal([]);
    expect(s.sim.log().filter((e) => e.operation === 'sendBill' && e.ruc === company.ruc)).to.have.length(sendsBefore);
  });

  it('recheck, once the simulator recovered, settles it; the action is audited and shown in find', async () => {
    s.sim.clearRules();
    const run = await support('recheck', stuckDoc.id, '--yes', '--operator', 'alice', '--json');
    expect(run.code, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout).items[0]).to.include({ outcome: 'done' });
    const sends = () => s.sim.log().filter((e) => e.operation === 'sendBill' && e.ruc === company.ruc).length;
    const sendsBefore = sends();
    // The state query finds SUNAT's verdict: accepted at once, without sending again.
    await until(s.stack, stuckDoc.id, ['accepted']);
    expect(s.sim.log().some((e) => e.operation === 'getStatusCdr' && e.ruc === company.ruc)).to.equal(true);
    expect(sends()).to.equal(sendsBefore);

    // Safe to run twice: the resolved document is left alone.
    const again = await support('recheck', stuckDoc.id, '--yes', '--operator', 'alice');
    expect(again.code).to.equal(0);
    expect(again.stdout).to.match(/nothing to recheck|1 skipped/);

    const find = await support('find', stuckDoc.id);
    expect(find.stdout).to.match(/support recheck\s+by alice: done — state query requested/);
    expect(find.stdout).to.match(/state query\s+/);
    expect(find.stdout).to.match(/verdict\s+accepted/);
    const audit = await listSupportActions(s.stack.db, stuckDoc.id);
    expect(audit[0]).to.include({ operator: 'alice', action: 'recheck', result: 'done' });
  });

  it('resend: a document SUNAT never received (its send hung before receipt) is found queued by recheck, then sent again', async () => {
    s.sim.addRule({ operation: 'sendBill', ruc: company.ruc, fault: { kind: 'hang' }, times: 1 });
    const res = await issue(s.stack, company.token, payload('invoice-basic.json', company.ruc));
    const lost = await until(s.stack, res.body.external_id, ['sent']);
    s.sim.clearRules();
    expect((await support('recheck', lost.id, '--yes', '--operator', 'alice')).code).to.equal(0);
    // SUNAT has no record of it: sending it again is safe, and support does so on request.
    await until(s.stack, lost.id, ['queued']);
    const resend = await support('resend', lost.id, '--yes', '--operator', 'alice', '--rate', '2/s');
    expect(resend.code, resend.stderr).to.equal(0);
    expect(resend.stdout).to.match(/resend finished: 1 done/);
    // The progress line has a rate and an ETA from the first document on (the --rate limit until there is an interval).
    expect(resend.stderr).to.match(/\] 1\/1 +done 1 +(2\.0|[01]\.\d)\/s +ETA 0s/);
    await until(s.stack, lost.id, ['accepted']);
    expect((await listSupportActions(s.stack.db, lost.id)).map((a) => a.action).sort()).to.deep.equal([
      'recheck',
      'resend',
    ]);
  });

  it('redeliver: after the customer endpoint is back, failed notices go again as new deliveries', async () => {
    const receiver = await startReceiver(tls);
    try {
      const { company: hooked } = await companyWithWebhook(s.stack.db, s.stack.secrets, receiver.url);
      // As the delivery workflow leaves a notice after its 5 attempts failed.
      const doc = await resolvedDocument(s.stack.db, hooked, 7);
      await markResolutionNotified(s.stack.db, doc.id, 'cpe.resolved');
      const original = await openOriginalDelivery(s.stack.db, doc, 'cpe.resolved');
      await s.stack.db('webhook_deliveries').where({ id: original.id }).update({
        status: 'failed',
        attempts: 5,
        completed_at: s.stack.db.fn.now(),
        last_error: 'connect ECONNREFUSED',
      });

      const dry = JSON.parse(
        (await support('redeliver', '--ruc', hooked.ruc, '--failed-since', '1h', '--dry-run', '--json')).stdout,
      );
      expect(dry.items.map((i: { external_id: string; outcome: string }) => [i.external_id, i.outcome])).to.deep.equal([
        [doc.id, 'would'],
      ]);
      expect(receiver.requests).to.have.length(0);

      const run = await support('redeliver', '--ruc', hooked.ruc, '--failed-since', '1h', '--yes', '--operator', 'bob');
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.match(/redeliver finished: 1 done/);
      const received = await eventually(() => receiver.requests[0]);
      expect(received.headers['x-entrega']).to.be.a('string').and.not.equal(original.id);
      const find = await support('find', doc.id);
      expect(find.stdout).to.match(/webhook redelivery/);
      expect(find.stdout).to.match(/support redeliver\s+by bob: done — new delivery/);
    } finally {
      await receiver.close();
    }
  });

  it('prints help with examples and exit codes, without a database', async () => {
    // Three processes that open nothing: side by side rather than one after the other.
    const [help, sub, unknown] = await Promise.all([
      support('--help'),
      support('resend', '--help'),
      support('explode'),
    ]);
    expect(help.code).to.equal(0);
    for (const word of ['find', 'stuck', 'recheck', 'resend', 'redeliver', 'Exit codes'])
      expect(help.stdout).to.include(word);
    expect(sub.stdout).to.match(/--dry-run/);
    expect(unknown.code).to.equal(2);
  });
});
