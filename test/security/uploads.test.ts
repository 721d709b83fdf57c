import { expect } from 'chai';
import { crc32, deflateSync } from 'node:zlib';
import http from 'node:http';
import forge from 'node-forge';
import got from 'got';
import { call, issue, newCompany, payload, startIssuingStack, type IssuingStack } from '../issuing/support';
import { loadPdfReader, PdfFile, testPng } from '../support/pdf-tools';
import { generateTestCertificate } from '../../documents/signing';
import { PFX_LIMITS } from '../../documents/signing/pfx-cost';
import { PFX_TIME_BOX_MS } from '../../api/companies/certificate';
import { HeavyFailedError } from '../../heavy/pool';
import { findLogo, saveLogo } from '../../db/logos';
import { certificateForm } from './support';
import { pfxWithKeyInEncryptedSafe } from './pfx-files';

/** A PNG whose header says `width`×`height` (`colour` 0 grey, 6 RGBA) and whose image data inflates to `rawBytes`. */
function png(width: number, height: number, rawBytes: number, colour = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = colour;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(rawBytes), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PFX whose MAC asks for `iterations` rounds: the MAC is the first thing node-forge derives a key for. */
function pfxWithMacIterations(pfx: Buffer, iterations: number): Buffer {
  const asn1 = forge.asn1.fromDer(pfx.toString('binary'));
  const macData = (asn1.value as forge.asn1.Asn1[])[2];
  (macData.value as forge.asn1.Asn1[])[2].value = forge.asn1.integerToDer(iterations).getBytes();
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

interface LargeUpload {
  status: number;
  body: { errors?: Record<string, string[]> };
  /** Bytes of the body the client got to write before the answer came or the server closed the connection. */
  sent: number;
}

/**
 * POSTs a multipart body of `size` bytes, announced by a Content-Length or chunked, as fast as the server reads it,
 * and stops writing at the answer: how much was sent says how much the server read (plus the sockets' buffers).
 */
function sendLargeForm(url: string, token: string, size: number, withLength: boolean): Promise<LargeUpload> {
  const boundary = 'chasquilarge';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="c.pfx"\r\n\r\n`,
  );
  const block = Buffer.alloc(64 * 1024, 0x30);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        ...(withLength ? { 'Content-Length': String(size) } : {}),
      },
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), sent });
        req.destroy();
      });
    });
    // Writing into a connection the server closed fails; the answer, already read or still coming, is what counts.
    req.on('error', (err) => !answered && sent < size && reject(err));
    const write = () => {
      while (!answered && !req.destroyed && sent < size) {
        const chunk = sent === 0 ? head : block.subarray(0, Math.min(block.length, size - sent));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (sent >= size) req.end();
    };
    write();
  });
}

const elapsed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

describe('security: uploads that reach a decoder (logo images, PKCS#12 certificates)', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  before(async function () {
    this.timeout(120_000);
    await loadPdfReader();
    env = await startIssuingStack({}, { worker: false });
  });
  after(() => env?.stop());

  describe('PUT /v1/companies/{ruc}/logo', () => {
    const put = (ruc: string, token: string, image: Buffer, type = 'image/png') =>
      elapsed(() =>
        call(env.stack, 'PUT', `/v1/companies/${ruc}/logo`, {
          token,
          body: image,
          headers: { 'Content-Type': type },
        }),
      );

    it('refuses a decompression bomb (1000×1000 declared, 100 MB of image data) with a 422 in under 2 s, storing nothing', async () => {
      const company = await newCompany(env.stack);
      const bomb = png(1000, 1000, 100 * 1024 * 1024);
      expect(bomb.length, 'fits within CHASQUI_LOGO_MAX_BYTES').to.be.below(256 * 1024);
      const [res, ms] = await put(company.ruc, company.accountToken, bomb);
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.errors.logo[0]).to.equal(
        'the PNG image data inflates to more than the 1001000 bytes its header declares',
      );
      expect(ms).to.be.below(2_000);
      expect(await findLogo(env.stack.db, company.row.id)).to.equal(null);
    });

    it('refuses header dimensions past the limits before inflating anything', async () => {
      const company = await newCompany(env.stack);
      const huge = png(100_000, 100_000, 10);
      const [sides] = await put(company.ruc, company.accountToken, huge);
      expect(sides.status).to.equal(422);
      expect(sides.body.errors.logo).to.deep.equal(['the image is 100000×100000 px; at most 2000 px a side']);
      const [pixels] = await put(company.ruc, company.accountToken, png(2000, 1500, 2000 * 1500 + 1500));
      expect(pixels.body.errors.logo).to.deep.equal(['the image is 2000×1500 px; at most 2000000 pixels']);
      // A JPEG's frame header is judged the same way (pdfkit embeds what it says).
      // SOI, then a frame header (SOF0) declaring 65535 × 65535 with three components, then EOI.
      const jpeg = Buffer.from(`ffd8ffc0001108ffffffff03${'00'.repeat(9)}ffd9`, 'hex');
      const [jpegRes] = await put(company.ruc, company.accountToken, jpeg, 'image/jpeg');
      expect(jpegRes.status).to.equal(422);
      expect(jpegRes.body.errors.logo).to.deep.equal(['the image is 65535×65535 px; at most 2000 px a side']);
      expect(await findLogo(env.stack.db, company.row.id)).to.equal(null);
      // Within the limits, an honest image is stored.
      const [stored] = await put(company.ruc, company.accountToken, testPng(200, 80));
      expect(stored.status).to.equal(200);
    });

    it('a bomb stored before the checks is never decoded: the PDF is printed without it, as fast as without a logo', async () => {
      const company = await newCompany(env.stack);
      const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
      expect(issued.status, JSON.stringify(issued.body)).to.equal(202);
      const pdf = () =>
        elapsed(() =>
          got(`${env.stack.url}/v1/cpe/${issued.body.external_id}/pdf`, {
            headers: { Authorization: `Bearer ${company.token}` },
            throwHttpErrors: false,
            responseType: 'buffer',
          }),
        );
      const [, withoutLogo] = await pdf(); // also loads the fonts, once per process
      // RGBA: pdfkit would inflate every byte to split the alpha channel.
      await saveLogo(env.stack.db, {
        company_id: company.row.id,
        content_type: 'image/png',
        image: png(1, 1, 100 * 1024 * 1024, 6),
        width: 1,
        height: 1,
      });
      const [res, ms] = await pdf();
      expect(res.statusCode).to.equal(200);
      expect(new PdfFile(res.body).images()).to.equal(0);
      expect(ms, `${Math.round(withoutLogo)} ms without a logo`).to.be.below(Math.max(1_000, 2 * withoutLogo));
    });
  });

  describe('POST /v1/companies/{ruc}/certificate', () => {
    const upload = (ruc: string, token: string, pfx: Buffer, password: string) =>
      elapsed(() =>
        call(env.stack, 'POST', `/v1/companies/${ruc}/certificate`, { token, ...certificateForm(pfx, password) }),
      );

    it('refuses a PFX whose MAC asks for 2^31-1 iterations with a 422 in under 2 s (node-forge would run for hours)', async () => {
      const company = await newCompany(env.stack);
      const honest = generateTestCertificate({ ruc: company.ruc }).pfx('clave');
      const [res, ms] = await upload(
        company.ruc,
        company.accountToken,
        pfxWithMacIterations(honest, 2 ** 31 - 1),
        'clave',
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.data.reason).to.equal('too_costly');
      expect(res.body.errors.certificate[0]).to.contain('up to 2147483647 iterations');
      expect(ms).to.be.below(2_000);
      const stored = await env.stack.db('certificates').where({ account_id: company.accountId });
      expect(stored).to.have.length(0);
      const after = await call(env.stack, 'GET', `/v1/companies/${company.ruc}`, { token: company.accountToken });
      expect(after.body.data.company.signing).to.not.equal('own_certificate');
    });

    it('opens an upload in a thread of the heavy-work pool, ended (and replaced) when it overruns its time box', async () => {
      const pfx = generateTestCertificate({ ruc: '20100066603' }).pfx('clave');
      const heavy = env.stack.heavy;
      const input = { pfx, password: 'clave', maxBytes: 64 * 1024 };
      const opened = await heavy.run('uploads-test', 'pfx', input);
      expect(opened.ok && opened.certificate.ruc).to.equal('20100066603');
      const threads = heavy.threads;
      // A file at the MAC's iteration limit with a 1 ms box: a warm thread opens an honest file in a few ms on a fast
      // machine, so a box near that raced (CI failed once with a 20 ms box).
      const costly = { ...input, pfx: pfxWithMacIterations(pfx, PFX_LIMITS.iterationsEach) };
      const [boxed, ms] = await elapsed(() => heavy.run('uploads-test', 'pfx', costly, 1).catch((err: Error) => err));
      expect(boxed).to.be.instanceOf(HeavyFailedError).and.to.include({ reason: 'timeout' });
      expect(ms).to.be.below(1_000);
      expect(heavy.threads, 'the ended thread is gone, none leaked').to.equal(threads - 1);
      // The next upload gets a new thread and opens.
      const again = await heavy.run('uploads-test', 'pfx', input);
      expect(again.ok).to.equal(true);
    });

    it('refuses a key larger than 4096 bits (each document would be signed with it in the request)', async () => {
      const company = await newCompany(env.stack);
      const cert = forge.pki.certificateFromPem(generateTestCertificate({ ruc: company.ruc }).certificatePem);
      // Only the modulus' size is read before refusing: a key of random numbers of that size is enough (and instant).
      const big = (bits: number) =>
        new forge.jsbn.BigInteger(forge.util.bytesToHex(forge.random.getBytesSync(bits / 8)), 16);
      const n = big(8192);
      const key = forge.pki.setRsaPrivateKey(
        n,
        new forge.jsbn.BigInteger('65537'),
        big(8184),
        big(4096),
        big(4096),
        big(4000),
        big(4000),
        big(4000),
      );
      const pfx = Buffer.from(
        forge.asn1
          .toDer(forge.pkcs12.toPkcs12Asn1(key, [cert], 'clave', { algorithm: '3des', count: 2048 }))
          .getBytes(),
        'binary',
      );
      const [res] = await upload(company.ruc, company.accountToken, pfx, 'clave');
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.data.reason).to.equal('too_costly');
      expect(res.body.errors.certificate[0]).to.equal(`the key has ${n.bitLength()} bits; at most 4096 are accepted`);
    });

    it('refuses a shrouded key asking for more than the limit, and more derivations in all than the limit', async () => {
      const company = await newCompany(env.stack);
      const test = generateTestCertificate({ ruc: company.ruc });
      const key = forge.pki.privateKeyFromPem(test.privateKeyPem);
      const cert = forge.pki.certificateFromPem(test.certificatePem);
      const build = (count: number) =>
        Buffer.from(
          forge.asn1
            .toDer(forge.pkcs12.toPkcs12Asn1(key, [cert], 'clave', { algorithm: '3des', count, useMac: false }))
            .getBytes(),
          'binary',
        );
      const [res] = await upload(company.ruc, company.accountToken, build(PFX_LIMITS.iterationsEach + 1), 'clave');
      expect(res.status).to.equal(422);
      expect(res.body.data.reason).to.equal('too_costly');
      // The same file within the limit opens (the key bag is the only derivation without a MAC).
      const [ok] = await upload(company.ruc, company.accountToken, build(2048), 'clave');
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    });

    it('refuses a body past the file limit and the fields, with or without a Content-Length, reading no further', async () => {
      const company = await newCompany(env.stack);
      const url = `${env.stack.url}/v1/companies/${company.ruc}/certificate`;
      const size = 100 * 1024 * 1024;
      for (const withLength of [true, false]) {
        const [res, ms] = await elapsed(() => sendLargeForm(url, company.accountToken, size, withLength));
        expect(res.status, `Content-Length: ${withLength}`).to.equal(413);
        expect(res.body.errors?.certificate).to.deep.equal([`the whole form may hold at most ${128 * 1024} bytes`]);
        // The sockets' buffers hold a few megabytes at most: the other 90 MB were never read.
        expect(res.sent, `Content-Length: ${withLength}`).to.be.below(10 * 1024 * 1024);
        expect(ms).to.be.below(5_000);
      }
      expect(await env.stack.db('certificates').where({ account_id: company.accountId })).to.have.length(0);
      const after = await call(env.stack, 'GET', `/v1/companies/${company.ruc}`, { token: company.accountToken });
      expect(after.body.data.company.signing).to.not.equal('own_certificate');
    });

    it('answers a form that ends inside its file part with a 422, and the API lives on (its stream error once went unheard)', async () => {
      const company = await newCompany(env.stack);
      const { body, headers } = certificateForm(generateTestCertificate({ ruc: company.ruc }).pfx('clave'), 'clave');
      const res = await call(env.stack, 'POST', `/v1/companies/${company.ruc}/certificate`, {
        token: company.accountToken,
        body: body.subarray(0, 300),
        headers,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.errors).to.deep.equal({ certificate: ['malformed multipart body'] });
      const alive = await call(env.stack, 'GET', `/v1/companies/${company.ruc}`, { token: company.accountToken });
      expect(alive.status).to.equal(200);
    });

    it('counts the shrouded key inside an encrypted safe before forge derives it: 2^31-1 rounds refused in seconds', async () => {
      const company = await newCompany(env.stack);
      const test = generateTestCertificate({ ruc: company.ruc });
      const build = (safe: 'aes256' | '3des', safeCount: number, keyCount: number, macCount = 2048) =>
        pfxWithKeyInEncryptedSafe(test, 'clave', { safe: { algorithm: safe, count: safeCount }, keyCount, macCount });
      for (const safe of ['aes256', '3des'] as const) {
        const [res, ms] = await upload(company.ruc, company.accountToken, build(safe, 2048, 2 ** 31 - 1), 'clave');
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body.data.reason).to.equal('too_costly');
        // The check's own message: the worker's time box (10 s) answers another.
        expect(res.body.errors.certificate[0]).to.contain('3 key derivations of up to 2147483647 iterations');
        // Seconds at most on a loaded machine (a thread starts for each upload); forge would run for hours.
        expect(ms, safe).to.be.below(PFX_TIME_BOX_MS);
      }
      // Each within its limit, together past the total.
      const [total] = await upload(company.ruc, company.accountToken, build('aes256', 15_000, 15_000, 15_000), 'clave');
      expect(total.body.errors.certificate[0]).to.contain('3 key derivations of up to 15000 iterations');
      // An encrypted safe asking too much is refused before it is decrypted, whatever the password.
      const [safe] = await upload(company.ruc, company.accountToken, build('3des', 20_001, 2048), 'wrong');
      expect(safe.body.data.reason).to.equal('too_costly');
      // A wrong password still reads as one; the genuine file opens.
      const [wrong] = await upload(company.ruc, company.accountToken, build('aes256', 2048, 2048), 'clavo');
      expect(wrong.status).to.equal(422);
      expect(wrong.body.data.reason).to.equal('wrong_password');
      expect(wrong.body.errors.password).to.deep.equal(['the password does not open this certificate file']);
      expect(await env.stack.db('certificates').where({ account_id: company.accountId })).to.have.length(0);
      const [ok] = await upload(company.ruc, company.accountToken, build('3des', 2048, 2048), 'clave');
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    });
  });
});
