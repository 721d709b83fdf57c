import { expect } from 'chai';
import { createDb, run, statement, type Db } from '../../db/knex';
import { DOCUMENT_COLUMNS, findNumberHolder, insertDocument } from '../../db/documents';
import { DELIVERY_COLUMNS } from '../../db/webhooks';
import { getTestDb, testDatabaseUrl } from '../support/services';
import { companyWithRuc } from '../support/documents';
import { randomRuc } from '../companies/helpers';

/**
 * The per-document statements run as named prepared statements (issue 13: PostgreSQL parsed and planned each of them
 * on every call). One connection (pool of 1), so what it prepared can be read back from pg_prepared_statements.
 */
describe('prepared statements', function () {
  let db: Db;
  before(async () => {
    await getTestDb(); // migrated
    db = createDb(await testDatabaseUrl(), { min: 1, max: 1 });
  });
  after(async () => {
    await db.destroy();
  });

  const preparedNames = async (label: string): Promise<string[]> =>
    (await db.raw('select name from pg_prepared_statements where name like ?', [`${label}\\_%`])).rows.map(
      (r: { name: string }) => r.name,
    );

  it('prepares a statement once per connection and text, whatever its values', async () => {
    const key = { ruc: '20000000001', environment: '01', doc_type: '01', series: 'F001' };
    expect(await findNumberHolder(db, { ...key, number: 1 })).to.equal(null);
    expect(await findNumberHolder(db, { ...key, number: 2 })).to.equal(null);
    const names = await preparedNames('number_holder');
    expect(names).to.have.length(1);
    expect(names[0]).to.match(/^number_holder_[0-9a-f]{12}$/);
  });

  it('gives a different text its own statement under the same label', async () => {
    const one = statement('scratch_variant', 'select 1 as one');
    expect(await run(db, one, [])).to.deep.equal([{ one: 1 }]);
    expect(await run(db, statement('scratch_variant', 'select 2 as two'), [])).to.deep.equal([{ two: 2 }]);
    expect(await run(db, one, [])).to.deep.equal([{ one: 1 }]);
    expect(await preparedNames('scratch_variant')).to.have.length(2);
  });

  it('refuses a statement that selects *, before it reaches PostgreSQL', async () => {
    for (const sql of [
      'select * from documents limit 1',
      'select d.* from documents d limit 1',
      'delete from rate_limit_log where false returning *',
    ]) {
      expect(() => statement('scratch_star', sql), sql).to.throw(/selects \* \(name its columns\)/);
    }
    // count(*) is not a column list.
    expect(
      await run(db, statement('scratch_count', 'select count(*)::int as n from documents where false'), []),
    ).to.deep.equal([{ n: 0 }]);
  });

  it("runs on a transaction's own connection: rolled back with it, unseen by others until it commits", async () => {
    const count = statement('scratch_count_documents', 'select count(*)::int as n from documents where ruc = $1');
    const ruc = randomRuc();
    const pool = createDb(await testDatabaseUrl(), { min: 0, max: 2 });
    try {
      const company = await companyWithRuc(pool, ruc, 'Statements S.A.C.');
      const doc = {
        account_id: company.account_id,
        company_id: company.id,
        ruc,
        doc_type: '01',
        series: 'F001',
        number: 1,
        filename: `${ruc}-01-F001-1`,
        issue_date: '2026-01-01',
        currency: 'PEN',
        environment: '01',
        destination: 'tax_authority',
        signed_by: 'provider_certificate',
        status: 'queued' as const,
        hash: 'h',
        xml: '<x/>',
        totals: null,
        warnings: [],
      };
      const seen: { inside?: number; outside?: number } = {};
      const rolledBack = new Error('roll back');
      const err = await pool
        .transaction(async (trx) => {
          await insertDocument(trx, doc);
          seen.inside = (await run<{ n: number }>(trx, count, [ruc]))[0].n;
          seen.outside = (await run<{ n: number }>(pool, count, [ruc]))[0].n;
          throw rolledBack;
        })
        .catch((e: unknown) => e);
      expect(err).to.equal(rolledBack);
      expect(seen).to.deep.equal({ inside: 1, outside: 0 });
      expect((await run<{ n: number }>(pool, count, [ruc]))[0].n).to.equal(0);
    } finally {
      await pool.destroy();
    }
  });

  it('why: a prepared * stops working once a column is added; named columns keep working', async () => {
    await db.transaction(async (trx) => {
      await trx.raw('create temporary table scratch_prepared (a int) on commit drop');
      await trx.raw('insert into scratch_prepared values (1)');
      // Named by hand (not through `statement`, which refuses *), to show what the rule avoids.
      const star = (q: typeof trx) => q.raw('select * from scratch_prepared').options({ name: 'scratch_raw_star' });
      const named = () => run(trx, statement('scratch_named', 'select a from scratch_prepared'), []);
      await star(trx);
      await named();
      await trx.raw('alter table scratch_prepared add column b int');
      expect(await named()).to.deep.equal([{ a: 1 }]);
      const err = await trx
        .transaction((savepoint) => star(savepoint))
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(err?.message).to.match(/cached plan must not change result type/);
    });
  });

  it('names every column of documents and webhook_deliveries (a migration adding one must add it here)', async () => {
    const columns = async (table: string) =>
      (
        await db('information_schema.columns')
          .where({ table_schema: db.raw('current_schema()'), table_name: table })
          .select('column_name')
      )
        .map((r) => r.column_name as string)
        .sort();
    expect([...DOCUMENT_COLUMNS].sort()).to.deep.equal(await columns('documents'));
    expect([...DELIVERY_COLUMNS].sort()).to.deep.equal(await columns('webhook_deliveries'));
  });
});
