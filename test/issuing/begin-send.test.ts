import { expect } from 'chai';
import { secretBoxFrom } from '../../core/config';
import { findCompanyById } from '../../db/companies';
import { beginSend, findDocument, insertDocument } from '../../db/documents';
import type { Db } from '../../db/knex';
import { getTestDb, testConfig } from '../support/services';
import { companyWithWebhook } from '../webhooks/support';

/**
 * The send's first statement marks the document and reads it with its company (issue 13: one round trip where there
 * were two). The company comes through JSON, so what it carries must equal the plain read of the row, timestamps as Dates.
 */
describe('beginSend: the document and its company in one statement', function () {
  let db: Db;
  const secrets = secretBoxFrom(testConfig());
  before(async () => {
    db = await getTestDb();
  });

  it('returns the row as it was, marks it, and carries the company exactly as a plain read of it', async () => {
    const { company } = await companyWithWebhook(db, secrets, 'https://127.0.0.1:9/hook');
    // Every timestamp column set, so each one is seen coming back as a Date.
    const now = new Date('2026-11-20T15:04:05.123Z');
    await db('companies')
      .where({ id: company.id })
      .update({ sol_updated_at: now, ose_updated_at: now, gre_updated_at: now, webhook_updated_at: now });
    const doc = await insertDocument(db, {
      account_id: company.account_id,
      company_id: company.id,
      ruc: company.ruc,
      doc_type: '01',
      series: 'F001',
      number: 1,
      filename: `${company.ruc}-01-F001-1`,
      issue_date: '2026-11-20',
      currency: 'PEN',
      environment: '01',
      destination: 'tax_authority',
      signed_by: 'provider',
      status: 'queued',
      hash: 'h',
      xml: '<Invoice/>',
      totals: null,
      warnings: [],
    });

    const marked = await beginSend(db, doc.id, 'queued');
    expect(marked).to.not.equal(null);
    expect(marked!.company).to.deep.equal(await findCompanyById(db, company.id));
    expect(marked!.company!.webhook_updated_at).to.be.an.instanceOf(Date);
    expect(marked!.doc).to.include({ id: doc.id, xml: '<Invoice/>', send_attempts: 0, send_started_at: null });
    const after = await findDocument(db, doc.id);
    expect(after).to.include({ send_attempts: 1 });
    expect(after!.send_started_at).to.be.an.instanceOf(Date);
  });

  it('leaves a document in another status unmarked, and answers null for an unknown one', async () => {
    const { company } = await companyWithWebhook(db, secrets, null);
    const doc = await insertDocument(db, {
      account_id: company.account_id,
      company_id: company.id,
      ruc: company.ruc,
      doc_type: '01',
      series: 'F001',
      number: 2,
      filename: `${company.ruc}-01-F001-2`,
      issue_date: '2026-11-20',
      currency: 'PEN',
      environment: '01',
      destination: 'tax_authority',
      signed_by: 'provider',
      status: 'to_send',
      hash: 'h',
      xml: '<Invoice/>',
      totals: null,
      warnings: [],
    });
    const marked = await beginSend(db, doc.id, 'queued');
    expect(marked!.doc.status).to.equal('to_send');
    expect(await findDocument(db, doc.id)).to.include({ send_attempts: 0, send_started_at: null });
    expect(await beginSend(db, '00000000-0000-4000-8000-000000000000')).to.equal(null);
  });
});
