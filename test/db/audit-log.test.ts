import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Db } from '../../db/knex';
import { listAudit, recordChange, secretChange, SECRET_SET } from '../../db/audit';
import { getTestDb } from '../support/services';

/** The audit log keeps what was done and refuses to be rewritten, even by the application's own role. */
describe('audit log', function () {
  let db: Db;
  const accountId = randomUUID();
  before(async () => {
    db = await getTestDb();
  });

  it('records a change with its actor and masked secrets, newest first, a page at a time', async () => {
    const actor = { kind: 'console' as const, name: 'Ana', address: '203.0.113.9', requestId: 'req-1' };
    await recordChange(db, { accountId, actor, action: 'company.create', changes: { ruc: { to: '20100066603' } } });
    await recordChange(db, {
      accountId,
      companyRuc: '20100066603',
      actor,
      action: 'company.sol_credentials',
      changes: { sol_user: { from: null, to: 'MODDATOS' }, sol_password: secretChange(null, 's3cr3t') },
    });
    const [last, first] = await listAudit(db, { accountId, limit: 10 });
    expect(last.action).to.equal('company.sol_credentials');
    expect(last.changes.sol_password).to.deep.equal({ from: null, to: SECRET_SET });
    expect(JSON.stringify(last)).not.to.contain('s3cr3t');
    expect([last.actor, last.address, last.request_id]).to.deep.equal(['Ana', '203.0.113.9', 'req-1']);
    expect(first.action).to.equal('company.create');
    const next = await listAudit(db, { accountId, before: last.id, limit: 10 });
    expect(next.map((r) => r.id)).to.deep.equal([first.id]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    for (const attempt of [
      () => db('audit_log').where({ account_id: accountId }).update({ actor: 'someone else' }),
      () => db('audit_log').where({ account_id: accountId }).delete(),
      () => db.raw('truncate audit_log'),
    ]) {
      let refused: unknown = null;
      await attempt().catch((err: unknown) => (refused = err));
      expect(String(refused)).to.contain('append-only');
    }
    expect(await listAudit(db, { accountId, limit: 10 })).to.have.length(2);
    expect((await listAudit(db, { accountId, limit: 10 })).every((r) => r.actor === 'Ana')).to.equal(true);
  });
});
