import http from 'node:http';
import { expect } from 'chai';
import { call, newCompany, payload, startIssuingStack, type IssuingStack, type TestCompany } from '../issuing/support';
import { companyBody } from '../companies/helpers';
import { logger } from '../../core/logger';

/** One raw HTTP exchange: any method, any bytes, any headers (what a fuzzer or a broken client sends). */
function raw(
  url: string,
  method: string,
  path: string,
  body: Buffer | string | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

describe('malformed input never reaches a 500 (the hand-written table)', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let company: TestCompany;
  const post = (
    path: string,
    body: Buffer | string,
    contentType: string | null = 'application/json',
    token = company.accountToken,
  ) =>
    raw(env.stack.url, 'POST', path, body, {
      ...(contentType ? { 'Content-Type': contentType } : {}),
      Authorization: `Bearer ${token}`,
    });
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack();
    company = await newCompany(env.stack);
  });
  after(() => env?.stop());

  for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
    it(`{"${key}": …} on POST /v1/companies is a 422 naming the field`, async () => {
      const res = await post('/v1/companies', `{"${key}":1,"ruc":"20100066603"}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.errors[key][0]).to.contain(`'${key}' is not an accepted field`);
    });
  }

  it('a prototype name nested in a document is a 7.2 422 with its path', async () => {
    const doc = payload('invoice-basic.json', company.ruc);
    const text = JSON.stringify(doc).replace('"cliente":{', '"cliente":{"__proto__":{"x":1},');
    const res = await post('/v1/cpe', text, 'application/json', company.token);
    expect(res.status).to.equal(422);
    expect(res.body.details[0]).to.include({ path: 'cliente.__proto__', code: 'BR_UNKNOWN_FIELD' });
    expect(res.body.errors[0]).to.match(/^\[chasqui BR_UNKNOWN_FIELD\] /);
  });

  it('a 10,000-deep object on POST /v1/cpe is a 422 naming the nesting, not a stack overflow', async () => {
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const res = await post('/v1/cpe', deep, 'application/json', company.token);
    expect(res.status).to.equal(422);
    expect(res.body.details[0].code).to.equal('BR_NESTING');
  });

  for (const [name, type] of [
    ['text/plain', 'text/plain'],
    ['no Content-Type', null],
    ['UTF-16 JSON', 'application/json; charset=utf-16'],
    ['form', 'application/x-www-form-urlencoded'],
  ] as const) {
    it(`${name} is a 415`, async () => {
      const res = await post(
        '/v1/cpe',
        JSON.stringify(payload('invoice-basic.json', company.ruc)),
        type,
        company.token,
      );
      expect(res.status).to.equal(415);
      expect(res.body).to.include({ success: false });
      expect(res.body.message).to.match(/application\/json|UTF-8/);
    });
  }

  for (const [name, bytes] of [
    ['a bad byte', Buffer.from([0xff])],
    ['an overlong form', Buffer.from([0xc0, 0xaf])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
  ] as const) {
    it(`${name} in the body is a 400 saying it is not UTF-8 (never a replacement character)`, async () => {
      const body = Buffer.concat([
        Buffer.from(JSON.stringify(companyBody('20100066603')).slice(0, -1) + ',"business_name":"A'),
        bytes,
        Buffer.from('"}'),
      ]);
      const res = await post('/v1/companies', body);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/not valid UTF-8/);
      const doc = await post(
        '/v1/cpe',
        Buffer.concat([Buffer.from('{"tipoDoc":"01","serie":"F001","x":"'), bytes, Buffer.from('"}')]),
        'application/json',
        company.token,
      );
      expect(doc.status).to.equal(400);
    });
  }

  it('U+0000 and control characters are refused with the field named; tab and line breaks pass', async () => {
    const nul = await post('/v1/companies', JSON.stringify(companyBody('20100066603', { business_name: 'A\u0000B' })));
    expect(nul.status).to.equal(422);
    expect(nul.body.errors.business_name[0]).to.contain('U+0000');
    const doc = payload('invoice-basic.json', company.ruc);
    doc.items[0].descripcion = 'Clavos\u0007';
    const bell = await post('/v1/cpe', JSON.stringify(doc), 'application/json', company.token);
    expect(bell.status).to.equal(422);
    expect(bell.body.details[0]).to.include({ path: 'items[0].descripcion', code: 'BR_TEXT_CHARACTERS' });
    doc.items[0].descripcion = 'Clavos\tde\n2 pulgadas';
    expect((await post('/v1/cpe', JSON.stringify(doc), 'application/json', company.token)).status).to.equal(202);
  });

  for (const method of ['TRACE', 'QUERY', 'PROPFIND', 'MKCOL']) {
    it(`${method} is a 405 with Allow on an existing path`, async () => {
      const res = await raw(env.stack.url, method, '/v1/cpe', null, { Authorization: `Bearer ${company.token}` });
      expect(res.status).to.equal(405);
      expect(res.headers.allow).to.contain('POST');
      const other = await raw(env.stack.url, method, `/v1/companies/${company.ruc}`, null);
      expect(other.status).to.equal(405);
      expect(other.headers.allow).to.match(/GET.*DELETE|DELETE.*GET/);
    });
  }

  it('malformed percent-encoding and NUL in paths and queries are client errors', async () => {
    for (const path of [
      '/v1/cpe/%E0%A4%A',
      '/v1/cpe/%00',
      `/v1/companies/%ZZ`,
      '/v1/companies/20100066603/webhook/deliveries?limit=%FF',
      '/v1/companies/%C0%AF',
    ]) {
      const token = path.startsWith('/v1/cpe') ? company.token : company.accountToken;
      const res = await raw(env.stack.url, 'GET', path, null, { Authorization: `Bearer ${token}` });
      expect(res.status, path).to.be.within(400, 499);
    }
  });

  it('a webhook URL spelling a private IPv4 as IPv6, decimal, hex or octal is a 422 at configuration', async () => {
    for (const url of [
      'https://[::127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[64:ff9b::10.0.0.1]/',
      'https://[2002:c0a8:101::1]/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0300.0250.0.1/',
    ]) {
      const res = await call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/webhook`, {
        token: company.accountToken,
        json: { url },
      });
      expect(res.status, url).to.equal(422);
      expect(JSON.stringify(res.body), url).to.contain('public address');
    }
  });

  it('a known method not routed on a path is a 405 with Allow', async () => {
    const res = await call(env.stack, 'PUT', '/v1/cpe', { token: company.token, json: {} });
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.contain('POST');
  });

  it('an aborted upload is logged as a client abort, not as an error', async () => {
    const errors: unknown[] = [];
    const infos: unknown[] = [];
    const original = { error: logger.error, info: logger.info };
    logger.error = ((...args: unknown[]) => void errors.push(args)) as typeof logger.error;
    logger.info = ((...args: unknown[]) => void infos.push(args)) as typeof logger.info;
    try {
      await new Promise<void>((resolve) => {
        const req = http.request(`${env.stack.url}/v1/companies`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': '100000',
            Authorization: `Bearer ${company.accountToken}`,
          },
        });
        req.on('error', () => resolve());
        req.write('{"ruc": "2010');
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
      const deadline = Date.now() + 5_000;
      while (!infos.some((a) => JSON.stringify(a).includes('client aborted')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      Object.assign(logger, original);
    }
    expect(JSON.stringify(infos)).to.contain('client aborted the request');
    expect(errors).to.deep.equal([]);
  });
});
