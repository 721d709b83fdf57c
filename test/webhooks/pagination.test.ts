import { expect } from 'chai';
import { getTestDb, testConfig } from '../support/services';
import { secretBoxFrom } from '../../core/config';
import { listDeliveries } from '../../db/webhooks';
import { companyWithWebhook, resolvedDocument } from './support';

describe('webhook deliveries: pages', () => {
  it('keep deliveries created within the same millisecond as the cursor (timestamps have microseconds)', async () => {
    const db = await getTestDb();
    const { company } = await companyWithWebhook(db, secretBoxFrom(testConfig()), null);
    const doc = await resolvedDocument(db, company, 1);
    // The original delivery and three redeliveries of it, all within one millisecond.
    const at = (micros: string) => `2026-11-24 12:00:00.123${micros}+00`;
    const [original] = await db('webhook_deliveries')
      .insert({ company_id: company.id, document_id: doc.id, event: 'cpe.resolved', created_at: at('100') })
      .returning('id');
    for (const micros of ['200', '300', '400']) {
      await db('webhook_deliveries').insert({
        company_id: company.id,
        document_id: doc.id,
        event: 'cpe.resolved',
        redelivery_of: original.id,
        created_at: at(micros),
      });
    }
    const first = await listDeliveries(db, company.id, { limit: 2 });
    const second = await listDeliveries(db, company.id, { limit: 2, before: first[1] });
    expect([...first, ...second].map((d) => d.id)).to.have.members(
      (await db('webhook_deliveries').where({ company_id: company.id }).pluck('id')) as string[],
    );
    expect(second).to.have.length(2);
  });
});
