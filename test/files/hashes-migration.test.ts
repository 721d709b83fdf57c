import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { freshTestDatabase } from '../support/services';
import { companyWithRuc } from '../support/documents';
import { randomRuc } from '../companies/helpers';
import { migrationConfig, type Db } from '../../db/knex';

const MIGRATION = '20261201190000_document_file_hashes.ts';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The row names an object by the SHA-256 of its bytes, no longer by its whole key (db/migrations, docs/files.md):
 * rows written with keys before it keep naming the same objects after it, a key its row does not give is refused,
 * and down gives the keys back.
 */
describe('files: the rows name their files by SHA-256 (the migration both ways)', function () {
  this.timeout(120_000);
  let db: Db;

  before(async () => {
    ({ db } = await freshTestDatabase());
    await db.migrate.down({ ...migrationConfig, name: MIGRATION });
  });
  after(() => db?.destroy());

  async function keyedRow(ruc: string, number: number, key: (sha: string) => string) {
    const company = await companyWithRuc(db, ruc, `Claves ${number} S.A.C.`);
    const xmlSha = sha256(randomBytes(16));
    const cdrSha = sha256(randomBytes(16));
    const [row] = await db('documents')
      .insert({
        account_id: company.account_id,
        company_id: company.id,
        ruc,
        doc_type: '01',
        series: 'F001',
        number,
        filename: `${ruc}-01-F001-${number}`,
        issue_date: '2026-01-31',
        environment: '01',
        destination: 'tax_authority',
        signed_by: 'provider_certificate',
        status: 'accepted',
        status_code: '0',
        hash: 'x',
        xml: null,
        xml_key: key(xmlSha),
        xml_size: 10,
        cdr_key: `${ruc}/01/2026/01/${cdrSha}.zip`,
        cdr_size: 20,
      })
      .returning(['id']);
    return { id: row.id as string, xmlKey: key(xmlSha), xmlSha, cdrKey: `${ruc}/01/2026/01/${cdrSha}.zip`, cdrSha };
  }

  it('refuses a key that is not the one its RUC, type and issue month give, and changes nothing', async () => {
    const ruc = randomRuc();
    const odd = await keyedRow(ruc, 1, (sha) => `${ruc}/01/2025/12/${sha}.xml`);
    const failed = await db.migrate.up({ ...migrationConfig, name: MIGRATION }).catch((err) => err);
    expect(failed).to.be.instanceOf(Error);
    expect(String(failed.message)).to.contain(`document ${odd.id}: its xml key ${odd.xmlKey} is not the one`);
    expect((await db('documents').where({ id: odd.id }).first()).xml_key).to.equal(odd.xmlKey);
    await db('documents').where({ id: odd.id }).delete();
  });

  it('up: the keys become their SHA-256 (32 bytes) and the key columns go; down: the same keys come back', async () => {
    const ruc = randomRuc();
    const keyed = await keyedRow(ruc, 2, (sha) => `${ruc}/01/2026/01/${sha}.xml`);
    await db.migrate.up({ ...migrationConfig, name: MIGRATION });
    const up = await db('documents').where({ id: keyed.id }).first();
    expect(up).not.to.have.property('xml_key');
    expect(up.xml_sha256.toString('hex')).to.equal(keyed.xmlSha);
    expect(up.cdr_sha256.toString('hex')).to.equal(keyed.cdrSha);
    const short = await db('documents')
      .where({ id: keyed.id })
      .update({ cdr_sha256: Buffer.alloc(31) })
      .catch((err) => err);
    expect(String(short.message)).to.contain('documents_file_hashes');

    await db.migrate.down({ ...migrationConfig, name: MIGRATION });
    const down = await db('documents').where({ id: keyed.id }).first();
    expect([down.xml_key, down.cdr_key]).to.deep.equal([keyed.xmlKey, keyed.cdrKey]);
    expect(down).not.to.have.property('xml_sha256');
    await db.migrate.up({ ...migrationConfig, name: MIGRATION });
  });
});
