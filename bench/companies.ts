/**
 * `npm run bench:companies`: latency and throughput of the company API over real HTTP on embedded PostgreSQL, with
 * authentication, the PostgreSQL rate limiter (limit raised so it counts but never blocks) and idempotency in the path.
 */
import { performance } from 'node:perf_hooks';
import { startTestStack } from '../test/support/stack';
import { stopTestServices } from '../test/support/services';
import { call, companyBody, createCompany, newAccountToken, randomRuc } from '../test/companies/helpers';

async function measure(
  label: string,
  total: number,
  concurrency: number,
  request: (i: number) => Promise<number>,
): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const status = await request(i);
        latencies.push(performance.now() - t);
        if (status >= 500) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
  console.log(
    `${label.padEnd(44)} n=${total} c=${concurrency}  ${(total / seconds).toFixed(0).padStart(5)} req/s  p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms  p99 ${pct(0.99)} ms${failures ? `  SERVER ERRORS ${failures}` : ''}`,
  );
}

async function main(): Promise<void> {
  const stack = await startTestStack({
    worker: false,
    config: { rateLimitPerMinute: 1_000_000, accountRateLimitPerMinute: 0 },
  });
  try {
    const { token } = await newAccountToken(stack);
    const ruc = randomRuc();
    await createCompany(stack, token, ruc);
    for (let i = 0; i < 20; i++) await createCompany(stack, token, randomRuc());

    await measure('warm-up', 200, 10, async () => (await call(stack, 'GET', `/v1/companies/${ruc}`, { token })).status);
    await measure(
      'GET /v1/companies/{ruc}',
      500,
      1,
      async () => (await call(stack, 'GET', `/v1/companies/${ruc}`, { token })).status,
    );
    await measure(
      'GET /v1/companies/{ruc}',
      2000,
      20,
      async () => (await call(stack, 'GET', `/v1/companies/${ruc}`, { token })).status,
    );
    await measure(
      'GET /v1/companies (22 companies)',
      500,
      20,
      async () => (await call(stack, 'GET', '/v1/companies', { token })).status,
    );
    await measure(
      '401 (unknown token)',
      1000,
      20,
      async () => (await call(stack, 'GET', '/v1/companies', { token: 'chq_acc_x' })).status,
    );
    const bodies = Array.from({ length: 500 }, () => companyBody(randomRuc()));
    await measure(
      'POST /v1/companies + Idempotency-Key',
      500,
      20,
      async (i) =>
        (
          await call(stack, 'POST', '/v1/companies', {
            token,
            json: bodies[i],
            headers: { 'Idempotency-Key': `bench-${i}` },
          })
        ).status,
    );
    await measure(
      'POST /v1/companies replay (same key)',
      500,
      20,
      async (i) =>
        (
          await call(stack, 'POST', '/v1/companies', {
            token,
            json: bodies[i],
            headers: { 'Idempotency-Key': `bench-${i}` },
          })
        ).status,
    );
    await measure(
      'PATCH /v1/companies/{ruc}/sending',
      500,
      20,
      async (i) =>
        (
          await call(stack, 'PATCH', `/v1/companies/${ruc}/sending`, {
            token,
            json: { mode: i % 2 ? 'manual' : 'automatic' },
          })
        ).status,
    );
  } finally {
    await stack.stop();
    await stopTestServices();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
