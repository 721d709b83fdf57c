import { expect } from 'chai';
import type { Method } from 'got';
import { startTestStack, type TestStack } from '../support/stack';
import { checkSchema } from '../support/json-schema';
import { call, companyBody, newAccountToken, randomRuc, type ApiResponse } from './helpers';
import { createRouters } from '../../api/app';
import { generateTestCertificate } from '../../documents/signing';

describe('OpenAPI document (/v1/openapi.json)', function () {
  let stack: TestStack;
  let doc: any;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
    const res = await call(stack, 'GET', '/v1/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });
  after(() => stack?.stop());

  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => m !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );

  it('is OpenAPI 3.1 and documents exactly the routes the routers serve', () => {
    expect(doc.openapi).to.equal('3.1.0');
    const served = createRouters(stack).flatMap((router) =>
      router.stack.flatMap((layer) =>
        layer.methods
          .filter((m) => m !== 'HEAD')
          .map(
            (m) =>
              `${m} ${String(layer.path)
                .replace(/\/$/, '')
                .replace(/:(\w+)/g, '{$1}')}`,
          ),
      ),
    );
    expect(operations()).to.have.members(served);
  });

  it('answers every documented operation (no "No route")', async () => {
    const ruc = randomRuc();
    for (const operation of operations()) {
      const [method, path] = operation.split(' ');
      const res = await call(stack, method as Method, path.replace('{ruc}', ruc));
      // The buyers' public pages (no token) answer an empty form or an unsigned link with a page of their own.
      if (path.startsWith('/consulta')) {
        expect(Object.keys(doc.paths[path][method.toLowerCase()].responses), operation).to.include(String(res.status));
        expect(String(res.headers['content-type']), operation).to.match(/^text\/(html|css)/);
        continue;
      }
      expect(res.status, operation).to.not.be.oneOf([404, 405]);
      expect(res.status, operation).to.be.oneOf([200, 401]);
    }
  });

  /** Validates a real response against the documented one for its operation and status. */
  function conforms(operation: string, res: ApiResponse): void {
    const [method, path] = operation.split(' ');
    const documented = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(res.status)];
    expect(documented, `${operation} ${res.status} is documented`).to.not.equal(undefined);
    const problems = checkSchema(documented.content['application/json'].schema, res.body, doc);
    expect(problems, `${operation} ${res.status}: ${JSON.stringify(res.body)}`).to.deep.equal([]);
  }

  it('has a checker that notices undocumented fields, wrong types and missing fields', () => {
    const schema = doc.paths['/v1/companies/{ruc}'].get.responses['200'].content['application/json'].schema;
    expect(
      checkSchema(schema, { success: true, message: 'x', data: { company: { ruc: 1 } } }, doc).length,
    ).to.be.greaterThan(10);
    expect(checkSchema(schema, { success: true, message: 'x', data: {}, extra: 1 }, doc)).to.include.members([
      '$.data.company: missing',
      '$.extra: not documented',
    ]);
  });

  it('describes the real responses of a full company life cycle', async function () {
    this.timeout(30_000);
    const { token } = await newAccountToken(stack);
    const other = await newAccountToken(stack);
    const ruc = randomRuc();
    const at = (suffix = '') => `/v1/companies/${ruc}${suffix}`;
    const item = '/v1/companies/{ruc}';

    conforms('GET /healthz', await call(stack, 'GET', '/healthz'));
    conforms('GET /readyz', await call(stack, 'GET', '/readyz'));
    conforms(
      'POST /v1/companies',
      await call(stack, 'POST', '/v1/companies', {
        token,
        json: companyBody(ruc),
        headers: { 'Idempotency-Key': 'doc' },
      }),
    );
    conforms('POST /v1/companies', await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc) }));
    conforms(
      'POST /v1/companies',
      await call(stack, 'POST', '/v1/companies', { token: other.token, json: companyBody(ruc) }),
    );
    conforms('POST /v1/companies', await call(stack, 'POST', '/v1/companies', { token, json: { ruc: 'x' } }));
    conforms('POST /v1/companies', await call(stack, 'POST', '/v1/companies'));
    conforms('GET /v1/companies', await call(stack, 'GET', '/v1/companies', { token }));
    conforms(`GET ${item}`, await call(stack, 'GET', at(), { token }));
    conforms(`GET ${item}`, await call(stack, 'GET', at(), { token: other.token }));
    conforms(`GET ${item}`, await call(stack, 'GET', `/v1/companies/${randomRuc()}`, { token }));
    conforms(`POST ${item}/token`, await call(stack, 'POST', at('/token'), { token }));
    const settings: [string, unknown][] = [
      ['plan', { plan_type: '02' }],
      ['environment', { environment: '02' }],
      ['environment', { environment: '01' }],
      ['sending', { mode: 'manual' }],
      ['receipts', { mode: 'summary' }],
      ['response', { mode: 'wait' }],
      ['destination', { destination: 'provider_ose' }],
      ['signing', { signing: 'external' }],
      ['gre-credentials', { client_id: 'id', client_secret: 'secret' }],
      ['ose-credentials', { url: 'https://93.184.215.14/ose', user: 'U', password: 'p' }],
    ];
    for (const [path, json] of settings)
      conforms(`PATCH ${item}/${path}`, await call(stack, 'PATCH', at(`/${path}`), { token, json }));
    conforms(
      `PATCH ${item}/webhook`,
      await call(stack, 'PATCH', at('/webhook'), { token, json: { url: 'https://93.184.215.14/hook' } }),
    );
    conforms(
      `PATCH ${item}/webhook`,
      await call(stack, 'PATCH', at('/webhook'), { token, json: { url: 'https://93.184.215.14/hook' } }),
    );
    conforms(`PATCH ${item}/webhook`, await call(stack, 'PATCH', at('/webhook'), { token, json: { url: null } }));
    conforms(
      `PATCH ${item}/webhook`,
      await call(stack, 'PATCH', at('/webhook'), { token, json: { url: 'https://127.0.0.1/' } }),
    );

    const boundary = 'chasquiDoc';
    const pfx = generateTestCertificate({ ruc }).pfx('pw');
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="c.pfx"\r\n\r\n`),
      pfx,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\npw\r\n--${boundary}--\r\n`,
      ),
    ]);
    const headers = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
    conforms(`POST ${item}/certificate`, await call(stack, 'POST', at('/certificate'), { token, body, headers }));
    conforms(`DELETE ${item}`, await call(stack, 'DELETE', at(), { token }));
  });

  it("describes the real responses of a company's named tokens, its webhook secret and its test notice", async function () {
    this.timeout(30_000);
    const { token } = await newAccountToken(stack);
    const ruc = randomRuc();
    await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc) });
    const at = (suffix: string) => `/v1/companies/${ruc}${suffix}`;
    const item = '/v1/companies/{ruc}';
    conforms(`POST ${item}/webhook/secret`, await call(stack, 'POST', at('/webhook/secret'), { token }));
    conforms(`POST ${item}/webhook/test`, await call(stack, 'POST', at('/webhook/test'), { token }));
    await call(stack, 'PATCH', at('/webhook'), { token, json: { url: 'https://93.184.215.14/hook' } });
    conforms(`POST ${item}/webhook/secret`, await call(stack, 'POST', at('/webhook/secret'), { token }));
    conforms(`POST ${item}/webhook/test`, await call(stack, 'POST', at('/webhook/test'), { token }));
    const made = await call(stack, 'POST', at('/tokens'), { token, json: { name: 'caja' } });
    conforms(`POST ${item}/tokens`, made);
    conforms(`POST ${item}/tokens`, await call(stack, 'POST', at('/tokens'), { token, json: { name: '' } }));
    conforms(`GET ${item}/tokens`, await call(stack, 'GET', at('/tokens'), { token }));
    const id = made.body.data.signing_token.id;
    const rolled = await call(stack, 'POST', at(`/tokens/${id}/roll`), { token, json: { expires_in: '1h' } });
    conforms(`POST ${item}/tokens/{id}/roll`, rolled);
    conforms(
      `POST ${item}/tokens/{id}/roll`,
      await call(stack, 'POST', at(`/tokens/${id}/roll`), { token, json: { expires_in: 'soon' } }),
    );
    conforms(`DELETE ${item}/tokens/{id}`, await call(stack, 'DELETE', at(`/tokens/${id}`), { token }));
    conforms(`DELETE ${item}/tokens/{id}`, await call(stack, 'DELETE', at(`/tokens/${id}`), { token }));
  });
});
