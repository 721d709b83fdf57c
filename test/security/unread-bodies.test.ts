import http from 'node:http';
import { expect } from 'chai';
import got from 'got';
import { newCompany, type TestCompany } from '../issuing/support';
import { startTestStack, type TestStack } from '../support/stack';
import { createRouters } from '../../api/app';
import { JSON_BODY_LIMIT } from '../../api/middleware/body';

/**
 * The status a client gets for a JSON body it declared `declared` bytes long and sent only the first `sent` of, or why
 * it got none.
 */
function partialBody(url: string, method: string, token: string | null, declared: number, sent: number) {
  return new Promise<number | string>((resolve) => {
    const agent = new http.Agent({ keepAlive: false });
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': declared };
    if (token) headers.Authorization = `Bearer ${token}`;
    const req = http.request(url, { method, agent, headers });
    // The body is never finished: a server that reads it before answering never answers.
    const timer = setTimeout(() => finish('no answer before the body was complete'), 15_000);
    const finish = (status: number | string) => {
      clearTimeout(timer);
      req.destroy();
      agent.destroy();
      resolve(status);
    };
    req.on('response', (res) => {
      res.resume();
      finish(res.statusCode!);
    });
    req.on('error', (err) => finish(`error ${err.message}`));
    req.write(Buffer.alloc(sent, 0x20));
  });
}

/**
 * Issue 40: a JSON body (up to 2 MiB, 60–100 ms of the event loop to read and parse) is read only after the token,
 * its rate limits and its scope admitted the request (api/guard.ts). A client without a token, over its limit or
 * with the wrong scope is answered while the body it declared is still arriving: the API waited for none of it.
 */
describe('security: a body is read only once the request is admitted (issue 40)', function () {
  this.timeout(120_000);
  // Room for the setup's and the 403 case's requests; the 429 case spends the rest.
  const LIMIT = 30;
  let stack: TestStack;
  let company: TestCompany;
  const routes: [string, string][] = [];
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({
      worker: false,
      config: { rateLimitPerMinute: LIMIT, accountRateLimitPerMinute: 0 },
    });
    company = await newCompany(stack);
    for (const router of createRouters(stack))
      for (const layer of router.stack) {
        // The routes behind a token; /consulta's form is anonymous and read by its own route within 16 KB.
        if (!layer.stack.some((m) => m.name === 'authenticateBearer')) continue;
        for (const method of layer.methods.filter((m) => ['POST', 'PUT', 'PATCH'].includes(m)))
          routes.push([method, String(layer.path).replace(':ruc', company.ruc).replace(/:\w+/g, 'x')]);
      }
  });
  after(() => stack?.stop());

  /** Every body-taking route, with 2 MiB declared and 64 KiB sent: the answers that did not come as `expected`. */
  async function unexpected(token: (path: string) => string | null, expected: number): Promise<string[]> {
    const answers = await Promise.all(
      routes.map(async ([method, path]) => {
        const status = await partialBody(`${stack.url}${path}`, method, token(path), JSON_BODY_LIMIT, 64 * 1024);
        return status === expected ? null : `${method} ${path}: ${status}`;
      }),
    );
    return answers.filter((a) => a !== null);
  }
  const isCompanyRoute = (path: string) => /^\/(v1|api)\/cpe/.test(path);

  it('without a token: 401 on every route that takes a body, before the body arrived', async () => {
    expect(routes.length).to.be.greaterThan(12);
    expect(await unexpected(() => null, 401)).to.deep.equal([]);
    expect(await unexpected(() => 'chq_nope', 401)).to.deep.equal([]);
  });

  it('with the wrong scope: 403 before the body arrived', async () => {
    const wrong = (path: string) => (isCompanyRoute(path) ? company.accountToken : company.token);
    expect(await unexpected(wrong, 403)).to.deep.equal([]);
  });

  it('over the rate limit: 429 before the body arrived', async () => {
    // Each token's minute spent on small requests first.
    for (const [path, token] of [
      ['/v1/companies', company.accountToken],
      ['/v1/cpe', company.token],
    ])
      for (let i = 0; i < LIMIT; i++)
        await got(`${stack.url}${path}`, {
          headers: { Authorization: `Bearer ${token}` },
          throwHttpErrors: false,
          retry: { limit: 0 },
        });
    const right = (path: string) => (isCompanyRoute(path) ? company.token : company.accountToken);
    expect(await unexpected(right, 429)).to.deep.equal([]);
  });
});
