import net from 'node:net';
import { once } from 'node:events';
import Koa from 'koa';
import got from 'got';
import { expect } from 'chai';
import { S3_TIMEOUTS, S3Store } from '../../files/s3';
import { DocumentFiles } from '../../files/documents';
import { FileStoreUnavailableError } from '../../files/store';
import { fileStoreErrors } from '../../core/metrics';
import { testConfig } from '../support/services';
import { sendDocumentFile } from '../../api/download';
import type { AppDeps } from '../../api/deps';
import type { DocumentRow } from '../../db/documents';
import { keysOf, startTestS3, type TestS3 } from '../support/s3';

type Fault = 'none' | '503' | 'silent' | 'held';

/** With 'held', the bytes of an answer the hop passes on before it holds the rest until `release`. */
const HELD_AFTER = 256 * 1024;

/**
 * A TCP hop in front of the real S3 server that can be told to misbehave the ways a store does in production: pass
 * everything through, answer every request 503 (S3's ServiceUnavailable, a throttled or failing server), or accept
 * the connection and never answer (a hung server or a black-holed network); or pass an answer's first bytes and hold
 * the rest until released (a large object still on its way: what tells a streamed download from a buffered one).
 */
async function faultyHop(
  upstream: URL,
): Promise<{ endpoint: string; fault: Fault; release(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const holds: (() => void)[] = [];
  const hop = {
    endpoint: '',
    fault: 'none' as Fault,
    release: () => holds.splice(0).forEach((go) => go()),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (hop.fault === 'silent') return;
    if (hop.fault === '503') {
      const body = '<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>down</Message></Error>';
      client.once('data', () =>
        client.end(
          `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/xml\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        ),
      );
      return;
    }
    const server = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(server);
    server.on('error', () => client.destroy());
    client.pipe(server);
    if (hop.fault !== 'held') return server.pipe(client);
    let passed = 0;
    server.on('data', (chunk: Buffer) => {
      if (passed >= HELD_AFTER) return;
      const now = chunk.subarray(0, HELD_AFTER - passed);
      passed += chunk.length;
      client.write(now);
      if (passed < HELD_AFTER) return;
      server.pause();
      holds.push(() => {
        client.write(chunk.subarray(now.length));
        server.removeAllListeners('data');
        server.pipe(client);
        server.resume();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hop.endpoint = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return hop;
}

describe('files: an S3 store that answers 503 or never answers', function () {
  this.timeout(120_000);
  let s3: TestS3;
  let hop: Awaited<ReturnType<typeof faultyHop>>;
  let store: S3Store;
  const timeouts = { ...S3_TIMEOUTS };

  before(async () => {
    s3 = await startTestS3({ prefix: 'faults' });
    hop = await faultyHop(new URL(s3.location.endpoint!));
    // Injected durations: the same timeouts as production, short enough that a hung store is seen in a second.
    Object.assign(S3_TIMEOUTS, { connectMs: 500, requestMs: 500 });
    store = new S3Store({ ...s3.location, endpoint: hop.endpoint });
  });
  after(async () => {
    Object.assign(S3_TIMEOUTS, timeouts);
    await store?.close();
    await hop?.close();
    await s3?.stop();
  });

  const errorsCounted = async (operation: string) =>
    (await fileStoreErrors.get()).values.find((v) => v.labels.operation === operation && v.labels.store === 's3')
      ?.value ?? 0;

  for (const fault of ['503', 'silent'] as const) {
    it(`${fault === '503' ? 'answering 503' : 'never answering'}: every call is FileStoreUnavailableError (503, Retry-After) and counted; once well, the same store works`, async () => {
      const files = new DocumentFiles(store);
      const doc = { ruc: '20123456789', doc_type: '01', issue_date: '2026-12-01' };
      hop.fault = 'none';
      const placed = { ...doc, ...(await files.placeXml(doc, `<Invoice>${fault}</Invoice>`)) };

      hop.fault = fault;
      const putsBefore = await errorsCounted('put');
      const started = performance.now();
      const put = await files.placeXml(doc, '<Invoice>not stored</Invoice>').catch((err) => err);
      expect(put).to.be.instanceOf(FileStoreUnavailableError).and.include({ status: 503, operation: 'put' });
      expect(put.headers).to.deep.equal({ 'Retry-After': '5' });
      // Bounded by the timeouts: never a request that hangs with the integrator waiting.
      expect(performance.now() - started).to.be.below(S3_TIMEOUTS.attempts * (S3_TIMEOUTS.requestMs + 1_000) + 2_000);
      expect(await errorsCounted('put')).to.equal(putsBefore + 1);
      const read = await files.xmlOf(placed).catch((err) => err);
      expect(read).to.be.instanceOf(FileStoreUnavailableError).and.include({ status: 503, operation: 'get' });
      const head = await store.head(keysOf(placed).xml!).catch((err) => err);
      expect(head).to.be.instanceOf(FileStoreUnavailableError).and.include({ operation: 'head' });

      hop.fault = 'none';
      expect(await files.xmlOf(placed)).to.equal(`<Invoice>${fault}</Invoice>`);
    });
  }

  it('a download streams: its first bytes reach the client while the rest of the object is still held in the store', async () => {
    const files = new DocumentFiles(store);
    const doc = { ruc: '20123456789', doc_type: '01', issue_date: '2026-12-01' };
    const large = `<Invoice>${'x'.repeat(3 * 1024 * 1024)}</Invoice>`;
    hop.fault = 'none';
    const row = { ...doc, ...(await files.placeXml(doc, large)), filename: '20123456789-01-F001-1' } as DocumentRow;
    const app = new Koa();
    const deps = { config: testConfig(), files } as AppDeps;
    app.use((ctx) => sendDocumentFile(ctx, deps, row, 'xml', { unavailable: () => undefined }));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      hop.fault = 'held';
      const response = got.stream(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`);
      const received: Buffer[] = [];
      let size = 0;
      const firstBytes = new Promise<void>((resolve) =>
        response.on('data', (chunk: Buffer) => {
          received.push(chunk);
          size += chunk.length;
          if (size > 0) resolve();
        }),
      );
      const ended = once(response, 'end');
      await firstBytes;
      // Bytes reached the client though the store has not sent the whole object: nothing waited for all of it.
      expect(size).to.be.above(0).and.below(large.length);
      hop.release();
      await ended;
      expect(Buffer.concat(received).toString('utf8')).to.equal(large);
    } finally {
      hop.fault = 'none';
      server.close();
    }
  });
});
