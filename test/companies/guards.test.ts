import { expect } from 'chai';
import { startTestStack, type TestStack } from '../support/stack';
import { call, companyBody, createCompany, newAccountToken, randomRuc } from './helpers';
import { hashToken } from '../../db/tokens';

describe('authentication, rate limit and idempotency', function () {
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
  });
  after(() => stack?.stop());

  describe('401 / 403 (spec 5)', () => {
    it('answers 401 with WWW-Authenticate for no token, a malformed header and an unknown token', async () => {
      for (const headers of [
        {},
        { Authorization: 'Token abc' },
        { Authorization: 'Bearer chq_acc_not-a-real-token' },
      ] as Record<string, string>[]) {
        const res = await call(stack, 'GET', '/v1/companies', { headers });
        expect(res.status).to.equal(401);
        expect(res.headers['www-authenticate']).to.equal('Bearer');
        expect(res.body.success).to.equal(false);
      }
    });

    it('answers 401 for a revoked account token', async () => {
      const { token } = await newAccountToken(stack);
      await stack
        .db('api_tokens')
        .where({ token_hash: hashToken(token) })
        .update({ revoked_at: new Date() });
      const res = await call(stack, 'GET', '/v1/companies', { token });
      expect(res.status).to.equal(401);
      expect(res.body.message).to.contain('revoked');
    });

    it('answers 403 for a company signing token on management routes (requireScope)', async () => {
      const { token } = await newAccountToken(stack);
      const ruc = randomRuc();
      const signing = await createCompany(stack, token, ruc);
      for (const [method, path] of [
        ['GET', '/v1/companies'],
        ['GET', `/v1/companies/${ruc}`],
        ['POST', `/v1/companies/${ruc}/token`],
      ] as const) {
        const res = await call(stack, method, path, { token: signing });
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body.message).to.contain('empresas:manage');
      }
    });

    it('answers 403 for an inactive account and for the token of an inactive company', async () => {
      const { token, accountId } = await newAccountToken(stack);
      const ruc = randomRuc();
      const signing = await createCompany(stack, token, ruc);
      await stack.db('companies').where({ ruc, account_id: accountId }).update({ active: false });
      const inactiveCompany = await call(stack, 'GET', '/v1/companies', { token: signing });
      expect(inactiveCompany.status).to.equal(403);
      expect(inactiveCompany.body.message).to.equal('The company is inactive');
      await stack.db('accounts').where({ id: accountId }).update({ active: false });
      const inactiveAccount = await call(stack, 'GET', '/v1/companies', { token });
      expect(inactiveAccount.status).to.equal(403);
      expect(inactiveAccount.body.message).to.equal('The account is inactive');
    });

    it('answers 401 for the signing token of a deleted company', async () => {
      const { token } = await newAccountToken(stack);
      const ruc = randomRuc();
      const signing = await createCompany(stack, token, ruc);
      await call(stack, 'DELETE', `/v1/companies/${ruc}`, { token });
      const res = await call(stack, 'GET', '/v1/companies', { token: signing });
      expect(res.status).to.equal(401);
    });
  });

  describe('Idempotency-Key on POST /v1/companies', () => {
    it('replays the stored response (same token) for the same key and body', async () => {
      const { token } = await newAccountToken(stack);
      const json = companyBody(randomRuc());
      const first = await call(stack, 'POST', '/v1/companies', {
        token,
        json,
        headers: { 'Idempotency-Key': 'create-1' },
      });
      const second = await call(stack, 'POST', '/v1/companies', {
        token,
        json,
        headers: { 'Idempotency-Key': 'create-1' },
      });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.body).to.deep.equal(first.body);
      expect(second.headers['idempotent-replayed']).to.equal('true');
      const stored = await stack.db('idempotency_keys').where({ key: 'create-1' });
      expect(stored).to.have.length(1);
      expect(stored[0].response_sealed).not.to.contain(first.body.data.token);
    });

    it('answers 422 for the same key with a different body', async () => {
      const { token } = await newAccountToken(stack);
      await call(stack, 'POST', '/v1/companies', {
        token,
        json: companyBody(randomRuc()),
        headers: { 'Idempotency-Key': 'k-1' },
      });
      const res = await call(stack, 'POST', '/v1/companies', {
        token,
        json: companyBody(randomRuc()),
        headers: { 'Idempotency-Key': 'k-1' },
      });
      expect(res.status).to.equal(422);
      expect(res.body.errors).to.have.key('Idempotency-Key');
    });

    it('stores a failed validation too: the corrected payload needs a new key', async () => {
      const { token } = await newAccountToken(stack);
      const bad = companyBody('20100066604');
      const first = await call(stack, 'POST', '/v1/companies', {
        token,
        json: bad,
        headers: { 'Idempotency-Key': 'bad-1' },
      });
      const replay = await call(stack, 'POST', '/v1/companies', {
        token,
        json: bad,
        headers: { 'Idempotency-Key': 'bad-1' },
      });
      expect(first.status).to.equal(422);
      expect(replay.status).to.equal(422);
      expect(replay.body).to.deep.equal(first.body);
      expect(replay.headers['idempotent-replayed']).to.equal('true');
    });

    it('keys are per token: another account may use the same key', async () => {
      const a = await newAccountToken(stack);
      const b = await newAccountToken(stack);
      const ra = await call(stack, 'POST', '/v1/companies', {
        token: a.token,
        json: companyBody(randomRuc()),
        headers: { 'Idempotency-Key': 'shared' },
      });
      const rb = await call(stack, 'POST', '/v1/companies', {
        token: b.token,
        json: companyBody(randomRuc()),
        headers: { 'Idempotency-Key': 'shared' },
      });
      expect([ra.status, rb.status]).to.deep.equal([201, 201]);
    });

    it('turns two concurrent requests with one key into one company and one answer', async () => {
      const { token } = await newAccountToken(stack);
      const ruc = randomRuc();
      const send = () =>
        call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc), headers: { 'Idempotency-Key': 'race' } });
      const answers = await Promise.all([send(), send(), send(), send()]);
      expect(answers.map((a) => a.status)).to.deep.equal([201, 201, 201, 201]);
      const tokens = new Set(answers.map((a) => a.body.data.token));
      expect(tokens.size).to.equal(1);
      const company = await stack.db('companies').where({ ruc });
      expect(company).to.have.length(1);
      expect(await stack.db('api_tokens').where({ company_id: company[0].id })).to.have.length(1);
    });

    it('rejects a malformed key', async () => {
      const { token } = await newAccountToken(stack);
      const res = await call(stack, 'POST', '/v1/companies', {
        token,
        json: companyBody(randomRuc()),
        headers: { 'Idempotency-Key': 'x'.repeat(300) },
      });
      expect(res.status).to.equal(422);
    });
  });
});

describe('rate limit shared by API instances', function () {
  const LIMIT = 5;
  let first: TestStack;
  let second: TestStack;
  before(async function () {
    this.timeout(120_000);
    first = await startTestStack({ worker: false, config: { rateLimitPerMinute: LIMIT } });
    second = await startTestStack({ worker: false, config: { rateLimitPerMinute: LIMIT } });
  });
  after(async () => {
    await first?.stop();
    await second?.stop();
  });

  it('answers 429 with Retry-After once a token passes the limit, counting requests to either instance', async () => {
    const { token } = await newAccountToken(first);
    const other = await newAccountToken(first);
    // 2·LIMIT+1 requests fall in at most two one-minute windows, so one window must exceed the limit.
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < 2 * LIMIT + 1 && !limited; i++) {
      const res = await call(i % 2 === 0 ? first : second, 'GET', '/v1/companies', { token });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses ${statuses}`).to.not.equal(null);
    expect(statuses.indexOf(429)).to.be.at.least(LIMIT);
    const retryAfter = Number(limited!.headers['retry-after']);
    expect(retryAfter).to.be.within(1, 60);
    expect(limited!.body).to.include({ success: false });
    expect(limited!.body.message).to.contain(`${LIMIT} requests per minute`);
    // Another token is not affected.
    expect((await call(second, 'GET', '/v1/companies', { token: other.token })).status).to.equal(200);
  });

  it('every authenticated route counts, token minting included, with RateLimit-* headers', async () => {
    const { token } = await newAccountToken(first);
    const ruc = randomRuc();
    await createCompany(first, token, ruc);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < LIMIT; i++) {
      last = await call(i % 2 ? first : second, 'POST', `/v1/companies/${ruc}/token`, { token });
      statuses.push(last.status);
    }
    expect(statuses).to.deep.equal([...Array(LIMIT - 1).fill(201), 429]);
    expect(last!.headers).to.include({ 'ratelimit-limit': String(LIMIT), 'ratelimit-remaining': '0' });
    expect(Number(last!.headers['ratelimit-reset'])).to.be.within(1, 60);
  });
});

describe('rate limit per account: its tokens share one limit', function () {
  const PER_ACCOUNT = 6;
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({
      worker: false,
      config: { rateLimitPerMinute: 100, accountRateLimitPerMinute: PER_ACCOUNT },
    });
  });
  after(() => stack?.stop());

  it('answers 429 with Retry-After once the account passes its limit, whichever of its tokens asks', async () => {
    const { token } = await newAccountToken(stack);
    // Two companies, two signing tokens: two requests of the account token, each far below its own limit.
    const tokens = [await createCompany(stack, token, randomRuc()), await createCompany(stack, token, randomRuc())];
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < PER_ACCOUNT - 1; i++) {
      const res = await call(stack, 'GET', '/v1/cpe', { token: tokens[i % 2] });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses).to.deep.equal([...Array(PER_ACCOUNT - 2).fill(200), 429]);
    expect(Number(limited!.headers['retry-after'])).to.be.within(1, 60);
    expect(limited!.headers).to.include({ 'ratelimit-limit': String(PER_ACCOUNT), 'ratelimit-remaining': '0' });
    expect(limited!.body.message).to.contain(`account's rate limit of ${PER_ACCOUNT} requests per minute`);
    // Another account's token is not affected.
    const other = await newAccountToken(stack);
    expect((await call(stack, 'GET', '/v1/companies', { token: other.token })).status).to.equal(200);
  });
});

describe('rate limit: a sliding window, no double burst at a boundary', function () {
  const LIMIT = 4;
  const WINDOW_SECONDS = 2;
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({
      worker: false,
      config: { rateLimitPerMinute: LIMIT, rateLimitWindowSeconds: WINDOW_SECONDS },
    });
  });
  after(() => stack?.stop());

  it('after LIMIT requests, the next is admitted only once the first has left the window', async () => {
    const { token } = await newAccountToken(stack);
    const started = Date.now();
    const burst: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) burst.push((await call(stack, 'GET', '/v1/companies', { token })).status);
    expect(burst).to.deep.equal([...Array(LIMIT).fill(200), 429]);
    let admittedAt = 0;
    while (!admittedAt) {
      await new Promise((r) => setTimeout(r, 100));
      if ((await call(stack, 'GET', '/v1/companies', { token })).status === 200) admittedAt = Date.now();
    }
    // A fixed window would admit a second full burst at its boundary, possibly at once.
    expect(admittedAt - started).to.be.at.least(WINDOW_SECONDS * 1000 - 150);
  });
});
