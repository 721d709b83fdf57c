import { expect } from 'chai';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  call,
  until,
  expectDocumented,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { summaryFixtures } from './support';

/**
 * The whole way for a production company in receipts mode `summary`, over HTTP: receipts issued by POST /v1/cpe wait
 * as `to_summarize`, the run reports them in an rc signed with the provider certificate (CHASQUI_PROVIDER_PFX),
 * GET shows each receipt resolved, and a void goes into the next summary. An rc the integrator issues himself keeps
 * going its own way.
 */
describe('receipts in summary mode through the API', function () {
  this.timeout(120_000);
  let issuing: IssuingStack;
  let company: TestCompany;
  const { nudging, runCompany } = summaryFixtures(
    () => issuing.stack,
    () => company.accountId,
  );

  before(async function () {
    this.timeout(120_000);
    issuing = await startIssuingStack();
    company = await newCompany(issuing.stack, { quota: 20, environment: '02', settings: { receipts_mode: 'summary' } });
  });
  after(() => issuing?.stop());

  const get = (id: string) => call(issuing.stack, 'GET', `/v1/cpe/${id}`, { token: company.token });

  it('receipts wait for the summary, are reported by it and resolved; a void follows in the next one', async () => {
    const issued = [
      await issue(issuing.stack, company.token, payload('receipt-basic.json', company.ruc)),
      await issue(issuing.stack, company.token, payload('credit-note-boleta.json', company.ruc)),
    ];
    for (const res of issued) {
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.status).to.equal('to_summarize');
    }
    const ids: string[] = issued.map((res) => res.body.external_id);
    // The integrator's own rc (other receipts) is sent and polled like any document.
    const own = await issue(issuing.stack, company.token, payload('rc-add.json', company.ruc));
    expect(own.status).to.equal(202);
    expect(own.body.status).to.equal('queued');

    // The receipt and the note were issued on different days: one rc per day.
    const result = await nudging([company.row], (await runCompany(company.row)).result());
    expect(result).to.include({ summaries: 2, accepted: 2 });
    for (const id of ids) {
      const res = await get(id);
      await expectDocumented(issuing.stack, 'GET /v1/cpe/{external_id}', res);
      expect(res.body.data.document).to.include({ status: 'accepted', resolved: true });
      expect(res.body.data.document.result.message).to.match(/^Daily summary \d{11}-RC-\d{8}-\d+ /);
    }
    const generated = await issuing.stack
      .db('documents')
      .where({ company_id: company.row.id, doc_type: 'rc' })
      .whereNot({ id: own.body.external_id });
    expect(generated.map((rc) => [rc.signed_by, rc.environment])).to.deep.equal([
      ['provider_certificate', '02'],
      ['provider_certificate', '02'],
    ]);
    await nudging([company.row], until(issuing.stack, own.body.external_id, ['accepted', 'observed']));

    const voided = await call(issuing.stack, 'POST', `/v1/cpe/${ids[0]}/void`, {
      token: company.token,
      json: { reason: 'Venta anulada' },
    });
    await expectDocumented(issuing.stack, 'POST /v1/cpe/{external_id}/void', voided);
    expect(voided.body.data.void).to.include({ via: 'rc', status: 'pending' });
    expect(await nudging([company.row], (await runCompany(company.row)).result())).to.include({
      summaries: 1,
      accepted: 1,
    });
    const after = await call(issuing.stack, 'GET', `/v1/cpe/${ids[0]}/void`, { token: company.token });
    await expectDocumented(issuing.stack, 'GET /v1/cpe/{external_id}/void', after);
    expect(after.body.data.void).to.include({ status: 'accepted' });
  });
});
