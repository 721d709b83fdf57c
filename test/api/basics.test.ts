import { expect } from 'chai';
import got from 'got';
import { startTestStack, type TestStack } from '../support/stack';
import { newAccountToken } from '../companies/helpers';

describe('api basics', function () {
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack();
  });
  after(() => stack?.stop());

  const call = (path: string, options: Record<string, unknown> = {}) =>
    got(`${stack.url}${path}`, { throwHttpErrors: false, retry: { limit: 0 }, ...options });

  it('answers /healthz and /readyz with PostgreSQL and Temporal checked', async () => {
    const health = await call('/healthz');
    expect(health.statusCode).to.equal(200);
    const ready = await call('/readyz');
    expect(ready.statusCode).to.equal(200);
    expect(JSON.parse(ready.body).data).to.deep.equal({
      database: 'ok',
      temporal: 'ok',
      migrations: 'ok',
      master_key: 'ok',
      temporal_namespace: 'ok',
    });
  });

  it('answers unknown routes with a 404 in the standard envelope and an X-Request-Id', async () => {
    const res = await call('/v1/nothing-here');
    expect(res.statusCode).to.equal(404);
    expect(JSON.parse(res.body)).to.deep.equal({ success: false, message: 'No route for GET /v1/nothing-here' });
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('keeps a sane caller X-Request-Id', async () => {
    const res = await call('/healthz', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.headers['x-request-id']).to.equal('trace-123');
  });

  it('rejects malformed JSON with a 422 that names line and column (read once the token admitted the request)', async () => {
    const { token } = await newAccountToken(stack);
    const res = await call('/v1/companies', {
      method: 'POST',
      body: '{\n  "ruc": "20100066603",\n  "business_name": }',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).to.equal(422);
    const body = JSON.parse(res.body);
    expect(body.success).to.equal(false);
    expect(body.message).to.contain('line 3, column 20');
    expect(body.data).to.include({ line: 3, col: 20 });
  });
});
