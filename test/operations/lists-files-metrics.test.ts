import { expect } from 'chai';
import got from 'got';
import { unzipSync } from 'fflate';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  until,
  call,
  expectDocumented,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { findDocument } from '../../db/documents';
import { updateCompany } from '../../db/companies';
import { documentWorkflowId } from '../../workflows/document';
import { metric } from '../support/metrics';

/**
 * GET /v1/cpe (every filter, pagination while documents are added, isolation, bounds), GET /v1/companies pages, the
 * files, GET /v1/account, /metrics, and the Temporal UI's search attributes, against the real stack.
 */
describe('operations: document list, files, account, metrics, search attributes', function () {
  this.timeout(120_000);
  let s: IssuingStack;
  let a: TestCompany;
  const ids: Record<string, string> = {};

  const list = (token: string, query = '') => call(s.stack, 'GET', `/v1/cpe${query}`, { token });
  const idsOf = (res: { body: any }) => res.body.data.documents.map((d: { external_id: string }) => d.external_id);

  before(async function () {
    this.timeout(180_000);
    s = await startIssuingStack();
    a = await newCompany(s.stack);
    const issued = async (name: string, fixture: string, changes: Record<string, unknown>) => {
      const res = await issue(s.stack, a.token, payload(fixture, a.ruc, changes));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      ids[name] = res.body.external_id;
    };
    await issued('f1', 'invoice-basic.json', { serie: 'F001', fechaEmision: '2024-03-15' });
    await issued('f2', 'invoice-basic.json', {
      serie: 'F002',
      fechaEmision: '2024-03-20',
      cliente: { tipoDoc: '6', numDoc: '20100066603', nombre: 'Otra S.A.' },
    });
    await issued('b1', 'receipt-basic.json', { fechaEmision: '2024-03-18' });
    for (const id of [ids.f1, ids.f2, ids.b1]) await until(s.stack, id, ['accepted']);
    await updateCompany(s.stack.db, a.row.id, { sending_mode: 'manual' });
    await issued('m1', 'invoice-basic.json', { serie: 'F001', fechaEmision: '2024-03-21' });
  });
  after(async () => s?.stop());

  it('lists newest first with the document shape, and answers every filter from the index', async () => {
    const all = await list(a.token);
    expect(all.status).to.equal(200);
    expect(idsOf(all)).to.deep.equal([ids.m1, ids.b1, ids.f2, ids.f1]);
    expect(all.body.data.next_before).to.equal(null);
    const item = all.body.data.documents[0];
    expect(item).to.include({
      external_id: ids.m1,
      status: 'to_send',
      resolved: false,
      document_type_id: '01',
      series: 'F001',
    });
    expect(item).to.not.have.property('xml');
    await expectDocumented(s.stack, 'GET /v1/cpe', all);

    const f1 = (await findDocument(s.stack.db, ids.f1))!;
    const cases: [string, string[]][] = [
      ['?status=accepted', [ids.b1, ids.f2, ids.f1]],
      ['?status=to_send', [ids.m1]],
      ['?status=to_send,rejected&status=accepted', [ids.m1, ids.b1, ids.f2, ids.f1]],
      ['?tipoDoc=03', [ids.b1]],
      ['?serie=F002', [ids.f2]],
      [`?serie=F001&correlativo=${f1.number}`, [ids.f1]],
      ['?desde=2024-03-16&hasta=2024-03-20', [ids.f2, ids.b1]],
      ['?desde=2024-03-21', [ids.m1]],
      ['?resolved=false', [ids.m1]],
      ['?resolved=true&tipoDoc=01', [ids.f2, ids.f1]],
      ['?cliente=20100066603', [ids.f2]],
      ['?cliente=20600000005', [ids.m1, ids.f1]],
    ];
    for (const [query, expected] of cases) expect(idsOf(await list(a.token, query)), query).to.deep.equal(expected);
  });

  it('pages with before → next_before, with no duplicate and no gap while documents are being added', async () => {
    const before = idsOf(await list(a.token, '?limit=200'));
    const seen: string[] = [];
    let cursor: string | null = null;
    let added = 0;
    do {
      const res = await list(a.token, `?limit=2${cursor ? `&before=${cursor}` : ''}`);
      expect(res.status).to.equal(200);
      seen.push(...idsOf(res));
      cursor = res.body.data.next_before;
      // A new document lands between two pages: it is newer than every page, so it shifts nothing.
      if (added++ < 2)
        expect((await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc))).status).to.equal(202);
    } while (cursor);
    expect(new Set(seen).size).to.equal(seen.length);
    expect(seen).to.deep.equal(before);
  });

  it('another company sees nothing; an account token names its company with ruc=', async () => {
    const b = await newCompany(s.stack);
    expect(idsOf(await list(b.token))).to.deep.equal([]);
    expect(idsOf(await list(b.token, `?cliente=20600000005`))).to.deep.equal([]);
    const foreignCursor = await list(b.token, `?before=${ids.f1}`);
    expect(foreignCursor.status).to.equal(422);
    const byAccount = await list(a.accountToken, `?ruc=${a.ruc}&tipoDoc=03`);
    expect(idsOf(byAccount)).to.deep.equal([ids.b1]);
    expect((await list(b.accountToken, `?ruc=${a.ruc}`)).status).to.equal(403);
    expect((await list(a.accountToken)).status).to.equal(422);
    expect((await list(a.token, `?ruc=${a.ruc}`)).status).to.equal(422);
  });

  it('refuses out-of-bounds and malformed filters with 422 naming the field', async () => {
    const bad: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?before=nope', 'before'],
      ['?status=lost', 'status[0]'],
      ['?tipoDoc=99', 'tipoDoc'],
      ['?serie=F0001', 'serie'],
      ['?correlativo=0', 'correlativo'],
      ['?desde=2024-02-30', 'desde'],
      ['?desde=2024-03-20&hasta=2024-03-01', 'desde'],
      ['?resolved=maybe', 'resolved'],
      ['?cliente=%27%3B', 'cliente'],
    ];
    for (const [query, field] of bad) {
      const res = await list(a.token, query);
      expect(res.status, query).to.equal(422);
      expect(res.body.errors, query).to.have.property(field);
    }
  });

  it('GET /v1/companies pages the same way', async () => {
    const account = await newCompany(s.stack);
    const second = await newCompany(s.stack, {
      accountToken: { accountId: account.accountId, token: account.accountToken },
    });
    const third = await newCompany(s.stack, {
      accountToken: { accountId: account.accountId, token: account.accountToken },
    });
    const first = await call(s.stack, 'GET', '/v1/companies?limit=2', { token: account.accountToken });
    expect(first.body.data.companies.map((c: { ruc: string }) => c.ruc)).to.deep.equal([third.ruc, second.ruc]);
    expect(first.body.data.next_before).to.equal(second.ruc);
    const next = await call(s.stack, 'GET', `/v1/companies?limit=2&before=${second.ruc}`, {
      token: account.accountToken,
    });
    expect(next.body.data.companies.map((c: { ruc: string }) => c.ruc)).to.deep.equal([account.ruc]);
    expect(next.body.data.next_before).to.equal(null);
    await expectDocumented(s.stack, 'GET /v1/companies', next);
    expect((await call(s.stack, 'GET', '/v1/companies?limit=500', { token: account.accountToken })).status).to.equal(
      422,
    );
  });

  it('serves the signed XML as stored and the CDR zip as received; 404 while there is no CDR; 403 for another company', async () => {
    const stored = (await findDocument(s.stack.db, ids.f1))!;
    const xml = await got(`${s.stack.url}/v1/cpe/${ids.f1}/xml`, { headers: { Authorization: `Bearer ${a.token}` } });
    expect(xml.headers['content-type']).to.match(/^application\/xml/);
    expect(xml.headers['content-disposition']).to.equal(
      `attachment; filename="${stored.filename}.xml"; filename*=UTF-8''${stored.filename}.xml`,
    );
    expect(xml.body).to.equal(stored.xml);

    const cdr = await got(`${s.stack.url}/v1/cpe/${ids.f1}/cdr`, {
      headers: { Authorization: `Bearer ${a.token}` },
    }).buffer();
    expect(cdr.equals(Buffer.from(stored.cdr_zip!, 'base64'))).to.equal(true);
    expect(Object.keys(unzipSync(new Uint8Array(cdr)))).to.include(`R-${stored.filename}.xml`);

    const none = await call(s.stack, 'GET', `/v1/cpe/${ids.m1}/cdr`, { token: a.token });
    expect(none.status).to.equal(404);
    expect(none.body.message).to.match(/no CDR yet: it is to_send/);
    await expectDocumented(s.stack, 'GET /v1/cpe/{external_id}/cdr', none);
    const other = await newCompany(s.stack);
    expect((await call(s.stack, 'GET', `/v1/cpe/${ids.f1}/xml`, { token: other.token })).status).to.equal(403);
  });

  it('GET /v1/account: plan 01 signatures left and used, companies per environment', async () => {
    const prod = await newCompany(s.stack, { quota: 5, environment: '02' });
    await newCompany(s.stack, { accountToken: { accountId: prod.accountId, token: prod.accountToken } });
    const issued = await issue(s.stack, prod.token, payload('invoice-basic.json', prod.ruc));
    expect(issued.status).to.equal(202);
    const res = await call(s.stack, 'GET', '/v1/account', { token: prod.accountToken });
    expect(res.status).to.equal(200);
    expect(res.body.data.account.plan_01).to.deep.equal({ signatures_left: '4.000', signatures_used: '1.000' });
    expect(res.body.data.account.companies).to.equal(2);
    expect(res.body.data.account.environments.production).to.include({ companies: 1, documents_signed: 1 });
    expect(res.body.data.account.environments.demo).to.include({ companies: 1 });
    await expectDocumented(s.stack, 'GET /v1/account', res);
    expect((await call(s.stack, 'GET', '/v1/account', { token: prod.token })).status).to.equal(403);
    await until(s.stack, issued.body.external_id, ['accepted']);
  });

  it('/metrics counts exactly one more accepted invoice after one is accepted, and a 402 refusal', async () => {
    const labels = { doc_type: '01', status: 'accepted' };
    await updateCompany(s.stack.db, a.row.id, { sending_mode: 'automatic' });
    // Earlier documents of this suite (pagination) may still be resolving: wait until none is in flight.
    for (const row of await s.stack.db('documents').where({ company_id: a.row.id, status: 'queued' }))
      await until(s.stack, row.id, ['accepted']);
    const before = await metric(s.stack.url, 'chasqui_documents_total', labels);
    const res = await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc));
    await until(s.stack, res.body.external_id, ['accepted']);
    expect(await metric(s.stack.url, 'chasqui_documents_total', labels)).to.equal(before + 1);
    const refusedBefore = await metric(s.stack.url, 'chasqui_refusals_total', { reason: 'plan' });
    const broke = await newCompany(s.stack, { quota: 0, environment: '02' });
    expect((await issue(s.stack, broke.token, payload('invoice-basic.json', broke.ruc))).status).to.equal(402);
    expect(await metric(s.stack.url, 'chasqui_refusals_total', { reason: 'plan' })).to.equal(refusedBefore + 1);
    const text = await got(`${s.stack.url}/metrics`).text();
    for (const name of [
      'chasqui_document_verdict_seconds_bucket',
      'chasqui_authority_calls_total',
      'chasqui_unresolved_documents',
      'chasqui_http_request_seconds_bucket',
    ]) {
      expect(text, name).to.include(`${name}{`);
    }
  });

  it('the Temporal UI finds a document by DocNumber and shows RUC-TT-SERIE-NUMERO and the company name', async () => {
    const doc = (await findDocument(s.stack.db, ids.f2))!;
    const query = `DocNumber = "F002-${doc.number}" AND Ruc = "${a.ruc}"`;
    let found: string[] = [];
    for (let i = 0; i < 50 && found.length === 0; i++) {
      found = [];
      for await (const wf of s.stack.temporal.workflow.list({ query })) found.push(wf.workflowId);
      if (!found.length) await new Promise((r) => setTimeout(r, 200));
    }
    expect(found).to.deep.equal([documentWorkflowId(ids.f2)]);
    const description = await s.stack.temporal.workflow.getHandle(documentWorkflowId(ids.f2)).describe();
    expect(await description.staticSummary()).to.equal(doc.filename);
    expect(await description.staticDetails()).to.include(a.row.business_name);
    const issueDate = description.typedSearchAttributes.get({
      name: 'IssueDate',
      type: 'DATETIME',
    } as never) as unknown as Date;
    expect(issueDate.toISOString()).to.equal('2024-03-20T05:00:00.000Z');
  });
});
