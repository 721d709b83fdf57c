import { expect } from 'chai';
import { createDb, prepared, type Db } from '../../db/knex';
import { DOCUMENT_COLUMNS, findNumberHolder } from '../../db/documents';
import { DELIVERY_COLUMNS } from '../../db/webhooks';
import { getTestDb, testDatabaseUrl } from '../support/services';

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
    (await db.raw('select name from pg_prepared_statements where name like ?', [`${label}\\_%`])).rows.map((r: { name: string }) => r.name);

  it('prepares a statement once per connection and text, whatever its values', async () => {
    const key = { ruc: '20000000001', environment: '01', doc_type: '01', series: 'F001' };
    expect(await findNumberHolder(db, { ...key, number: 1 })).to.equal(null);
    expect(await findNumberHolder(db, { ...key, number: 2 })).to.equal(null);
    const names = await preparedNames('number_holder');
    expect(names).to.have.length(1);
    expect(names[0]).to.match(/^number_holder_[0-9a-f]{12}$/);
  });

  it('gives a different text its own statement under the same label', async () => {
    await prepared(db.raw('select 1 as one'), 'scratch_variant');
    await prepared(db.raw('select 2 as two'), 'scratch_variant');
    const rows = await prepared(db.raw('select 1 as one'), 'scratch_variant');
    expect(rows.rows).to.deep.equal([{ one: 1 }]);
    expect(await preparedNames('scratch_variant')).to.have.length(2);
  });

  it('refuses a prepared statement that selects *, before it reaches PostgreSQL', async () => {
    for (const sql of ['select * from documents limit 1', 'select d.* from documents d limit 1', 'delete from rate_limit_log where false returning *']) {
      const err = await prepared(db.raw(sql), 'scratch_star').then(() => null, (e: Error) => e);
      expect(err?.message, sql).to.match(/selects \* \(name its columns\)/);
    }
    expect(await preparedNames('scratch_star')).to.deep.equal([]);
    // count(*) is not a column list.
    expect((await prepared(db.raw('select count(*)::int as n from documents where false'), 'scratch_count')).rows).to.deep.equal([{ n: 0 }]);
  });

  it('why: a prepared * stops working once a column is added; named columns keep working', async () => {
    await db.transaction(async (trx) => {
      await trx.raw('create temporary table scratch_prepared (a int) on commit drop');
      await trx.raw('insert into scratch_prepared values (1)');
      // Named by hand (not through `prepared`, which refuses *), to show what the rule avoids.
      const star = (q: typeof trx) => q.raw('select * from scratch_prepared').options({ name: 'scratch_raw_star' });
      const named = () => prepared(trx.raw('select a from scratch_prepared'), 'scratch_named');
      await star(trx);
      await named();
      await trx.raw('alter table scratch_prepared add column b int');
      expect((await named()).rows).to.deep.equal([{ a: 1 }]);
      const err = await trx.transaction((savepoint) => star(savepoint)).then(() => null, (e: Error) => e);
      expect(err?.message).to.match(/cached plan must not change result type/);
    });
  });

  it('names every column of documents and webhook_deliveries (a migration adding one must add it here)', async () => {
    const columns = async (table: string) =>
      (await db('information_schema.columns').where({ table_schema: db.raw('current_schema()'), table_name: table }).select('column_name')).map((r) => r.column_name as string).sort();
    expect([...DOCUMENT_COLUMNS].sort()).to.deep.equal(await columns('documents'));
    expect([...DELIVERY_COLUMNS].sort()).to.deep.equal(await columns('webhook_deliveries'));
  });
});
