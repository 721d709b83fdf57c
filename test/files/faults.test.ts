import net from 'node:net';
import { expect } from 'chai';
import { S3_TIMEOUTS, S3Store } from '../../files/s3';
import { DocumentFiles } from '../../files/documents';
import { FileStoreUnavailableError } from '../../files/store';
import { fileStoreErrors } from '../../core/metrics';
import { keysOf, startTestS3, type TestS3 } from '../support/s3';

type Fault = 'none' | '503' | 'silent';

/**
 * A TCP hop in front of the real S3 server that can be told to misbehave the ways a store does in production: pass
 * everything through, answer every request 503 (S3's ServiceUnavailable, a throttled or failing server), or accept
 * the connection and never answer (a hung server or a black-holed network).
 */
async function faultyHop(upstream: URL): Promise<{ endpoint: string; fault: Fault; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const hop = {
    endpoint: '',
    fault: 'none' as Fault,
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
    client.pipe(server).pipe(client);
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
});
