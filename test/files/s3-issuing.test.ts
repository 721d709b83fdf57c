import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import got from 'got';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  until,
  call,
  documentCount,
  expectDocumented,
} from '../issuing/support';
import type { IssuingStack, TestCompany } from '../issuing/support';
import { keysOf, startTestS3, type TestS3 } from '../support/s3';
import { findDocument } from '../../db/documents';
import { signedFilePath } from '../../buyers/links';
import { readAll } from '../../files/store';
import { metric } from '../support/metrics';
import { startSmtpServer, type SmtpServerHandle } from '../buyers/support';
import { testConfig } from '../support/services';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * CHASQUI_FILES_URL=s3://… against a real S3-compatible server (versitygw, built from the Go module proxy): the signed
 * XML and the CDR go to the bucket before the row names them, every surface reads them back through the store and
 * checks their hash, and a store that is down is answered 503 before anything is acknowledged.
 */
describe('files: the S3 backend under issuing', function () {
  this.timeout(180_000);
  let s3: TestS3;
  let s: IssuingStack;
  let a: TestCompany;
  let accepted: string;
  let smtp: SmtpServerHandle;

  const objectBytes = async (key: string) =>
    readAll(
      (await s3.client.send(new GetObjectCommand({ Bucket: s3.location.bucket, Key: `${s3.location.prefix}/${key}` })))
        .Body as NodeJS.ReadableStream as never,
    );

  before(async function () {
    this.timeout(600_000);
    s3 = await startTestS3();
    smtp = await startSmtpServer();
    const base = testConfig();
    s = await startIssuingStack({
      files: s3.location,
      buyers: { ...base.buyers, smtpUrl: smtp.url(), mailFrom: 'Facturación <facturas@chasqui.test>' },
    });
    a = await newCompany(s.stack);
    const res = await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc, { fechaEmision: '2024-03-15' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    accepted = res.body.external_id;
    await until(s.stack, accepted, ['accepted']);
  });

  after(async () => {
    await s?.stop();
    await s3?.stop();
    await smtp?.close();
  });

  it('keeps the signed XML and the CDR in the bucket under RUC/type/year/month/<sha256>, and only their SHA-256 and size in the row', async () => {
    const row = (await findDocument(s.stack.db, accepted))!;
    expect(row.xml).to.equal(null);
    expect(row.cdr_zip).to.equal(null);
    expect(keysOf(row).xml).to.match(new RegExp(`^${a.ruc}/01/2024/03/[0-9a-f]{64}\\.xml$`));
    expect(keysOf(row).cdr).to.match(new RegExp(`^${a.ruc}/01/2024/03/[0-9a-f]{64}\\.zip$`));
    const xml = await objectBytes(keysOf(row).xml!);
    const cdr = await objectBytes(keysOf(row).cdr!);
    expect(row.xml_sha256!.toString('hex')).to.equal(sha256(xml));
    expect(row.cdr_sha256!.toString('hex')).to.equal(sha256(cdr));
    expect([row.xml_size, row.cdr_size]).to.deep.equal([xml.length, cdr.length]);
    expect(xml.toString('utf8')).to.contain('<ds:Signature');
    // The CDR is SUNAT's zip, as received (a zip starts PK).
    expect(cdr.subarray(0, 2).toString('latin1')).to.equal('PK');
  });

  it('serves the XML and the CDR from the bucket (API, /consulta), and the PDF renders from it', async () => {
    const row = (await findDocument(s.stack.db, accepted))!;
    const auth = { headers: { Authorization: `Bearer ${a.token}` } };
    const xml = await got(`${s.stack.url}/v1/cpe/${accepted}/xml`, auth).buffer();
    expect(sha256(xml)).to.equal(/([0-9a-f]{64})\.xml$/.exec(keysOf(row).xml!)![1]);
    const cdr = await got(`${s.stack.url}/v1/cpe/${accepted}/cdr`, auth);
    expect(cdr.headers['content-length']).to.equal(String(row.cdr_size));
    expect(sha256(cdr.rawBody)).to.equal(/([0-9a-f]{64})\.zip$/.exec(keysOf(row).cdr!)![1]);
    const pdf = await got(`${s.stack.url}/v1/cpe/${accepted}/pdf`, auth).buffer();
    expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    const link = await got(`${s.stack.url}${signedFilePath(s.stack.secrets, accepted, 'xml')}`).buffer();
    expect(link.equals(xml)).to.equal(true);
    // GET answers links.cdr from the key (the CDR is not in the row).
    const one = await call(s.stack, 'GET', `/v1/cpe/${accepted}`, { token: a.token });
    expect(one.body.data.document.links.cdr).to.equal(`/v1/cpe/${accepted}/cdr`);
    const listed = await call(s.stack, 'GET', '/v1/cpe?limit=50', { token: a.token });
    const inList = listed.body.data.documents.find((d: { external_id: string }) => d.external_id === accepted);
    expect(inList.links.cdr).to.equal(`/v1/cpe/${accepted}/cdr`);
  });

  it('a replay of the same bytes answers the stored XML read back from the bucket', async () => {
    const body = payload('invoice-basic.json', a.ruc);
    const first = await issue(s.stack, a.token, body);
    const again = await issue(s.stack, a.token, body);
    expect(again.status).to.equal(202);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body.xml).to.equal(first.body.xml);
    const row = (await findDocument(s.stack.db, first.body.external_id))!;
    expect(sha256(Buffer.from(first.body.xml, 'base64'))).to.equal(/([0-9a-f]{64})\.xml$/.exec(keysOf(row).xml!)![1]);
  });

  it("the buyer's e-mail attaches the XML and the CDR read from the bucket", async () => {
    const patched = await call(s.stack, 'PATCH', `/v1/companies/${a.ruc}/email`, {
      token: a.accountToken,
      json: { attach_cdr: true },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const body = payload('invoice-basic.json', a.ruc);
    body.cliente = { ...body.cliente, correo: 'compras@cliente.pe' };
    const res = await issue(s.stack, a.token, body);
    const row = await until(s.stack, res.body.external_id, ['accepted'], 60_000, (r) => r.email_status === 'sent');
    const mail = smtp.mails.find((m) => m.parsed.subject?.includes(`F001-${Number(row.number)} `))!;
    const attachments = Object.fromEntries(mail.parsed.attachments.map((x) => [x.filename, x.content]));
    expect(Object.keys(attachments).sort()).to.deep.equal([
      `${row.filename}.pdf`,
      `${row.filename}.xml`,
      `R-${row.filename}.zip`,
    ]);
    expect(attachments[`${row.filename}.xml`].equals(await objectBytes(keysOf(row).xml!))).to.equal(true);
    expect(attachments[`R-${row.filename}.zip`].equals(await objectBytes(keysOf(row).cdr!))).to.equal(true);
  });

  it("a void's ra, generated by chasqui, goes to the bucket before its row like every document", async () => {
    const res = await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc));
    const invoice = await until(s.stack, res.body.external_id, ['accepted']);
    const voided = await call(s.stack, 'POST', `/v1/cpe/${invoice.id}/void`, {
      token: a.token,
      json: { reason: 'Error en el RUC del cliente' },
    });
    expect(voided.status, JSON.stringify(voided.body)).to.equal(202);
    const ra = (await findDocument(s.stack.db, voided.body.data.void.document.external_id))!;
    expect(ra.xml).to.equal(null);
    expect(keysOf(ra).xml).to.match(new RegExp(`^${a.ruc}/ra/\\d{4}/\\d{2}/[0-9a-f]{64}\\.xml$`));
    expect((await objectBytes(keysOf(ra).xml!)).toString('utf8'))
      .to.contain(`<sac:DocumentSerialID>${invoice.series}</sac:DocumentSerialID>`)
      .and.contain('Error en el RUC del cliente');
  });

  it('a damaged object is a clear 409 and a metric, never wrong bytes nor a 5xx', async () => {
    const res = await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc, { fechaEmision: '2024-04-02' }));
    // Sent and answered first: the worker reads the XML too (and would count the damage itself).
    const row = await until(s.stack, res.body.external_id, ['accepted']);
    // The server keeps objects as files under its directory: one byte changed behind chasqui's back.
    const file = path.join(s3.dataDir, 'objects', s3.location.bucket, s3.location.prefix, keysOf(row).xml!);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 10] ^= 1;
    fs.writeFileSync(file, bytes);
    const before = await metric(s.stack.url, 'chasqui_file_integrity_failures_total', {
      kind: 'xml',
      store: 's3',
      reason: 'hash',
    });
    const download = await call(s.stack, 'GET', `/v1/cpe/${row.id}/xml`, { token: a.token });
    expect(download.status).to.equal(409);
    await expectDocumented(s.stack, 'GET /v1/cpe/{external_id}/xml', download);
    expect(download.body.message).to.match(/does not match its recorded SHA-256 .*restore it from a backup/);
    expect(JSON.stringify(download.body)).not.to.match(/\bat .*\.ts:\d+/);
    expect(
      await metric(s.stack.url, 'chasqui_file_integrity_failures_total', { kind: 'xml', store: 's3', reason: 'hash' }),
    ).to.equal(before + 1);
  });

  it('with the store down, POST /v1/cpe answers 503 with Retry-After and acknowledges nothing; once back, it issues', async () => {
    const documents = await documentCount(s.stack, a.row.id);
    await s3.server.kill();
    try {
      const refused = await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(503);
      expect(refused.headers['retry-after']).to.equal('5');
      expect(refused.body.message).to.match(/file store is unavailable; nothing was done/);
      expect(await documentCount(s.stack, a.row.id)).to.equal(documents);
      await expectDocumented(s.stack, 'POST /v1/cpe', refused);
      const ready = await call(s.stack, 'GET', '/readyz');
      expect(ready.status).to.equal(503);
      expect(ready.body.data.files).to.match(/^unreachable: /);
      const download = await call(s.stack, 'GET', `/v1/cpe/${accepted}/xml`, { token: a.token });
      expect([download.status, download.headers['retry-after']]).to.deep.equal([503, '5']);
    } finally {
      await s3.server.restart();
    }
    expect((await call(s.stack, 'GET', '/readyz')).body.data.files).to.equal('ok');
    const res = await issue(s.stack, a.token, payload('invoice-basic.json', a.ruc));
    expect(res.status).to.equal(202);
    await until(s.stack, res.body.external_id, ['accepted']);
    expect(await documentCount(s.stack, a.row.id)).to.equal(documents + 1);
  });
});
