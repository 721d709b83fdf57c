import { expect } from 'chai';
import { startTestStack, type TestStack } from '../support/stack';
import { call, createCompany, newAccountToken, randomRuc } from './helpers';
import { generateTestCertificate } from '../../documents/signing';

/** A multipart/form-data body with the given file and text fields. */
function multipart(fields: { certificate?: Buffer; password?: string }): {
  body: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----chasqui${Date.now()}`;
  const parts: Buffer[] = [];
  if (fields.certificate) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="cert.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
      ),
    );
    parts.push(fields.certificate, Buffer.from('\r\n'));
  }
  if (fields.password !== undefined) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${fields.password}\r\n`),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}

describe('certificate upload and webhook configuration', function () {
  let stack: TestStack;
  let token: string;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false, config: { certificateMaxBytes: 16 * 1024 } });
    token = (await newAccountToken(stack)).token;
  });
  after(() => stack?.stop());

  describe('POST /{ruc}/certificate', () => {
    let ruc: string;
    beforeEach(async () => {
      ruc = randomRuc();
      await createCompany(stack, token, ruc);
    });
    const upload = (fields: { certificate?: Buffer; password?: string }) => {
      const { body, headers } = multipart(fields);
      return call(stack, 'POST', `/v1/companies/${ruc}/certificate`, { token, body, headers });
    };

    it('stores a good PFX: the record shows subject, serial and validity, signing own_certificate, key sealed', async () => {
      const certificate = generateTestCertificate({ ruc, commonName: 'EMPRESA DE PRUEBA' });
      const res = await upload({ certificate: certificate.pfx('clave-pfx'), password: 'clave-pfx' });
      expect(res.status).to.equal(201);
      const company = res.body.data.company;
      expect(company.signing).to.equal('own_certificate');
      expect(company.certificate.subject).to.contain('CN=EMPRESA DE PRUEBA');
      expect(company.certificate).to.include.keys(['serial_number', 'valid_from', 'valid_to', 'issuer']);
      expect(company.tax_procedures.pse_authorization.state).to.equal('not_applicable');
      const row = await stack.db('certificates').where({ serial_number: company.certificate.serial_number }).first();
      expect(row.private_key_sealed).not.to.contain('PRIVATE KEY');
      expect(stack.secrets.open(row.private_key_sealed).replace(/\r\n/g, '\n')).to.equal(certificate.privateKeyPem);
      expect(JSON.stringify(row)).not.to.contain('clave-pfx');
    });

    it('replaces the previous own certificate and deletes it; deleting the company releases the current one', async () => {
      const first = await upload({ certificate: generateTestCertificate({ ruc }).pfx('a'), password: 'a' });
      const second = await upload({ certificate: generateTestCertificate({ ruc }).pfx('b'), password: 'b' });
      expect(second.status).to.equal(201);
      const serials = [first, second].map((r) => r.body.data.company.certificate.serial_number);
      expect(await stack.db('certificates').whereIn('serial_number', serials).pluck('serial_number')).to.deep.equal([
        serials[1],
      ]);
      await call(stack, 'DELETE', `/v1/companies/${ruc}`, { token });
      expect(await stack.db('certificates').whereIn('serial_number', serials)).to.have.length(0);
    });

    const failures: [string, () => { certificate?: Buffer; password?: string }, string, string][] = [
      [
        'a wrong password',
        () => ({ certificate: generateTestCertificate().pfx('right'), password: 'wrong' }),
        'wrong_password',
        'password',
      ],
      [
        'a file that is not a PFX',
        () => ({ certificate: Buffer.from('not a certificate at all'), password: 'x' }),
        'not_pfx',
        'certificate',
      ],
      [
        'an expired certificate',
        () => ({
          certificate: generateTestCertificate({
            notBefore: new Date('2020-01-01'),
            notAfter: new Date('2021-01-01'),
          }).pfx('x'),
          password: 'x',
        }),
        'expired',
        'certificate',
      ],
      [
        'a file over the size limit',
        () => ({ certificate: Buffer.alloc(20 * 1024, 1), password: 'x' }),
        'too_large',
        'certificate',
      ],
      [
        'a certificate of another RUC',
        () => ({ certificate: generateTestCertificate({ ruc: randomRuc() }).pfx('x'), password: 'x' }),
        'other_ruc',
        'certificate',
      ],
    ];
    for (const [what, fields, reason, field] of failures) {
      it(`answers 422 naming the reason for ${what}`, async () => {
        const res = await upload(fields());
        expect(res.status).to.equal(422);
        expect(res.body.data.reason).to.equal(reason);
        expect(res.body.errors[field]).to.have.length(1);
        expect(res.body.message).to.match(/^The certificate cannot be used: /);
      });
    }

    it('answers 422, never 500, for a multipart body without boundary or cut short', async () => {
      const path = `/v1/companies/${ruc}/certificate`;
      const noBoundary = await call(stack, 'POST', path, {
        token,
        body: 'x',
        headers: { 'Content-Type': 'multipart/form-data' },
      });
      expect(noBoundary.status).to.equal(422);
      const { body, headers } = multipart({ certificate: generateTestCertificate().pfx('x'), password: 'x' });
      const cut = await call(stack, 'POST', path, { token, body: body.subarray(0, body.length - 40), headers });
      expect(cut.status).to.equal(422);
      expect(cut.body.success).to.equal(false);
    });

    it('answers 422 for missing fields and for a JSON body', async () => {
      const missing = await upload({});
      expect(missing.status).to.equal(422);
      expect(missing.body.errors).to.have.keys(['certificate', 'password']);
      const json = await call(stack, 'POST', `/v1/companies/${ruc}/certificate`, { token, json: { certificate: 'x' } });
      expect(json.status).to.equal(422);
    });
  });

  describe('PATCH /{ruc}/webhook', () => {
    let ruc: string;
    beforeEach(async () => {
      ruc = randomRuc();
      await createCompany(stack, token, ruc);
    });
    const configure = (url: unknown) => call(stack, 'PATCH', `/v1/companies/${ruc}/webhook`, { token, json: { url } });

    it('registers a public https URL with a 48-character secret shown once, sealed at rest', async () => {
      const res = await configure('https://93.184.215.14/hooks/chasqui');
      expect(res.status).to.equal(200);
      const { webhook } = res.body.data;
      expect(webhook).to.include({ url: 'https://93.184.215.14/hooks/chasqui', event: 'cpe.resolved' });
      expect(webhook.secret).to.have.length(48);
      expect(webhook.note).to.be.a('string');
      const row = await stack.db('companies').where({ ruc }).first();
      expect(stack.secrets.open(row.webhook_secret_sealed)).to.equal(webhook.secret);
      const read = await call(stack, 'GET', `/v1/companies/${ruc}`, { token });
      expect(read.body.data.company.webhook).to.include({ url: webhook.url, event: 'cpe.resolved' });
      expect(JSON.stringify(read.body)).not.to.contain(webhook.secret);
    });

    it('makes a new secret for a new URL, keeps it for the same URL, and disables with null', async () => {
      const a = (await configure('https://93.184.215.14/a')).body.data.webhook.secret;
      const b = (await configure('https://93.184.215.14/b')).body.data.webhook.secret;
      expect(b).to.not.equal(a);
      const same = await configure('https://93.184.215.14/b');
      expect(same.status).to.equal(200);
      expect(same.body.data.webhook.secret).to.equal(undefined);
      const off = await configure(null);
      expect(off.body).to.deep.equal({ success: true, message: 'Webhook disabled' });
      expect((await call(stack, 'GET', `/v1/companies/${ruc}`, { token })).body.data.company.webhook).to.equal(null);
    });

    for (const url of [
      'http://93.184.215.14/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.8/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://100.64.0.1/hook',
      'not a url',
      'https://user:pw@93.184.215.14/',
    ]) {
      it(`rejects ${url} with 422`, async () => {
        const res = await configure(url);
        expect(res.status).to.equal(422);
        expect(res.body.success).to.equal(false);
        expect(res.body.errors.url).to.have.length(1);
      });
    }

    it('requires the url field', async () => {
      const res = await call(stack, 'PATCH', `/v1/companies/${ruc}/webhook`, { token, json: {} });
      expect(res.status).to.equal(422);
      expect(res.body.errors).to.have.key('url');
    });
  });
});

describe('webhook with CHASQUI_WEBHOOK_ALLOW_PRIVATE', function () {
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false, config: { webhookAllowPrivate: true } });
  });
  after(() => stack?.stop());

  it('accepts a private https target but still requires https', async () => {
    const { token } = await newAccountToken(stack);
    const ruc = randomRuc();
    await createCompany(stack, token, ruc);
    const ok = await call(stack, 'PATCH', `/v1/companies/${ruc}/webhook`, {
      token,
      json: { url: 'https://localhost:8443/hook' },
    });
    expect(ok.status).to.equal(200);
    const plain = await call(stack, 'PATCH', `/v1/companies/${ruc}/webhook`, {
      token,
      json: { url: 'http://localhost:8443/hook' },
    });
    expect(plain.status).to.equal(422);
  });
});
