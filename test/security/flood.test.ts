import { expect } from 'chai';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { issue, newCompany, payload, startIssuingStack, until, type IssuingStack } from '../issuing/support';
import { certificateForm } from './support';
import { invoicePayload } from '../../bench/payloads';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { signedFilePath } from '../../buyers/links';
import { JSON_BODY_LIMIT } from '../../api/middleware/body';
import { registry } from '../../core/metrics';
import { testConfig } from '../support/services';

/**
 * Issue 40: while clients hammer every heavy path of the API (the PDF of a 999-line invoice through the API and
 * through /consulta's signed link, a 2 MiB body of externally signed XML, PKCS#12 uploads), another account's issue
 * and /readyz stay within a small multiple of their idle latency, measured in the same run; the flooders get their
 * answer or a 429/503 with Retry-After, never a hang; the API's memory stays bounded. The pool is small (two threads,
 * two tasks waiting per account) and the printed cache off, so every PDF asked is a render: the worst case.
 */

const FLOODERS_PER_PATH = 4;
const SAMPLES = 7;
/** How many times its idle latency another account's request may take under flood (issue 40 measured 11× and 50-200× before the pool; the machine is shared). */
const SLOWER_AT_MOST = 8;
/**
 * Or this much slower, whichever is more: on a quiet machine idle answers take 20-40 ms, and the flooders, in this same
 * process on 2 cores, cost the loop a few hundred ms by themselves; issue 40's event loop took 3-30 s.
 */
const SLOWER_BY_AT_MOST_MS = 1_000;
const within = (idleMs: number) => Math.max(SLOWER_AT_MOST * idleMs, idleMs + SLOWER_BY_AT_MOST_MS);
/** A task's time in its thread (the pool's bound): a 999-line render takes 2-3 s of CPU, much longer when shared. */
const TASK_MS = 30_000;
const QUEUE_PER_ACCOUNT = 2;
/** The longest a flooder may wait for any answer: its account's queue ahead of it, then its own task, each bounded. */
const FLOODER_PATIENCE_MS = (QUEUE_PER_ACCOUNT + 1) * TASK_MS + 15_000;

interface Tally {
  statuses: Record<number, number>;
  refusedWithoutRetryAfter: number;
  slowestMs: number;
  poolBounds: Set<string>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(request: () => Promise<Response>): Promise<{ res: Response; text: string; ms: number }> {
  const started = performance.now();
  const res = await request();
  const text = await res.text();
  return { res, text, ms: performance.now() - started };
}

/** Requests one after another until `stop` says so (at most `max`), tallying what came back. */
async function flood(stop: () => boolean, request: () => Promise<Response>, tally: Tally, max = 400): Promise<void> {
  for (let i = 0; i < max && !stop(); i++) {
    const started = performance.now();
    const res = await request();
    const text = await res.text();
    tally.slowestMs = Math.max(tally.slowestMs, performance.now() - started);
    tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
    if (res.status !== 429 && res.status !== 503) continue;
    if (!/^\d+$/.test(res.headers.get('retry-after') ?? '')) tally.refusedWithoutRetryAfter++;
    const bound = (JSON.parse(text) as { data?: { bound?: string } }).data?.bound;
    if (bound) tally.poolBounds.add(bound);
  }
}

/**
 * A signed invoice XML as large as the JSON body limit lets through base64 (many small elements: costly to parse),
 * changed after signing: the pool parses it and checks its signature in full, and nothing is stored or delivered (the
 * in-process simulator would otherwise parse it again on this process's event loop, which is not the API's cost).
 */
function largestTamperedInvoice(ruc: string): string {
  const signer = createSigner(generateTestCertificate({ ruc }));
  let lines = 999;
  for (;;) {
    const xml = signXml(prepareDocument(invoicePayload(lines, { ruc, correlativo: String(lines) })).xml, signer).xml;
    if (Math.ceil(Buffer.byteLength(xml) / 3) * 4 + 16 <= JSON_BODY_LIMIT)
      return xml.replace('Producto de prueba número 1<', 'Producto de prueba número 2<');
    lines -= 50;
  }
}

describe('security: a flood of heavy work leaves other accounts served (issue 40)', function () {
  this.timeout(600_000);
  let env: IssuingStack;
  const base = () => env.stack.url;
  before(async function () {
    this.timeout(180_000);
    env = await startIssuingStack(
      {
        heavy: {
          workers: 2,
          queuePerAccount: QUEUE_PER_ACCOUNT,
          queueTotal: 6,
          runningPerAccount: 1,
          timeoutMs: TASK_MS,
          heapMb: 512,
          recycleMb: 256,
        },
        pdfCache: { maxBytes: 0, maxAgeSeconds: 0 },
        // The flooders' own request limits would refuse them before the pool does: this test is about the pool.
        rateLimitPerMinute: 100_000,
        accountRateLimitPerMinute: 100_000,
        buyers: {
          ...testConfig().buyers,
          consultaRate: { limit: 100_000, windowSeconds: 60 },
          consultaDownloadRate: { limit: 100_000, windowSeconds: 60 },
          consultaDocumentRate: { limit: 100_000, windowSeconds: 60 },
        },
      },
      { worker: true },
    );
  });
  after(() => env?.stop());

  it('keeps another account’s issue and /readyz near their idle latency while PDFs, XML and PKCS#12 flood', async () => {
    const victim = await newCompany(env.stack);
    const printer = await newCompany(env.stack);
    const external = await newCompany(env.stack, { settings: { destination: 'provider_ose', signing: 'external' } });
    const uploader = await newCompany(env.stack);

    const basic = payload('invoice-basic.json', printer.ruc);
    const long = await issue(env.stack, printer.token, { ...basic, items: Array(999).fill(basic.items[0]) });
    expect(long.status, JSON.stringify(long.body)).to.equal(202);
    // Delivered before the baseline: the in-process simulator's parse of it is no part of either measurement.
    expect((await until(env.stack, long.body.external_id, ['accepted', 'observed'], 120_000)).status).to.equal(
      'accepted',
    );
    // Serialised once: the flooders' own work runs on this process's event loop too, and is not the API's.
    const xmlBody = JSON.stringify({ xml: Buffer.from(largestTamperedInvoice(external.ruc)).toString('base64') });
    const form = certificateForm(generateTestCertificate({ ruc: uploader.ruc }).pfx('clave'), 'not-the-password');

    const get = (path: string, token?: string) =>
      fetch(`${base()}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const victimIssue = () =>
      fetch(`${base()}/v1/cpe`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${victim.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload('invoice-basic.json', victim.ruc)),
      });
    const sample = async (check = true) => {
      const issues: number[] = [];
      const ready: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const issued = await timed(victimIssue);
        if (check) expect(issued.res.status, issued.text).to.equal(202);
        issues.push(issued.ms);
        const readyz = await timed(() => get('/readyz'));
        if (check) expect(readyz.res.status, readyz.text).to.equal(200);
        ready.push(readyz.ms);
      }
      return { issue: median(issues), readyz: median(ready) };
    };

    // Warm: the first issue, the first readyz and the first PDF of a process pay for loading code.
    await sample(false);
    const idle = await sample();
    const rssIdle = process.memoryUsage().rss;

    const paths: [string, () => Promise<Response>][] = [
      ['api pdf', () => get(`/v1/cpe/${long.body.external_id}/pdf`, printer.token)],
      ['consulta pdf', () => get(signedFilePath(env.stack.secrets, long.body.external_id, 'pdf'))],
      [
        'external xml',
        () =>
          fetch(`${base()}/v1/cpe`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${external.token}`, 'Content-Type': 'application/json' },
            body: xmlBody,
          }),
      ],
      [
        'pkcs12',
        () => {
          return fetch(`${base()}/v1/companies/${uploader.ruc}/certificate`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${uploader.accountToken}`, ...form.headers },
            body: new Uint8Array(form.body),
          });
        },
      ],
    ];
    const { measured: flooded, tallies, delays, rssPeak } = await whileFlooded(paths, rssIdle, sample);

    // Idle again once the flood is over: on a shared machine, the baseline is whichever idle was slower.
    const after = await sample();
    const calm = { issue: Math.max(idle.issue, after.issue), readyz: Math.max(idle.readyz, after.readyz) };
    const rss = [rssIdle, rssPeak].map((bytes) => Math.round(bytes / 2 ** 20));
    console.log(
      `      idle ${JSON.stringify(idle)} flooded ${JSON.stringify(flooded)} idle after ${JSON.stringify(after)}`,
    );
    console.log(`      RSS ${rss.join(' → ')} MB; event loop delay p50/p99/max ${delays.join('/')} ms`);

    // Another account: within a small multiple of idle (generous: the machine is shared, the pool's threads take CPU).
    expect(flooded.issue, 'issue under flood vs idle').to.be.below(within(calm.issue));
    expect(flooded.readyz, '/readyz under flood vs idle').to.be.below(within(calm.readyz));
    expectFloodersAnswered(tallies);
    // The API's process (API, worker and pool threads here): bounded, nothing like issue 40's 3.2 GB.
    expect(rssPeak - rssIdle, 'RSS growth under flood').to.be.below(1024 * 2 ** 20);
  });
});

/**
 * Floods every path with FLOODERS_PER_PATH requests at a time and, once the pool's threads are all busy and something
 * waits, runs `measure`: its result, each path's tally, the event loop's delay p50/p99/max (ms) and the peak RSS.
 */
async function whileFlooded<T>(paths: [string, () => Promise<Response>][], rssIdle: number, measure: () => Promise<T>) {
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let stopped = false;
  let rssPeak = rssIdle;
  const rssWatch = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  const tallies = new Map<string, Tally>();
  const flooders = paths.flatMap(([name, request]) => {
    const tally: Tally = { statuses: {}, refusedWithoutRetryAfter: 0, slowestMs: 0, poolBounds: new Set() };
    tallies.set(name, tally);
    return Array.from({ length: FLOODERS_PER_PATH }, () => flood(() => stopped, request, tally));
  });
  let flooded: { measured: T; delays: number[] };
  try {
    // Bounded: every request is answered.
    for (let i = 0; i < 600 && !(await poolBusy()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    loopDelay.enable();
    const measured = await measure();
    loopDelay.disable();
    flooded = { measured, delays: [50, 99, 100].map((p) => Math.round(loopDelay.percentile(p) / 1e6)) };
  } finally {
    stopped = true;
    await Promise.all(flooders);
    clearInterval(rssWatch);
  }
  // The peak as the flooders wound down too.
  return { ...flooded, tallies, rssPeak };
}

/** Flooders: answered or refused with Retry-After, never past their bounds, and the pool's bounds refused them. */
function expectFloodersAnswered(tallies: Map<string, Tally>): void {
  const report = Object.fromEntries([...tallies].map(([name, t]) => [name, { ...t, poolBounds: [...t.poolBounds] }]));
  console.log('      flooders', JSON.stringify(report));
  for (const [name, tally] of tallies) {
    expect(tally.refusedWithoutRetryAfter, name).to.equal(0);
    expect(tally.slowestMs, `${name}: slowest answer`).to.be.below(FLOODER_PATIENCE_MS);
    expect(Object.keys(tally.statuses).map(Number), name).to.satisfy((codes: number[]) =>
      codes.every((code) => [200, 202, 422, 429, 503].includes(code)),
    );
  }
  const refused = [...tallies.values()].flatMap((t) => [...t.poolBounds]);
  expect(refused, 'the account queue bound refused someone').to.include('account_queue');
}

/** The pool's threads all busy and a task waiting, as its gauges say (the API runs in this process). */
async function poolBusy(): Promise<boolean> {
  const value = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
  return (await value('chasqui_heavy_running')) >= 2 && (await value('chasqui_heavy_queued')) > 0;
}
