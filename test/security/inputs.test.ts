import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
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
import { testConfig } from '../support/services';
import { createRouters } from '../../api/app';
import { ISSUE_BODY_LIMIT, JSON_BODY_LIMIT } from '../../api/middleware/body';
import { findDocument } from '../../db/documents';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { UPLOAD_BOUNDS } from '../../documents/xml/bounds';
import { filesCommand } from '../../cli/commands/files';
import { logger } from '../../core/logger';
import { describeDocument, NotXmlError } from '../../validator/detect';
import { up as fillExternalTotals } from '../../db/migrations/20261207100000_external_totals';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Every file under `root`, as paths relative to it. */
function storedFiles(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.relative(root, path.join(entry.parentPath, entry.name))] : []));
}

/** An invoice of `lines` lines as the issuer signs it; `edit` changes the unsigned XML first. */
function signedInvoice(
  ruc: string,
  lines: number,
  signer: ReturnType<typeof createSigner>,
  edit = (xml: string) => xml,
) {
  const doc = payload('invoice-basic.json', ruc);
  doc.items = Array.from({ length: Math.min(lines, 999) }, () => doc.items[0]);
  const prepared = prepareDocument(doc);
  let xml = prepared.xml;
  // JSON stops at 999 lines: the thousandth is the last one again, as an issuer's own software may write it.
  if (lines > 999) {
    const last = xml.slice(xml.lastIndexOf('<cac:InvoiceLine>'), xml.lastIndexOf('</cac:InvoiceLine>') + 18);
    xml = xml.replace(last, last + last.replace(/<cbc:ID>999<\/cbc:ID>/, '<cbc:ID>1000</cbc:ID>'));
  }
  const signed = signXml(edit(xml), signer);
  return { ...signed, number: doc.correlativo as string, date: doc.fechaEmision as string, prepared };
}

/**
 * One request whose body is `size` bytes, sent chunked (no Content-Length) or declared, on a keep-alive connection of
 * its own (as got and curl send): the status it got, else the error that ended it.
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  size: number,
  chunked: boolean,
): Promise<number | string> {
  return new Promise((resolve) => {
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(url, {
      method,
      agent,
      headers: chunked ? headers : { ...headers, 'Content-Length': size },
    });
    let outcome: number | string = 'no answer';
    req.on('response', (res) => {
      outcome = res.statusCode!;
      res.resume();
      res.on('end', () => agent.destroy());
    });
    req.on('error', (err) => {
      if (typeof outcome === 'string') outcome = `error ${err.message}`;
      agent.destroy();
    });
    req.on('close', () => resolve(outcome));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/**
 * Issue 40, item 1: inputs capped where they enter, the same for every path. An externally signed document gets the
 * rules of a JSON one before anything is stored (lines, size, a calendar IssueDate, its total kept for /consulta); the
 * XML is measured before a parser holds it; a body past its limit is a 413 whether or not it declared its length.
 */
describe('security: inputs capped where they enter (issue 40)', function () {
  this.timeout(300_000);
  const base = testConfig();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-inputs-'));
  const signer = createSigner(generateTestCertificate());
  let env: IssuingStack;
  let company: TestCompany;
  before(async () => {
    env = await startIssuingStack(
      {
        files: { kind: 'directory', path: root },
        buyers: { ...base.buyers, consultaRate: { limit: 1000, windowSeconds: 60 } },
      },
      { worker: false },
    );
    company = await newCompany(env.stack, { settings: { destination: 'provider_ose', signing: 'external' } });
  });
  after(() => env?.stop());

  /** Issues `xml` and checks the refusal: 422, the 7.2 body naming `expected`, no row and no file written. */
  async function refused(xml: string, expected: RegExp) {
    const before = storedFiles(root).length;
    const [{ count }] = await env.stack.db('documents').where({ company_id: company.row.id }).count('* as count');
    const res = await issue(env.stack, company.token, { xml: b64(xml) });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(422);
    expect(res.body).to.include({ origin: 'validation', reached_sunat: false });
    expect(res.body.errors.join(' ')).to.match(expected);
    expect(storedFiles(root).length, 'nothing written to the file store').to.equal(before);
    const [after] = await env.stack.db('documents').where({ company_id: company.row.id }).count('* as count');
    expect(Number(after.count), 'no row').to.equal(Number(count));
    return res;
  }

  it('an externally signed invoice of 1,000 lines is a 422 and nothing is stored; 999 lines are accepted', async () => {
    await refused(signedInvoice(company.ruc, 1000, signer).xml, /2023.*more than 999 InvoiceLine/);
    const genuine = signedInvoice(company.ruc, 999, signer);
    const res = await issue(env.stack, company.token, { xml: b64(genuine.xml) });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(202);
    const row = (await findDocument(env.stack.db, res.body.external_id))!;
    expect(row.totals).to.deep.equal({ PayableAmount: genuine.prepared.totals!.PayableAmount });
    expect(storedFiles(root)).to.have.length.greaterThan(0);
  });

  it('an IssueDate that is no calendar date is a 422 naming cbc:IssueDate, nothing stored, the orphan sweep exits 0', async () => {
    for (const date of ['2026-02-30', '2026-13-45']) {
      const xml = signedInvoice(company.ruc, 1, signer, (text) =>
        text.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, `<cbc:IssueDate>${date}</cbc:IssueDate>`),
      ).xml;
      await refused(xml, new RegExp(`cbc:IssueDate "${date}" is not a calendar date`));
    }
    expect(storedFiles(root).some((key) => /-13-|\/13\//.test(key))).to.equal(false);
    const out = { stdout: '', stderr: '' };
    const io = {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      stdin: Object.assign(process.stdin, { isTTY: false }),
    };
    expect(await filesCommand(['orphans'], { db: env.stack.db, config: env.stack.config }, io), out.stderr).to.equal(0);
  });

  it('/consulta compares the total read from the XML: 0 and an empty total find nothing, the printed total does', async () => {
    const invoice = signedInvoice(company.ruc, 2, signer);
    const res = await issue(env.stack, company.token, { xml: b64(invoice.xml) });
    expect(res.status).to.equal(202);
    const consult = (total: string) =>
      got.post(`${env.stack.url}/consulta`, {
        form: { ruc: company.ruc, tipo: '01', serie: 'F001', numero: invoice.number, fecha: invoice.date, total },
        throwHttpErrors: false,
      });
    const printed = invoice.prepared.totals!.PayableAmount;
    expect(Number(printed)).to.be.greaterThan(0);
    expect((await consult('0')).statusCode, 'total 0').to.equal(404);
    expect((await consult('')).statusCode, 'empty total').to.equal(404);
    expect((await consult(printed)).statusCode, `total ${printed}`).to.equal(200);
    // One stored before totals were read from the XML: no total finds it, neither 0 nor empty.
    await env.stack.db('documents').where({ id: res.body.external_id }).update({ totals: null });
    for (const total of ['0', '', printed]) expect((await consult(total)).statusCode, `total "${total}"`).to.equal(404);
    // The migration gives it the total its XML says, where the row holds the XML (the default store).
    await env.stack.db('documents').where({ id: res.body.external_id }).update({ xml: invoice.xml });
    await fillExternalTotals(env.stack.db);
    expect((await findDocument(env.stack.db, res.body.external_id))!.totals).to.deep.equal({ PayableAmount: printed });
    expect((await consult(printed)).statusCode).to.equal(200);
    expect((await consult('0')).statusCode).to.equal(404);
  });

  it('XML past the element, depth or byte bounds is refused before a parser holds it (the 999-line invoice above passed)', async () => {
    const open = `<?xml version="1.0" encoding="UTF-8"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">`;
    const many = `${open}${'<a/>'.repeat((UPLOAD_BOUNDS.bytes - open.length - 20) / 4)}</Invoice>`;
    expect(Buffer.byteLength(many)).to.be.below(UPLOAD_BOUNDS.bytes);
    const deep = `${open}${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</Invoice>`;
    const large = `${open}<a>${'x'.repeat(UPLOAD_BOUNDS.bytes)}</a></Invoice>`;
    for (const [name, xml, expected] of [
      ['many small elements', many, /BR_XML_LIMIT.*more than 60000 elements/],
      ['deep nesting', deep, /BR_XML_LIMIT.*more than 32 deep/],
      ['past 2 MiB', large, /BR_XML_LIMIT.*more than the 2097152 accepted/],
    ] as const) {
      const started = Date.now();
      await refused(xml, expected);
      console.log(`      ${name}: refused in ${Date.now() - started} ms`);
    }
  });

  it('a document stored before the line bound is not printed (a 422, not minutes of CPU); the validator bounds its files', async () => {
    const small = signedInvoice(company.ruc, 1, signer);
    const res = await issue(env.stack, company.token, { xml: b64(small.xml) });
    expect(res.status).to.equal(202);
    // What an external invoice of 1,000 lines left in its row before this change.
    const stored = signedInvoice(company.ruc, 1000, signer).xml;
    await env.stack.db('documents').where({ id: res.body.external_id }).update({ xml: stored });
    const pdf = await call(env.stack, 'GET', `/v1/cpe/${res.body.external_id}/pdf`, { token: company.token });
    expect(pdf.status, JSON.stringify(pdf.body)).to.equal(422);
    expect(pdf.body.message).to.match(/cannot be read back: .*more than 999 InvoiceLine/);
    const deep = `<Invoice>${'<a>'.repeat(40)}${'</a>'.repeat(40)}</Invoice>`;
    expect(() => describeDocument(deep, 'deep.xml')).to.throw(NotXmlError, /more than 32 deep/);
    expect(describeDocument(stored, 'F001.xml').type).to.equal('01');
  });

  it('a chunked body past the limit answers 413 on every route that takes a body, as with a Content-Length', async () => {
    const errors: unknown[] = [];
    const error = logger.error.bind(logger);
    logger.error = ((obj: unknown, ...rest: unknown[]) => {
      errors.push(obj);
      return (error as (...a: unknown[]) => void)(obj, ...rest);
    }) as typeof logger.error;
    try {
      const routes = createRouters(env.stack).flatMap((router) =>
        router.stack.flatMap((layer) =>
          layer.methods.filter((m) => ['POST', 'PUT', 'PATCH'].includes(m)).map((m) => [m, String(layer.path)]),
        ),
      );
      routes.push(['POST', '/console/login']);
      expect(routes.length).to.be.greaterThan(15);
      const results: string[] = [];
      for (const [method, route] of routes) {
        const url = `${env.stack.url}${route.replace(':ruc', company.ruc).replace(/:\w+/g, 'x')}`;
        const { type, size } = bodyFor(route);
        // The body is read once the token and its scope admitted the request (api/guard.ts).
        const token = /^\/(v1|api)\/cpe/.test(route) ? company.token : company.accountToken;
        const headers = { 'Content-Type': type, Authorization: `Bearer ${token}` };
        const chunked = await send(url, method, headers, size, true);
        const declared = await send(url, method, headers, size, false);
        // The certificate's multipart limits are its own (api/companies/certificate.ts): the same answer, never a 5xx.
        const expected = route.endsWith('/certificate') ? declared : 413;
        results.push(`${method} ${route}: chunked ${chunked}, declared ${declared}, expected ${expected}`);
      }
      const wrong = results.filter((r) => !/chunked (\d+), declared \1, expected \1$/.test(r));
      console.log(`      ${results.length} routes, ${results.length - wrong.length} as expected`);
      expect(wrong).to.deep.equal([]);
    } finally {
      logger.error = error;
    }
    expect(errors, 'nothing logged as an error').to.deep.equal([]);
  });
});

/** What each route reads its body as, and a size past that limit. */
function bodyFor(route: string): { type: string; size: number } {
  const config = testConfig();
  const past = (limit: number) => limit + 1024 * 1024;
  if (route.endsWith('/logo')) return { type: 'image/png', size: past(config.logoMaxBytes) };
  if (route.endsWith('/certificate'))
    return { type: 'multipart/form-data; boundary=x', size: past(config.certificateMaxBytes) };
  if (route.startsWith('/consulta') || route.startsWith('/console'))
    return { type: 'application/x-www-form-urlencoded', size: past(16 * 1024) };
  if (/^\/(v1\/cpe|api\/cpe\/enviar)\/?$/.test(route))
    return { type: 'application/json', size: past(ISSUE_BODY_LIMIT) };
  return { type: 'application/json', size: past(JSON_BODY_LIMIT) };
}
