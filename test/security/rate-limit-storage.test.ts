import { expect } from 'chai';
import got from 'got';
import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig } from '../support/services';
import { SWEEP_BATCH } from '../../db/rate-limits';

/**
 * Issue 32, item 4: rate_limit_log stays bounded. Expired rows are deleted as keyed requests come (SWEEP_BATCH a
 * request), and once CHASQUI_RATE_LIMIT_KEYS keys of a kind are live, new addresses share one overflow log instead
 * of adding rows. Measured on /consulta behind one trusted proxy with a distinct client address per request.
 */
describe('security: rate-limit storage stays bounded (issue 32)', function () {
  this.timeout(120_000);
  const MAX_KEYS = 50;
  const FLOOD = 400;
  const CONCURRENCY = 10;
  let s: TestStack;
  before(async () => {
    const base = testConfig();
    s = await startTestStack({
      worker: false,
      config: {
        trustProxy: 1,
        rateLimitKeys: MAX_KEYS,
        buyers: { ...base.buyers, consultaRate: { limit: 5, windowSeconds: 60 } },
      },
    });
  });
  after(() => s?.stop());

  const rows = async (where: Record<string, unknown> = {}) =>
    Number(
      (await s.db('rate_limit_log').where(where).andWhere('expires_at', '>=', s.db.fn.now()).count({ n: '*' }))[0].n,
    );
  const lookup = (client: string) =>
    got.post(`${s.url}/consulta`, {
      form: { nada: '1' },
      headers: { 'X-Forwarded-For': client },
      throwHttpErrors: false,
    });

  it(`${FLOOD} lookups from ${FLOOD} distinct addresses leave at most ${MAX_KEYS} + 1 live consulta rows, and the flood shares one limit`, async () => {
    // Earlier suites of the run may have left consulta rows: the cap counts them too.
    const before = await rows({ kind: 'consulta' });
    const tag = process.pid % 250;
    const statuses: number[] = [];
    for (let i = 0; i < FLOOD; i += CONCURRENCY) {
      const batch = Array.from({ length: CONCURRENCY }, (_, j) => lookup(`10.${tag}.${(i + j) >> 8}.${(i + j) & 255}`));
      statuses.push(...(await Promise.all(batch)).map((res) => res.statusCode));
    }
    const after = await rows({ kind: 'consulta' });
    const admitted = statuses.filter((code) => code !== 429).length;
    // Requests racing at the edge of the cap may each add a row: at most one batch's worth.
    const bound = Math.max(before, MAX_KEYS) + 1 + CONCURRENCY;
    console.log(
      `      measured: ${FLOOD} distinct addresses -> ${after} live consulta rows (${before} before; cap ${MAX_KEYS}); ${admitted} admitted, ${FLOOD - admitted} refused 429`,
    );
    expect(after).to.be.at.most(bound);
    // Once the cap is reached, every new address draws on the overflow log's 5 lookups.
    expect(admitted).to.be.at.most(Math.max(0, MAX_KEYS - before) + CONCURRENCY + 5);
    expect(statuses.filter((code) => code === 429).length).to.be.at.least(FLOOD - bound - 5);
  });

  it(`expired rows are deleted by the requests that follow (${SWEEP_BATCH} each), live ones are kept`, async () => {
    const expired = Array.from({ length: 3 * SWEEP_BATCH + 17 }, () => ({
      token_id: randomUUID(),
      hits: s.db.raw("array[now() - interval '2 hours']::timestamptz[]"),
      kind: 'consulta',
      expires_at: s.db.raw("now() - interval '1 hour'"),
    }));
    const live = { token_id: randomUUID(), hits: s.db.raw('array[now()]::timestamptz[]'), kind: 'consulta' };
    await s.db('rate_limit_log').insert(expired);
    await s.db('rate_limit_log').insert({ ...live, expires_at: s.db.raw("now() + interval '1 minute'") });
    const ids = expired.map((row) => row.token_id);
    const left = async () => Number((await s.db('rate_limit_log').whereIn('token_id', ids).count({ n: '*' }))[0].n);
    expect(await left()).to.equal(ids.length);
    await lookup(`192.0.2.${process.pid % 250}`);
    expect(await left()).to.be.at.most(ids.length - SWEEP_BATCH);
    for (let i = 0; i < 3; i++) await lookup(`192.0.2.${process.pid % 250}`);
    const remaining = await left();
    console.log(`      measured: ${ids.length} expired rows -> ${remaining} after 4 requests`);
    expect(remaining).to.equal(0);
    expect(await s.db('rate_limit_log').where({ token_id: live.token_id }).first()).to.not.equal(undefined);
  });
});
