import { expect } from 'chai';
import {
  accountBalances,
  call,
  documentCount,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from './support';
import { createCompany, newAccountToken } from '../companies/helpers';
import { findCompany } from '../../db/companies';
import { findDocument } from '../../db/documents';

/** The same series-number with other content (another line description). */
function otherContent(body: Record<string, any>): Record<string, any> {
  return { ...body, items: [{ ...body.items[0], descripcion: `${body.items[0].descripcion} (otro)` }] };
}

describe('one series-number is one document (per RUC, across accounts)', function () {
  this.timeout(90_000);
  let env: IssuingStack;
  let company: TestCompany;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack();
    company = await newCompany(env.stack);
  });
  after(() => env?.stop());
  beforeEach(() => env.sim.clearRules());

  it('a different document for a held number is a 422 with [SUNAT 1033], the path correlativo and the holder; the same bytes replay it', async () => {
    const body = payload('invoice-basic.json', company.ruc);
    const first = await issue(env.stack, company.token, body);
    expect(first.status).to.equal(202);
    const before = await documentCount(env.stack, company.row.id);

    const other = await issue(env.stack, company.token, otherContent(body));
    expect(other.status, JSON.stringify(other.body)).to.equal(422);
    expect(other.body).to.include({
      success: false,
      origin: 'validation',
      action: 'correct',
      reached_sunat: false,
      external_id: first.body.external_id,
    });
    expect(other.body.errors[0]).to.match(/^\[SUNAT 1033\] F001-\d+ is already registered with other data/);
    expect(other.body.details[0]).to.include({ code: '1033', path: 'correlativo' });

    // A number sent as a JSON number is the same number.
    const asNumber = await issue(env.stack, company.token, {
      ...otherContent(body),
      correlativo: Number(body.correlativo),
    });
    expect(asNumber.status).to.equal(422);

    const again = await issue(env.stack, company.token, body);
    expect(again.status).to.equal(202);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.include({ external_id: first.body.external_id, hash: first.body.hash, xml: first.body.xml });
    expect(await documentCount(env.stack, company.row.id)).to.equal(before);
  });

  it('a summary (rc) identifier follows the same rule', async () => {
    const rc = payload('rc-add.json', company.ruc);
    expect((await issue(env.stack, company.token, rc)).status).to.equal(202);
    const other = { ...rc, fechaReferencia: rc.fechaReferencia === '2024-03-14' ? '2024-03-13' : '2024-03-14' };
    const res = await issue(env.stack, company.token, other);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.errors[0]).to.match(/^\[SUNAT 1033\] RC-\d{8}-\d+ is already registered/);
  });

  it('a number refused by local validation never held it', async () => {
    const body = payload('invoice-basic.json', company.ruc);
    const bad = await issue(env.stack, company.token, { ...body, tipoMoneda: 'XXX' });
    expect(bad.status).to.equal(422);
    expect((await issue(env.stack, company.token, body)).status).to.equal(202);
  });

  it('two different documents racing for one unused number: exactly one 202', async () => {
    for (let round = 0; round < 3; round++) {
      const body = payload('invoice-basic.json', company.ruc);
      const answers = await Promise.all([
        issue(env.stack, company.token, body),
        issue(env.stack, company.token, otherContent(body)),
      ]);
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body.errors))).to.deep.equal([
        202, 422,
      ]);
      const refused = answers.find((a) => a.status === 422)!;
      expect(refused.body.errors[0]).to.match(/^\[SUNAT 1033\]/);
      const rows = await env.stack
        .db('documents')
        .where({ ruc: company.ruc, series: 'F001', number: Number(body.correlativo) });
      expect(rows).to.have.length(1);
    }
  });

  it('another account holding the same RUC (confirm: true) cannot reuse the number, nor learn the holder, and is not charged', async () => {
    const production = await newCompany(env.stack, { environment: '02', quota: 5 });
    const body = payload('invoice-basic.json', production.ruc);
    expect((await issue(env.stack, production.token, body)).status).to.equal(202);

    const account = await newAccountToken(env.stack, 5);
    const token = await createCompany(env.stack, account.token, production.ruc, { confirm: true, environment: '02' });
    const otherRow = (await findCompany(env.stack.db, account.accountId, production.ruc))!;
    for (const attempt of [otherContent(body), body]) {
      const res = await issue(env.stack, token, attempt);
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.errors[0]).to.match(/^\[SUNAT 1033\] .*another account/);
      expect(res.body).to.not.have.property('external_id');
    }
    expect(await accountBalances(env.stack, account.accountId)).to.deep.equal({ quota: 5, osePackage: 0 });
    expect(await documentCount(env.stack, otherRow.id)).to.equal(0);
  });

  it('a number whose document was rejected is a 422 with [SUNAT 1032]', async () => {
    const body = payload('invoice-basic.json', company.ruc);
    env.sim.addRule({
      operation: 'sendBill',
      ruc: company.ruc,
      number: body.correlativo,
      fault: { kind: 'reject', code: '2017' },
    });
    const first = await issue(env.stack, company.token, body);
    expect((await until(env.stack, first.body.external_id, ['rejected'])).status).to.equal('rejected');
    const retry = await issue(env.stack, company.token, otherContent(body));
    expect(retry.status).to.equal(422);
    expect(retry.body.errors[0]).to.match(/^\[SUNAT 1032\] .*rejected/);
  });

  it('the authority holds the number from elsewhere (1033): rejected with 1033, never accepted with the other CDR', async () => {
    const body = payload('invoice-basic.json', company.ruc);
    env.sim.seedDocument({ ruc: company.ruc, docType: '01', series: 'F001', number: body.correlativo });
    const res = await issue(env.stack, company.token, body);
    const done = await until(env.stack, res.body.external_id, ['accepted', 'observed', 'rejected']);
    expect(done.status).to.equal('rejected');
    expect(done.result).to.include({ code: '1033', origin: 'tax_authority', action: 'correct', reached_sunat: true });
    expect(done.result!.message).to.match(/another document/);
    expect(done.cdr_zip).to.equal(null);
  });

  it('through an OSE (no CDR query): a first send answered 1033 is rejected, not left for review', async () => {
    const ose = await newCompany(env.stack, { environment: '02', quota: 3, settings: { destination: 'provider_ose' } });
    await env.stack.db('accounts').where({ id: ose.accountId }).update({ ose_package_units: 3 });
    const body = payload('invoice-basic.json', ose.ruc);
    env.sim.seedDocument({ ruc: ose.ruc, docType: '01', series: 'F001', number: body.correlativo });
    const res = await issue(env.stack, ose.token, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const done = await until(env.stack, res.body.external_id, ['accepted', 'rejected', 'sent']);
    expect(done.status).to.equal('rejected');
    expect(done.result).to.include({ code: '1033', origin: 'tax_authority', action: 'correct' });
  });

  describe('after a send that may have reached the authority (timeout), the re-send answered 1033', () => {
    async function timedOut(): Promise<{ id: string; hash: string; correlativo: string }> {
      const body = payload('invoice-basic.json', company.ruc);
      env.sim.addRule({
        operation: 'sendBill',
        ruc: company.ruc,
        number: body.correlativo,
        times: 1,
        fault: { kind: 'hang' },
      });
      const res = await issue(env.stack, company.token, body);
      const sent = await until(env.stack, res.body.external_id, ['sent']);
      expect(sent.result).to.include({ origin: 'timeout', reached_sunat: null });
      return { id: sent.id, hash: sent.hash, correlativo: body.correlativo };
    }
    const resend = (id: string) => call(env.stack, 'POST', `/v1/cpe/${id}/resend`, { token: company.token });

    it('a SUNAT CDR without a hash is ours: accepted', async () => {
      const doc = await timedOut();
      env.sim.seedDocument({ ruc: company.ruc, docType: '01', series: 'F001', number: doc.correlativo });
      expect((await resend(doc.id)).status).to.equal(202);
      const done = await until(env.stack, doc.id, ['accepted', 'rejected']);
      expect(done.status).to.equal('accepted');
      expect(done.cdr_zip).to.be.a('string');
    });

    it('a CDR carrying our hash is ours; one carrying another hash is not (rejected 1033)', async () => {
      const ours = await timedOut();
      env.sim.seedDocument({
        ruc: company.ruc,
        docType: '01',
        series: 'F001',
        number: ours.correlativo,
        documentHash: ours.hash,
      });
      await resend(ours.id);
      expect((await until(env.stack, ours.id, ['accepted', 'rejected'])).status).to.equal('accepted');

      const theirs = await timedOut();
      env.sim.seedDocument({
        ruc: company.ruc,
        docType: '01',
        series: 'F001',
        number: theirs.correlativo,
        documentHash: 'bm90IHRoaXMgZG9jdW1lbnQ=',
      });
      await resend(theirs.id);
      const done = await until(env.stack, theirs.id, ['accepted', 'rejected']);
      expect(done.status).to.equal('rejected');
      expect(done.result).to.include({ code: '1033', origin: 'tax_authority' });
      expect((await findDocument(env.stack.db, theirs.id))!.cdr_zip).to.equal(null);
    });
  });

  describe('a document posted after a restore whose number SUNAT holds (deploy/restore/after-restore.sql recorded the restore)', () => {
    afterEach(() => env.stack.db('restores').delete());
    /** The restore's record as after-restore.sql writes it: the backup's time, restored now. */
    const restored = (backupTakenAt: string) =>
      env.stack.db.raw(`insert into restores (backup_taken_at) values (${backupTakenAt})`);

    it('answered between the backup and the restore, for its issue date: the lost document posted again, accepted with that CDR', async () => {
      const body = payload('invoice-basic.json', company.ruc);
      env.sim.seedDocument({
        ruc: company.ruc,
        docType: '01',
        series: 'F001',
        number: body.correlativo,
        issueDate: body.fechaEmision,
      });
      await restored("now() - interval '1 hour'");
      const res = await issue(env.stack, company.token, body);
      const done = await until(env.stack, res.body.external_id, ['accepted', 'rejected']);
      expect(done.status).to.equal('accepted');
      expect(done.cdr_zip).to.be.a('string');
    });

    /** Issues `body` and expects it rejected with 1033: SUNAT's CDR for the number is another document's. */
    async function rejected(body: Record<string, any>): Promise<void> {
      const res = await issue(env.stack, company.token, body);
      const done = await until(env.stack, res.body.external_id, ['accepted', 'rejected']);
      expect(done.status).to.equal('rejected');
      expect(done.result).to.include({ code: '1033', origin: 'tax_authority' });
    }

    it('answered before the backup: another document (rejected 1033)', async () => {
      const body = payload('invoice-basic.json', company.ruc);
      env.sim.seedDocument({
        ruc: company.ruc,
        docType: '01',
        series: 'F001',
        number: body.correlativo,
        issueDate: body.fechaEmision,
      });
      await new Promise((r) => setTimeout(r, 1_100)); // SUNAT's response time has whole seconds: the backup comes after it
      await restored('now()');
      await rejected(body);
    });

    it('answered between the backup and the restore for another issue date: another document (rejected 1033)', async () => {
      const body = payload('invoice-basic.json', company.ruc);
      env.sim.seedDocument({
        ruc: company.ruc,
        docType: '01',
        series: 'F001',
        number: body.correlativo,
        issueDate: '2024-01-02',
      });
      await restored("now() - interval '1 hour'");
      await rejected(body);
    });
  });
});
