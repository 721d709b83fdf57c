import { expect } from 'chai';
import { DOMParser } from '@xmldom/xmldom';
import {
  call,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';

/**
 * Issue 33's new inputs attacked: the SUNAT registers a company declares (they decide which warnings its documents
 * get) and the product codes and GTINs of a document's lines (they reach the signed XML).
 */
describe('security: SUNAT registers and line codes', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let mine: TestCompany;
  let other: TestCompany;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({}, { worker: false });
    mine = await newCompany(env.stack);
    other = await newCompany(env.stack);
  });
  after(() => env?.stop());

  const registersOf = async (company: TestCompany) =>
    (await call(env.stack, 'GET', `/v1/companies/${company.ruc}`, { token: company.accountToken })).body.data.company
      .registers;
  const patchRegisters = (company: TestCompany, token: string, body: unknown) =>
    call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/registers`, { token, json: body });

  it('registers take strict booleans only, from the owning account only; nothing changes otherwise', async () => {
    const before = await registersOf(mine);
    for (const body of [
      { igv_special_rate: 'true' },
      { igv_special_rate: 1 },
      { igv_special_rate: { $ne: false } },
      { product_code_required: [true] },
      { igv_special_rate: true, ind_padron: '01' },
      [true],
    ])
      expect((await patchRegisters(mine, mine.accountToken, body)).status, JSON.stringify(body)).to.equal(422);
    // Another account's token and the company's own signing token cannot declare registers for it.
    expect([403, 404]).to.include((await patchRegisters(mine, other.accountToken, { igv_special_rate: true })).status);
    expect((await patchRegisters(mine, mine.token, { igv_special_rate: true })).status).to.equal(403);
    expect(await registersOf(mine)).to.deep.equal(before);
  });

  it('a GTIN is GS1 digits with its check digit or a 422 naming the line; nothing is signed or stored', async () => {
    const count = async () => Number((await env.stack.db('documents').where({ ruc: mine.ruc }).count('* as n'))[0].n);
    const stored = await count();
    for (const gtin of ['7750182000017<x/>', '775018200001A', '7750182000016', "1' OR '1'='1", '1'.repeat(40)]) {
      const doc = payload('invoice-basic.json', mine.ruc);
      doc.items[0].gtin = gtin;
      const res = await issue(env.stack, mine.token, doc);
      expect(res.status, gtin).to.equal(422);
      expect(JSON.stringify(res.body.errors), gtin).to.contain('gtin');
    }
    expect(await count()).to.equal(stored);
  });

  it("a product code is text in the signed XML, never markup: the document's structure stays SUNAT's", async () => {
    const doc = payload('invoice-basic.json', mine.ruc);
    const hostile = '1"/><cbc:Note>x</cbc:Note>';
    doc.items[0].codigoSunat = hostile;
    const res = await issue(env.stack, mine.token, doc);
    // The fixture's issue date is before product-code-valid's: an invalid code is SUNAT's observation 4332, a 202.
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(JSON.stringify(res.body.warnings ?? res.body)).to.contain('4332');
    const xml = Buffer.from(res.body.xml, 'base64').toString('utf8');
    const parsed = new DOMParser().parseFromString(xml, 'text/xml');
    const codes = Array.from(parsed.getElementsByTagName('cbc:ItemClassificationCode')).map((n) => n.textContent);
    expect(codes).to.deep.equal([hostile]);
    expect(parsed.getElementsByTagName('cbc:Note').length).to.equal(
      (xml.match(/<cbc:Note[ >]/g) ?? []).length,
      'no Note element came from the code',
    );
    expect(xml).to.not.contain('"/><cbc:Note>x');
  });
});
