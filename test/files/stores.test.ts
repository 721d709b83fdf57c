import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../core/config';
import { parseFilesUrl } from '../../files/location';
import { DirectoryStore } from '../../files/directory';
import { S3Store } from '../../files/s3';
import { DocumentFiles } from '../../files/documents';
import {
  documentFileKey,
  FileIntegrityError,
  FileStoreUnavailableError,
  sha256Of,
  type ObjectStore,
} from '../../files/store';
import { keysOf, startTestS3, type TestS3 } from '../support/s3';

const doc = { ruc: '20123456789', doc_type: '01', issue_date: '2026-11-27' };
const noS3 = { endpoint: null, region: null };

describe('files: CHASQUI_FILES_URL', () => {
  it('reads postgres:, file:/// and s3://bucket/prefix into fields; postgres: is the default', () => {
    expect(loadConfig({}).files).to.deep.equal({ kind: 'postgres' });
    expect(parseFilesUrl('file:///var/lib/chasqui/files', noS3)).to.deep.equal({
      kind: 'directory',
      path: '/var/lib/chasqui/files',
    });
    expect(
      parseFilesUrl('s3://cpe-archive/prod/files/', { endpoint: 'http://127.0.0.1:9000', region: 'sa-east-1' }),
    ).to.deep.equal({
      kind: 's3',
      bucket: 'cpe-archive',
      prefix: 'prod/files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'sa-east-1',
    });
  });

  it('refuses anything else with a message naming the variable and the forms it takes', () => {
    for (const bad of ['', 'mysql://x', 'file://host/dir', 'file:///', 's3://', 's3://B/x', 's3://bucket/a b'])
      expect(() => parseFilesUrl(bad, noS3), bad).to.throw(ConfigError, /CHASQUI_FILES_URL must be postgres:/);
    expect(() => parseFilesUrl('s3://bucket?region=x', noS3)).to.throw(ConfigError, /no query/);
    expect(() => parseFilesUrl('s3://key:secret@bucket', noS3)).to.throw(ConfigError, /credentials/);
    expect(() => parseFilesUrl('s3://bucket', { endpoint: 'ftp://x', region: null })).to.throw(
      ConfigError,
      /CHASQUI_S3_ENDPOINT must be http\(s\)/,
    );
  });

  it('keys a file by RUC, type, issue year and month and the SHA-256 of its bytes, checking every part', () => {
    const sha = sha256Of(Buffer.from('x')).toString('hex');
    expect(documentFileKey(doc, 'xml', sha)).to.equal(`20123456789/01/2026/11/${sha}.xml`);
    expect(() => documentFileKey({ ...doc, ruc: '../../etc' }, 'xml', sha)).to.throw(/no file key/);
    expect(() => documentFileKey({ ...doc, issue_date: '2026/11/27' }, 'zip', sha)).to.throw(/no file key/);
  });
});

/** The same behaviour from each object store: the directory and a real S3-compatible server. */
for (const backend of ['directory', 's3'] as const) {
  describe(`files: the ${backend} store`, function () {
    this.timeout(600_000);
    let store: ObjectStore;
    let s3: TestS3 | null = null;
    let root: string;

    before(async () => {
      if (backend === 's3') {
        s3 = await startTestS3({ prefix: 'stores' });
        store = new S3Store(s3.location);
        root = path.join(s3.dataDir, 'objects', s3.location.bucket, 'stores');
      } else {
        root = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-files-'));
        store = new DirectoryStore(root);
      }
    });
    after(async () => {
      await store.close();
      await s3?.stop();
    });

    it('puts by content and streams back the same bytes; head and list see it; delete removes it', async () => {
      const files = new DocumentFiles(store);
      const xml = `<Invoice>${randomBytes(8).toString('hex')}</Invoice>`;
      const placed = await files.placeXml(doc, xml);
      expect(placed.xml).to.equal(null);
      expect(placed.xml_sha256).to.deep.equal(sha256Of(Buffer.from(xml)));
      const key = documentFileKey(doc, 'xml', sha256Of(Buffer.from(xml)).toString('hex'));
      expect(placed.xml_size).to.equal(Buffer.byteLength(xml));
      // Written twice: the same key, the same bytes, no error.
      expect((await files.placeXml(doc, xml)).xml_sha256).to.deep.equal(placed.xml_sha256);
      expect(await files.xmlOf({ ...doc, ...placed })).to.equal(xml);
      expect((await store.head(key))!.size).to.equal(placed.xml_size);
      const listed = [];
      for await (const object of store.list()) listed.push(object.key);
      expect(listed).to.include(key);
      await store.delete(key);
      expect(await store.head(key)).to.equal(null);
    });

    it('one handle reads a document’s XML and CDR whatever its row holds, each from the store once however often asked', async () => {
      const files = new DocumentFiles(store);
      const xml = `<Invoice>${randomBytes(8).toString('hex')}</Invoice>`;
      const cdr = randomBytes(64);
      const row = {
        ...doc,
        ...(await files.placeXml(doc, xml)),
        ...(await files.placeCdr(doc, cdr.toString('base64'))),
      };
      const handle = files.of(row);
      expect(await handle.xml()).to.equal(xml);
      expect(await handle.cdr()).to.deep.equal(cdr);
      // Gone from the store, the handle still has them: it read each once.
      await Promise.all(Object.values(keysOf(row)).map((key) => store.delete(key!)));
      expect(await handle.xml()).to.equal(xml);
      expect(await handle.cdr()).to.deep.equal(cdr);
      expect(
        await files
          .of(row)
          .xml()
          .catch((err) => err),
      ).to.be.instanceOf(FileIntegrityError);
      // A row that holds its bytes answers the same through the same handle, whatever the store.
      const inline = { ...doc, xml, xml_sha256: null, xml_size: null, cdr_zip: cdr.toString('base64') };
      expect(await files.of(inline).xml()).to.equal(xml);
      expect(await files.of(inline).cdr()).to.deep.equal(cdr);
      expect(await files.of({ ...inline, cdr_zip: null }).cdr()).to.equal(null);
    });

    it('a missing or damaged object is a FileIntegrityError, whatever its size; the row’s own bytes need no store', async () => {
      const files = new DocumentFiles(store);
      const placed = await files.placeXml(doc, `<Invoice>${randomBytes(4).toString('hex')}</Invoice>`);
      await store.delete(keysOf({ ...doc, ...placed }).xml!);
      const missing = await files.xmlOf({ ...doc, ...placed }).catch((err) => err);
      expect(missing).to.be.instanceOf(FileIntegrityError).and.include({ reason: 'missing', status: 409 });

      // A large file (many chunks): the damage is found at its end, and the stream fails instead of ending clean.
      const large = Buffer.from(`<Invoice>${'x'.repeat(3_000_000)}</Invoice>`);
      const big = await files.put(doc, 'xml', large);
      const file = path.join(root, big.key);
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 20] = 'y'.charCodeAt(0);
      fs.writeFileSync(file, bytes);
      const opened = await files.open({ ...doc, xml: null, xml_sha256: big.sha256, xml_size: big.size }, 'xml');
      const received: Buffer[] = [];
      const failure = await (async () => {
        for await (const chunk of opened!.body as AsyncIterable<Buffer>) received.push(chunk);
      })().catch((err) => err);
      expect(failure).to.be.instanceOf(FileIntegrityError).and.include({ reason: 'hash' });
      expect(Buffer.concat(received).length).to.be.below(large.length);

      const inline = new DocumentFiles(null);
      expect(await inline.xmlOf({ ...doc, xml: '<a/>', xml_sha256: null, xml_size: null })).to.equal('<a/>');
      const cdr = await inline.open({ ...doc, xml: null, xml_sha256: null, xml_size: null, cdr_zip: 'UEs=' }, 'cdr');
      expect(cdr!.body).to.deep.equal(Buffer.from('PK'));
    });
  });
}

describe('files: a store that is down', function () {
  this.timeout(600_000);

  it('an S3 server that is gone, or a directory that cannot be written, is FileStoreUnavailableError (503, Retry-After)', async () => {
    const s3 = await startTestS3({ prefix: 'down' });
    const store = new S3Store(s3.location);
    try {
      await s3.server.kill();
      const put = await store.put('a/b.xml', Buffer.from('x'), 'application/xml').catch((err) => err);
      expect(put).to.be.instanceOf(FileStoreUnavailableError).and.include({ status: 503, operation: 'put' });
      expect(put.headers).to.deep.equal({ 'Retry-After': '5' });
      const get = await store.get('a/b.xml').catch((err) => err);
      expect(get).to.be.instanceOf(FileStoreUnavailableError).and.include({ operation: 'get' });
    } finally {
      await store.close();
      await s3.stop();
    }
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-files-')), 'not-a-dir');
    fs.writeFileSync(file, '');
    const put = await new DirectoryStore(file).put('a/b.xml', Buffer.from('x')).catch((err) => err);
    expect(put).to.be.instanceOf(FileStoreUnavailableError);
  });
});
