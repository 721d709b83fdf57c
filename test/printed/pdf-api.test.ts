import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import got from 'got';
import {
  call,
  expectDocumented,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { findDocument } from '../../db/documents';
import { webhookBody } from '../../activities/webhooks';
import { zipXml } from '../../authority/zip';
import { loadPdfReader, PdfFile, testPng as png } from '../support/pdf-tools';
import { metric } from '../support/metrics';
import { findPrintedPdf, keepPrintedPdf } from '../../db/printed-cache';

const GUIDE_CDR = path.resolve(__dirname, '../../sunat/samples/cdr/R-20000000001-09-T001-1.xml');
const QR_LINK =
  'https://e-factura.sunat.gob.pe/v1/contribuyente/gre/comprobantes/descargaqr?hashqr=xxxxxxxxxxxxxxxxxxxxxxxxxxx';

/** A GET answered with bytes (the PDF) rather than JSON. */
async function getBytes(env: IssuingStack, route: string, token: string) {
  const res = await got(`${env.stack.url}${route}`, {
    headers: { Authorization: `Bearer ${token}` },
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'buffer',
  });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

describe('GET /v1/cpe/{external_id}/pdf and PUT /v1/companies/{ruc}/logo', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let demo: TestCompany;
  before(async function () {
    this.timeout(120_000);
    await loadPdfReader();
    env = await startIssuingStack();
    demo = await newCompany(env.stack);
  });
  after(() => env?.stop());

  it("answers the PDF of the caller's document with SUNAT's file name (the ticket's ending in -ticket.pdf); the document and its webhook body link xml, cdr and pdf", async () => {
    const issued = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    expect(issued.status, JSON.stringify(issued.body)).to.equal(202);
    const id = issued.body.external_id;
    const [series, number] = issued.body.filename.split('-').slice(2);

    const names = { a4: `${issued.body.filename}.pdf`, ticket: `${issued.body.filename}-ticket.pdf` };
    for (const format of ['a4', 'ticket'] as const) {
      const res = await getBytes(env, `/v1/cpe/${id}/pdf?format=${format}`, demo.token);
      expect(res.status, format).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/pdf');
      expect(res.headers['content-disposition']).to.equal(
        `attachment; filename="${names[format]}"; filename*=UTF-8''${names[format]}`,
      );
      const file = new PdfFile(res.body);
      const text = file.text();
      expect(text)
        .to.contain(`${series}-${number}`)
        .and.contain(demo.ruc)
        .and.contain('S/ 118.00')
        .and.contain('SON CIENTO DIECIOCHO CON 00/100 SOLES');
      // A demo company's documents have no tax value, and say so.
      expect(text).to.contain('DEMO — SIN VALOR TRIBUTARIO');
      expect(file.qr()[0].split('|')).to.deep.equal([
        demo.ruc,
        '01',
        series,
        number,
        '18.00',
        '118.00',
        '2024-03-15',
        '6',
        '20600000005',
        issued.body.hash,
        '',
      ]);
    }
    const byDefault = await getBytes(env, `/v1/cpe/${id}/pdf`, demo.token);
    const a4 = new PdfFile(byDefault.body).pageSize();
    expect([a4.width, a4.height].map((points) => points.toFixed(2))).to.deep.equal(['595.28', '841.89']);

    const done = await until(env.stack, id, ['accepted', 'observed', 'rejected']);
    const got = await call(env.stack, 'GET', `/v1/cpe/${id}`, { token: demo.token });
    const links = { xml: `/v1/cpe/${id}/xml`, cdr: `/v1/cpe/${id}/cdr`, pdf: `/v1/cpe/${id}/pdf` };
    expect(done.cdr_zip, 'the simulator answered with a CDR').to.be.a('string');
    expect(got.body.data.document.links).to.deep.equal(links);
    await expectDocumented(env.stack, 'GET /v1/cpe/{external_id}', got);
    expect(JSON.parse(webhookBody(done, new Date())).document.links).to.deep.equal(links);
  });

  it('same authorisation as GET /v1/cpe/{id}: another company gets 403, an unknown id 404, no token 401; a bad format 422', async () => {
    const issued = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    const id = issued.body.external_id;
    const other = await newCompany(env.stack);
    const foreign = await getBytes(env, `/v1/cpe/${id}/pdf`, other.token);
    expect(foreign.status).to.equal(403);
    expect(JSON.parse(foreign.body.toString()).message).to.equal('The document belongs to another company');
    expect((await getBytes(env, '/v1/cpe/00000000-0000-4000-8000-000000000000/pdf', demo.token)).status).to.equal(404);
    expect((await getBytes(env, `/v1/cpe/${id}/pdf`, 'chq_sig_nope')).status).to.equal(401);
    const bad = await getBytes(env, `/v1/cpe/${id}/pdf?format=letter`, demo.token);
    expect(bad.status).to.equal(422);
    expect(JSON.parse(bad.body.toString()).errors).to.deep.equal({ format: ['must be a4 or ticket'] });
  });

  it('marks a rejected document RECHAZADO and prints production documents without DEMO', async () => {
    const production = await newCompany(env.stack, { environment: '02', quota: 5 });
    const issued = await issue(env.stack, production.token, payload('invoice-basic.json', production.ruc));
    expect(issued.status, JSON.stringify(issued.body)).to.equal(202);
    const id = issued.body.external_id;
    await until(env.stack, id, ['accepted', 'observed', 'rejected']);
    const valid = new PdfFile((await getBytes(env, `/v1/cpe/${id}/pdf`, production.token)).body).text();
    expect(valid).to.not.contain('DEMO').and.not.contain('RECHAZADO');
    await env.stack.db('documents').where({ id }).update({ status: 'rejected', status_code: '09' });
    expect(new PdfFile((await getBytes(env, `/v1/cpe/${id}/pdf`, production.token)).body).text()).to.contain(
      'RECHAZADO',
    );
  });

  it('marks a document ANULADO once the ra that voids it is accepted, not before', async () => {
    const issued = await issue(env.stack, demo.token, payload('invoice-basic.json', demo.ruc));
    const id = issued.body.external_id;
    expect((await until(env.stack, id, ['accepted', 'observed', 'rejected'])).status).to.equal('accepted');
    const voided = await call(env.stack, 'POST', `/v1/cpe/${id}/void`, {
      token: demo.token,
      json: { reason: 'Error en el RUC del cliente' },
    });
    expect(voided.status, JSON.stringify(voided.body)).to.equal(202);
    const raId = voided.body.data.void.document.external_id;
    // Hold the ra's verdict (the delivery of voids is the summaries suite's business): sent, then accepted.
    await env.stack.db('documents').where({ id: raId }).update({ status: 'sent', resolved: false });
    const text = async () => new PdfFile((await getBytes(env, `/v1/cpe/${id}/pdf`, demo.token)).body).text();
    expect(await text()).to.not.contain('ANULADO');
    await env.stack
      .db('documents')
      .where({ id: raId })
      .update({ status: 'accepted', status_code: '06', resolved: true });
    expect(await text()).to.contain('DEMO — SIN VALOR TRIBUTARIO · ANULADO');
  });

  it("a despatch guide says it is pending until its CDR is there, then prints the CDR's QR link", async () => {
    const issued = await issue(env.stack, demo.token, payload('gre-09-venta-privado.json', demo.ruc));
    expect(issued.status, JSON.stringify(issued.body)).to.equal(202);
    const id = issued.body.external_id;
    await env.stack.db('documents').where({ id }).update({ cdr_zip: null });
    const pending = new PdfFile((await getBytes(env, `/v1/cpe/${id}/pdf`, demo.token)).body);
    expect(pending.qr()).to.deep.equal([]);
    expect(pending.text().replace(/\s+/g, ' ')).to.contain('Guía pendiente de la constancia de SUNAT (CDR)');

    const cdr = zipXml(
      `R-${(await findDocument(env.stack.db, id))!.filename}`,
      fs.readFileSync(GUIDE_CDR, 'utf8'),
    ).toString('base64');
    await env.stack.db('documents').where({ id }).update({ cdr_zip: cdr });
    for (const format of ['a4', 'ticket']) {
      const file = new PdfFile((await getBytes(env, `/v1/cpe/${id}/pdf?format=${format}`, demo.token)).body);
      expect(file.qr(), format).to.deep.equal([QR_LINK]);
      expect(file.text()).to.contain('GUÍA DE REMISIÓN REMITENTE ELECTRÓNICA');
    }
  });

  it('summaries have no printed representation (422 and links.pdf null)', async () => {
    const [row] = await env.stack.db('documents').where({ company_id: demo.row.id }).limit(1);
    await env.stack.db('documents').where({ id: row.id }).update({ doc_type: 'rc' });
    const res = await getBytes(env, `/v1/cpe/${row.id}/pdf`, demo.token);
    expect(res.status).to.equal(422);
    expect(JSON.parse(res.body.toString()).message).to.contain('has no printed representation');
    expect(
      (await call(env.stack, 'GET', `/v1/cpe/${row.id}`, { token: demo.token })).body.data.document.links.pdf,
    ).to.equal(null);
  });

  it('logo: PUT stores a validated PNG that the PDFs then carry; GET returns it, DELETE removes it; bad uploads are refused', async () => {
    const company = await newCompany(env.stack);
    const route = `/v1/companies/${company.ruc}/logo`;
    const put = (body: Buffer, type: string, token = company.accountToken) =>
      call(env.stack, 'PUT', route, { token, body, headers: { 'content-type': type } });
    const logo = png(160, 60);

    const stored = await put(logo, 'image/png');
    expect(stored.status, JSON.stringify(stored.body)).to.equal(200);
    expect(stored.body.data.logo).to.include({ content_type: 'image/png', bytes: logo.length, width: 160, height: 60 });
    const back = await getBytes(env, route, company.accountToken);
    expect(back.headers['content-type']).to.equal('image/png');
    expect(back.body.equals(logo)).to.equal(true);

    const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
    const pdf = async () =>
      new PdfFile((await getBytes(env, `/v1/cpe/${issued.body.external_id}/pdf`, company.token)).body);
    expect((await pdf()).images()).to.equal(1);

    expect((await put(logo, 'image/jpeg')).body.errors).to.deep.equal({
      logo: ['the image is a image/png, not the image/jpeg its Content-Type says'],
    });
    const corrupt = Buffer.from(logo);
    corrupt[corrupt.length - 20] ^= 0xff;
    const refused = await put(corrupt, 'image/png');
    expect(refused.status).to.equal(422);
    expect(refused.body.message).to.match(/^The logo cannot be used: the PNG's \w+ chunk is corrupt \(CRC\)$/);
    expect((await put(Buffer.from('{"logo":1}'), 'application/json')).status).to.equal(415);
    expect((await put(Buffer.alloc(300 * 1024, 1), 'image/png')).status).to.equal(413);
    expect((await put(logo, 'image/png', company.token)).status, 'a signing token cannot manage the company').to.equal(
      403,
    );

    expect((await call(env.stack, 'DELETE', route, { token: company.accountToken })).status).to.equal(200);
    expect((await getBytes(env, route, company.accountToken)).status).to.equal(404);
    expect((await pdf()).images()).to.equal(0);
  });

  it('renders the same bytes once (the printed cache), and again when the state, the logo or the format changes', async () => {
    const company = await newCompany(env.stack);
    const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
    const route = `/v1/cpe/${issued.body.external_id}/pdf`;
    const count = async () => ({
      rendered: await metric(env.stack.url, 'chasqui_heavy_task_seconds_count', { kind: 'pdf', outcome: 'ok' }),
      hits: await metric(env.stack.url, 'chasqui_printed_cache_lookups_total', { outcome: 'hit' }),
    });
    const get = async () => {
      const before = await count();
      const res = await getBytes(env, route, company.token);
      expect(res.status).to.equal(200);
      const after = await count();
      return { body: res.body, rendered: after.rendered - before.rendered, hit: after.hits - before.hits };
    };
    const first = await get();
    expect(first).to.include({ rendered: 1, hit: 0 });
    const second = await get();
    expect(second, 'the second ask is served from the cache').to.include({ rendered: 0, hit: 1 });
    expect(second.body.equals(first.body)).to.equal(true);
    // A new state is a new key: the document rejected prints RECHAZADO at once, never the cached PDF.
    await env.stack.db('documents').where({ id: issued.body.external_id }).update({ status: 'rejected' });
    const rejected = await get();
    expect(rejected).to.include({ rendered: 1, hit: 0 });
    expect(new PdfFile(rejected.body).text()).to.contain('RECHAZADO');
    // So is a new logo.
    const logo = await call(env.stack, 'PUT', `/v1/companies/${company.ruc}/logo`, {
      token: company.accountToken,
      body: png(120, 40),
      headers: { 'content-type': 'image/png' },
    });
    expect(logo.status).to.equal(200);
    const withLogo = await get();
    expect(withLogo).to.include({ rendered: 1, hit: 0 });
    expect(new PdfFile(withLogo.body).images()).to.equal(1);
  });

  it('keeps the printed cache within its size and age bounds', async () => {
    const bounds = { maxBytes: 4_000, maxAgeSeconds: 3_600 };
    const keys = [1, 2, 3, 4, 5].map((n) => `bounds-test-${process.pid}-${Date.now()}-${n}`);
    // Five PDFs of 1,000 bytes in 4,000: each write drops, oldest first, what no longer fits.
    for (const key of keys) await keepPrintedPdf(env.stack.db, key, Buffer.alloc(1_000, 1), bounds);
    const kept = await Promise.all(keys.map((key) => findPrintedPdf(env.stack.db, key, bounds)));
    expect(
      kept.map((pdf) => pdf !== null),
      'the oldest went to make room',
    ).to.deep.equal([false, true, true, true, true]);
    // Past its age a PDF is not served.
    expect(await findPrintedPdf(env.stack.db, keys[4], { ...bounds, maxAgeSeconds: 0 })).to.equal(null);
    // Larger than a quarter of the bound: not kept at all.
    const large = `${keys[0]}-large`;
    await keepPrintedPdf(env.stack.db, large, Buffer.alloc(1_001), bounds);
    expect(await findPrintedPdf(env.stack.db, large, bounds)).to.equal(null);
    await env.stack.db('printed_cache').whereIn('key', keys).delete();
  });
});
