import { expect } from 'chai';
import got from 'got';
import {
  call,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { findDocumentsByReference } from '../../db/document-references';
import { openConsoleSession } from '../../db/console-sessions';
import { SESSION_COOKIE } from '../../api/console/session';

/** Filters an integrator or a console user writes, each trying to widen the query or to break it. */
const API_ATTACKS: [string, string][] = [
  ['serie', "F001' OR '1'='1"],
  ['serie', 'F%'],
  ['cliente', "x' OR 1=1--"],
  ['cliente', '%'],
  ['status', "accepted') OR true--"],
  ['tipoDoc', '01;DROP TABLE documents'],
  ['desde', "2024-01-01' OR '1'='1"],
  ['desde', '2024-02-30'],
  ['hasta', '9999-99-99'],
  ['correlativo', '1 OR 1=1'],
  ['limit', '1000000'],
  ['before', "' OR 1=1--"],
  ['resolved', 'true OR 1=1'],
  ['ruc', "20100066603' OR '1'='1"],
];

describe('security: list and search filters reach SQL only as bound, bounded values', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let mine: TestCompany;
  let other: TestCompany;
  let otherFilename: string;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({}, { worker: false });
    mine = await newCompany(env.stack);
    other = await newCompany(env.stack);
    expect((await issue(env.stack, mine.token, payload('invoice-basic.json', mine.ruc))).status).to.equal(202);
    const theirs = await issue(env.stack, other.token, payload('invoice-basic.json', other.ruc));
    otherFilename = theirs.body.filename;
  });
  after(() => env?.stop());

  const documentCount = async () => Number((await env.stack.db('documents').count('* as n'))[0].n);

  it('GET /v1/cpe answers 422 naming the filter for each injection, and never another company’s documents', async () => {
    const before = await documentCount();
    for (const [name, value] of API_ATTACKS) {
      for (const token of [mine.token, mine.accountToken]) {
        const query = new URLSearchParams({ [name]: value });
        if (token === mine.accountToken && name !== 'ruc') query.set('ruc', mine.ruc);
        const res = await call(env.stack, 'GET', `/v1/cpe?${query}`, { token });
        expect(res.status, `${name}=${value}`).to.equal(422);
        expect(Object.keys(res.body.errors), `${name}=${value}`).to.satisfy((keys: string[]) =>
          keys.some((key) => key === name || key.startsWith(`${name}[`)),
        );
        expect(JSON.stringify(res.body)).to.not.contain(otherFilename);
      }
    }
    // Another company's document as the cursor, another account's RUC: refused, nothing of theirs shown.
    const [theirs] = await env.stack.db('documents').where({ company_id: other.row.id }).select('id');
    const cursor = await call(env.stack, 'GET', `/v1/cpe?before=${theirs.id}`, { token: mine.token });
    expect(cursor.status).to.equal(422);
    const foreign = await call(env.stack, 'GET', `/v1/cpe?ruc=${other.ruc}`, { token: mine.accountToken });
    expect(foreign.status).to.be.within(403, 404);
    expect(JSON.stringify(foreign.body)).to.not.contain(otherFilename);
    const plain = await call(env.stack, 'GET', '/v1/cpe', { token: mine.token });
    expect(plain.body.data.documents.map((d: { filename: string }) => d.filename)).to.not.include(otherFilename);
    expect(await documentCount()).to.equal(before);
  });

  it('a reference (console search, chasqui support find) is matched exactly: no wildcards, no SQL, bounded length', async () => {
    const [series, number] = otherFilename.split('-').slice(2);
    expect(await findDocumentsByReference(env.stack.db, `${series}-${number}`)).to.have.length.greaterThan(0);
    for (const reference of [
      '%',
      '_',
      `${series.slice(0, 3)}%-${number}`,
      `${series}-%`,
      "' OR '1'='1",
      'x'.repeat(100_000),
    ])
      expect(await findDocumentsByReference(env.stack.db, reference), reference.slice(0, 40)).to.deep.equal([]);
  });

  it("the console's search, signed in as an account: injections find nothing of another account's, reflect escaped, never 500", async () => {
    const tokenRow = await env.stack.db('api_tokens').where({ account_id: mine.accountId }).first('id');
    const session = await openConsoleSession(env.stack.db, {
      kind: 'account',
      name: 'cuenta de prueba',
      accountId: mine.accountId,
      apiTokenId: tokenRow.id,
    });
    const search = async (query: Record<string, string>) =>
      got(`${env.stack.url}/console/documents?${new URLSearchParams(query)}`, {
        headers: { Cookie: `${SESSION_COOKIE}=${session.id}` },
        throwHttpErrors: false,
        followRedirect: false,
        retry: { limit: 0 },
      });
    const [series, number] = otherFilename.split('-').slice(2);
    const queries: Record<string, string>[] = [
      { q: `${series}-${number}` },
      { q: '%' },
      { q: "' OR 1=1--" },
      { q: 'x'.repeat(4_000) },
      { serie: 'F0%' },
      { serie: "F001' OR '1'='1" },
      { desde: '2024-02-30' },
      { hasta: '2024-13-01' },
      { tipo: "01' OR '1'='1" },
      { ruc: other.ruc },
    ];
    for (const query of queries) {
      const res = await search(query);
      expect(res.statusCode, JSON.stringify(query)).to.be.below(500);
      expect(res.body, JSON.stringify(query)).to.not.contain(otherFilename);
    }
    const reflected = await search({ q: '<script>alert(1)</script>' });
    expect(reflected.statusCode).to.equal(200);
    expect(reflected.body).to.not.contain('<script>alert(1)</script>');
    expect(reflected.body).to.contain('&lt;script&gt;');
  });

  it('the /consulta form: hostile fields are refused and reflected escaped, an oversized body never reaches a parser', async () => {
    const post = (body: string) =>
      got.post(`${env.stack.url}/consulta`, {
        body,
        // No kept-alive socket is left behind a refused upload (the stack's stop would wait for it).
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Connection: 'close' },
        throwHttpErrors: false,
        retry: { limit: 0 },
      });
    const [series, number] = otherFilename.split('-').slice(2);
    const hostile = new URLSearchParams({
      ruc: `${other.ruc}' OR '1'='1`,
      tipo: '01',
      serie: '"><script>alert(1)</script>',
      numero: `${number} OR 1=1`,
      fecha: '2024-02-30',
      total: '%',
    });
    const res = await post(hostile.toString());
    expect(res.statusCode).to.be.below(500);
    expect(res.body).to.not.contain('<script>alert(1)</script>');
    expect(res.body).to.not.contain(`${series}-${number}`);
    const huge = await post(`ruc=${'1'.repeat(1024 * 1024)}`);
    expect(huge.statusCode).to.be.within(400, 499);
  });
});
