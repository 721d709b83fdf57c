import { expect } from 'chai';
import got from 'got';
import { startTestStack, type TestStack } from '../support/stack';
import { testConfig } from '../support/services';
import { logger } from '../../core/logger';
import { limitKey } from '../../api/client-address';

/**
 * Issue 32, item 3: the client's address behind every per-address limit is the socket's, or with CHASQUI_TRUST_PROXY=N
 * the one N hops from the right of X-Forwarded-For; what a client writes there is never its key. Each request comes
 * from a loopback address of this suite's own (got's localAddress), so other suites' requests do not share its logs.
 */
describe('security: the client address (CHASQUI_TRUST_PROXY, issue 32)', function () {
  this.timeout(60_000);
  const base = testConfig();
  const own = (n: number) => `127.${1 + (process.pid % 200)}.${n}.${1 + (Date.now() % 250)}`;
  const stacks: TestStack[] = [];
  const stack = async (trustProxy: number) => {
    const s = await startTestStack({
      worker: false,
      config: {
        trustProxy,
        buyers: { ...base.buyers, consultaRate: { limit: 3, windowSeconds: 60 } },
        consoleSignInRate: { limit: 3, windowSeconds: 300 },
      },
    });
    stacks.push(s);
    return s;
  };
  after(async () => {
    for (const s of stacks) await s.stop();
  });

  /** `count` POSTs to `path` from `from`, each with an X-Forwarded-For of its own; their statuses. */
  async function flood(url: string, from: string, count: number, forwarded: (i: number) => string) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await got.post(url, {
        localAddress: from,
        form: { nada: '1' },
        headers: { 'X-Forwarded-For': forwarded(i) },
        throwHttpErrors: false,
        followRedirect: false,
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  }
  const spoofed = (i: number) => `203.0.113.${i + 1}, 198.51.100.${i + 1}`;

  it('off (the default): a new X-Forwarded-For on every /consulta lookup still reaches 429', async () => {
    expect(testConfig({}).trustProxy, 'the default').to.equal(0);
    const s = await stack(0);
    const statuses = await flood(`${s.url}/consulta`, own(1), 5, spoofed);
    expect(statuses.slice(0, 3).every((code) => code !== 429)).to.equal(true);
    expect(statuses.slice(3)).to.deep.equal([429, 429]);
  });

  it('off: a new X-Forwarded-For on every console sign-in still reaches 429', async () => {
    const s = await stack(0);
    const statuses = await flood(`${s.url}/console/login`, own(2), 5, spoofed);
    // Refused for want of the form's CSRF cookie, but counted: guessing tokens costs attempts all the same.
    expect(statuses.slice(0, 3)).to.deep.equal([403, 403, 403]);
    expect(statuses.slice(3)).to.deep.equal([429, 429]);
  });

  it('one proxy: the address it appended is the key, whatever the client wrote to its left', async () => {
    const s = await stack(1);
    const proxyAppended = `198.51.100.${1 + (process.pid % 250)}`;
    const consulta = await flood(`${s.url}/consulta`, own(3), 4, (i) => `10.0.0.${i}, ${proxyAppended}`);
    expect(consulta[3]).to.equal(429);
    const signIn = await flood(`${s.url}/console/login`, own(4), 4, (i) => `10.0.1.${i}, ${proxyAppended}`);
    expect(signIn[3]).to.equal(429);
    // Another client behind the same proxy has its own count.
    const other = await flood(`${s.url}/consulta`, own(5), 1, () => `10.0.0.1, 198.51.100.251`);
    expect(other).to.deep.equal([422]);
  });

  it('IPv6: every address of one /64 is one client, so a subscriber cannot step through its 2^64 addresses', async () => {
    const s = await stack(1);
    const prefix = `2001:db8:${(process.pid % 65535).toString(16)}:${(Date.now() % 65535).toString(16)}`;
    const statuses = await flood(
      `${s.url}/consulta`,
      own(8),
      4,
      (i) => `${prefix}:${i + 1}:${i + 7}:${i + 3}:${i + 9}`,
    );
    expect(statuses[3]).to.equal(429);
    expect(limitKey(`${prefix}::1`)).to.equal(`${prefix}::/64`);
    expect(limitKey('::ffff:192.0.2.1')).to.equal('192.0.2.1');
    expect(limitKey('192.0.2.1')).to.equal('192.0.2.1');
  });

  it('two proxies: the client is two hops from the right; the rightmost entry is the first proxy', async () => {
    const s = await stack(2);
    const client = `192.0.2.${1 + (process.pid % 250)}`;
    const statuses = await flood(`${s.url}/consulta`, own(6), 4, (i) => `10.9.9.${i}, ${client}, 172.16.0.${i}`);
    expect(statuses[3]).to.equal(429);
  });

  it("the request log names the same address the limits count, never the client's own words", async () => {
    const lines: Record<string, unknown>[] = [];
    const info = logger.info.bind(logger);
    // Listens to the log lines the API writes (the logger itself still writes them).
    logger.info = ((obj: unknown, ...rest: unknown[]) => {
      if (typeof obj === 'object' && rest[0] === 'request') lines.push(obj as Record<string, unknown>);
      return (info as (...args: unknown[]) => void)(obj, ...rest);
    }) as typeof logger.info;
    try {
      const direct = await stack(0);
      const behind = await stack(1);
      const from = own(7);
      const headers = { 'X-Forwarded-For': '6.6.6.6, 198.51.100.77', 'X-Request-Id': `direct-${process.pid}` };
      await got(`${direct.url}/healthz`, { localAddress: from, headers, throwHttpErrors: false });
      await got(`${behind.url}/healthz`, {
        localAddress: from,
        headers: { ...headers, 'X-Request-Id': `behind-${process.pid}` },
        throwHttpErrors: false,
      });
    } finally {
      logger.info = info;
    }
    const ipOf = (id: string) => lines.find((line) => line.requestId === id)?.ip;
    expect(ipOf(`direct-${process.pid}`)).to.match(/^(::ffff:)?127\./);
    expect(ipOf(`behind-${process.pid}`)).to.equal('198.51.100.77');
  });

  it('refuses a CHASQUI_TRUST_PROXY that is not off or a number of proxies', () => {
    const { loadConfig, ConfigError } = require('../../core/config') as typeof import('../../core/config');
    expect(loadConfig({ CHASQUI_TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(loadConfig({ CHASQUI_TRUST_PROXY: 'off' }).trustProxy).to.equal(0);
    for (const value of ['true', 'yes', '-1', '1.5', '10'])
      expect(() => loadConfig({ CHASQUI_TRUST_PROXY: value }), value).to.throw(ConfigError, /CHASQUI_TRUST_PROXY/);
  });
});
