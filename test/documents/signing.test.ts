import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';
import { prepareDocument } from '../../documents';
import { el } from '../../documents/xml/canonical';
import { createSigner, generateTestCertificate, loadPfx, signXml, verifyXmlSignature } from '../../documents/signing';
import { C14N, RSA_SHA256, SHA256 } from '../../documents/signing/signer';
import { scanCanonical } from '../../documents/signing/canonical-scan';
import { verifySignature } from '../../validator/signature';

const SAMPLES = path.resolve(__dirname, '../../sunat/samples');
const NS = {
  xmlns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  'xmlns:ext': 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
};

function canonicalInvoice(note = 'Venta de café & té <especial>'): string {
  return el(
    'Invoice',
    NS,
    el('ext:UBLExtensions', el('ext:UBLExtension', el('ext:ExtensionContent'))),
    el('cbc:UBLVersionID', '2.1'),
    el('cbc:ID', 'F001-1'),
    el('cbc:Note', { languageLocaleID: '1000' }, note),
    el(
      'cac:Signature',
      el('cbc:ID', 'SIGN-F001-1'),
      el('cac:DigitalSignatureAttachment', el('cac:ExternalReference', el('cbc:URI', '#SIGN-F001-1'))),
    ),
  ).s;
}

const tmp = mkdtempSync(path.join(tmpdir(), 'chasqui-signing-'));

/** The validator's XMLDSig check (xmldsigjs): an implementation independent of the xml-crypto signer. */
async function independentlyVerified(xml: string): Promise<boolean> {
  return (await verifySignature(xml)).result === 'ok';
}

describe('documents/signing', () => {
  const certificate = generateTestCertificate({ ruc: '20123456789' });
  const signer = createSigner(certificate);

  describe('signXml on canonical input (fast path)', () => {
    const xml = canonicalInvoice();
    const signed = signXml(xml, signer);

    it('verifies with xml-crypto and with the validator (xmldsigjs, independent of the signer)', async () => {
      const check = verifyXmlSignature(signed.xml);
      expect(check).to.include({ ok: true, digest: signed.hash });
      expect(check.certificateBase64).to.equal(signer.certificateBase64);
      expect(await independentlyVerified(signed.xml)).to.equal(true);
    });

    it('returns as hash the SHA-256 of the canonical document, and puts the signature in the placeholder with the referenced Id', () => {
      expect(signed.hash).to.equal(createHash('sha256').update(xml).digest('base64'));
      expect(signed.xml).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Invoice /);
      expect(signed.xml).to.include(
        '<ext:ExtensionContent><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="SIGN-F001-1">',
      );
    });

    it('gives the same digest as xml-crypto signing an equivalent non-canonical text', async () => {
      const foreign = `<?xml version="1.0" encoding="UTF-8"?>\n${xml.replace('<ext:ExtensionContent></ext:ExtensionContent>', '<ext:ExtensionContent/>')}`;
      expect(scanCanonical(foreign)).to.equal(null);
      const viaDom = signXml(foreign, signer);
      expect(viaDom.hash).to.equal(signed.hash);
      expect(verifyXmlSignature(viaDom.xml).ok).to.equal(true);
      expect(await independentlyVerified(viaDom.xml)).to.equal(true);
    });

    it('detects a tampered copy with both verifiers', async () => {
      const tampered = signed.xml.replace('F001-1</cbc:ID>', 'F001-2</cbc:ID>');
      expect(verifyXmlSignature(tampered)).to.include({
        ok: false,
        reason: 'digest mismatch: the signed content was changed after signing',
      });
      expect(await independentlyVerified(tampered)).to.equal(false);
    });

    it('detects a forged signature value', async () => {
      const forged = signed.xml.replace(/<ds:SignatureValue>./, (m) => m.slice(0, -1) + (m.endsWith('A') ? 'B' : 'A'));
      expect(verifyXmlSignature(forged)).to.include({ ok: false, reason: 'the signature value does not match' });
      expect(await independentlyVerified(forged)).to.equal(false);
    });
  });

  describe('signXml on foreign input (xml-crypto fallback)', () => {
    it('signs the pretty-printed ISO-8859-1 openubl invoice sample', async () => {
      const xml = readFileSync(path.join(SAMPLES, 'unsigned/openubl-invoice.xml'), 'latin1');
      const signed = signXml(xml, signer);
      expect(signed.xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).to.equal(true);
      expect(verifyXmlSignature(signed.xml)).to.include({ ok: true, digest: signed.hash });
      expect(await independentlyVerified(signed.xml)).to.equal(true);
    });

    it('signs a canonical-looking document whose attributes are out of order', async () => {
      const xml = canonicalInvoice().replace('<cbc:Note languageLocaleID="1000">', '<cbc:Note b="1" a="2">');
      expect(scanCanonical(xml)).to.equal(null);
      const signed = signXml(xml, signer);
      expect(verifyXmlSignature(signed.xml).ok).to.equal(true);
      expect(await independentlyVerified(signed.xml)).to.equal(true);
    });
  });

  describe('scanCanonical', () => {
    const xml = canonicalInvoice();
    it('finds the first empty ExtensionContent and the namespaces in scope there', () => {
      const scan = scanCanonical(xml)!;
      expect(xml.slice(scan.insertAt)).to.match(/^<\/ext:ExtensionContent>/);
      expect(Object.fromEntries(scan.namespaces)).to.deep.equal({
        '': NS.xmlns,
        cac: NS['xmlns:cac'],
        cbc: NS['xmlns:cbc'],
        ext: NS['xmlns:ext'],
      });
    });

    it('accepts every document the builders produce, so none of them pays for the DOM signer', () => {
      const dir = path.resolve(__dirname, '../fixtures/documents');
      const documents = readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => prepareDocument(JSON.parse(readFileSync(path.join(dir, f), 'utf8'))));
      expect(documents.length).to.be.greaterThan(60);
      expect(documents.filter((d) => scanCanonical(d.xml) === null).map((d) => d.filename)).to.deep.equal([]);
    });

    const notCanonical: Record<string, string> = {
      'an XML declaration': `<?xml version="1.0"?>${xml}`,
      'an empty-element tag': xml.replace('<cbc:UBLVersionID>2.1</cbc:UBLVersionID>', '<cbc:UBLVersionID/>'),
      'a single-quoted attribute': xml.replace('languageLocaleID="1000"', "languageLocaleID='1000'"),
      'a redundant namespace declaration': xml.replace('<cbc:ID>', `<cbc:ID xmlns:cbc="${NS['xmlns:cbc']}">`),
      'namespace declarations out of order': xml.replace(
        /xmlns:cac="[^"]*" (xmlns:cbc="[^"]*")/,
        `$1 xmlns:cac="${NS['xmlns:cac']}"`,
      ),
      'a prefixed attribute': xml.replace('<cbc:Note ', '<cbc:Note xml:lang="es" '),
      'a character reference': xml.replace('café', 'caf&#233;'),
      'a raw > in text': xml.replace('&gt;', '>'),
      'a comment': xml.replace('<cbc:ID>', '<!-- c --><cbc:ID>'),
      'trailing whitespace': `${xml}\n`,
      'unbalanced tags': xml.replace('</cbc:ID>', '</cbc:Id>'),
      'no empty ExtensionContent': xml.replace(
        '<ext:ExtensionContent></ext:ExtensionContent>',
        '<ext:ExtensionContent><x></x></ext:ExtensionContent>',
      ),
    };
    for (const [what, text] of Object.entries(notCanonical)) {
      it(`rejects ${what}`, () => expect(scanCanonical(text)).to.equal(null));
    }
  });

  describe('verifyXmlSignature', () => {
    it('accepts the kit signed samples and rejects the altered one', () => {
      const good = readFileSync(path.join(SAMPLES, 'signed-rsa-sha256/12345678912-01-FF11-1.xml'), 'latin1');
      expect(verifyXmlSignature(good).ok).to.equal(true);
      const altered = readFileSync(path.join(SAMPLES, 'signed/12345678912-01-F001-1_alterado.xml'), 'latin1');
      expect(verifyXmlSignature(altered)).to.include({
        ok: false,
        reason: 'digest mismatch: the signed content was changed after signing',
      });
    });

    it('refuses a valid signature that covers only part of the document', () => {
      const partial = new SignedXml({
        privateKey: signer.key,
        publicCert: certificate.certificatePem,
        signatureAlgorithm: RSA_SHA256,
        canonicalizationAlgorithm: C14N,
      });
      partial.addReference({ xpath: "//*[local-name()='Note']", transforms: [C14N], digestAlgorithm: SHA256 });
      partial.computeSignature(canonicalInvoice(), {
        prefix: 'ds',
        location: { reference: "//*[local-name()='ExtensionContent']", action: 'append' },
      });
      const xml = partial.getSignedXml().replace('F001-1</cbc:ID>', 'F001-9</cbc:ID>');
      expect(verifyXmlSignature(xml)).to.include({
        ok: false,
        reason: 'the signature does not cover the whole document (one Reference with URI="" expected)',
      });
    });

    it('reports an unsigned document', () => {
      expect(verifyXmlSignature(canonicalInvoice())).to.deep.equal({
        ok: false,
        reason: 'the document has no ds:Signature',
      });
    });
  });

  describe('createSigner', () => {
    it('refuses a key that does not belong to the certificate', () => {
      const other = generateTestCertificate();
      expect(() =>
        createSigner({ privateKeyPem: other.privateKeyPem, certificatePem: certificate.certificatePem }),
      ).to.throw(/does not belong/);
    });
  });

  describe('loadPfx', () => {
    const now = new Date();

    it('reads a generated PFX: key, certificate, dates and the RUC of the subject', () => {
      const result = loadPfx(certificate.pfx('s3cret'), 's3cret', { now });
      if (!result.ok) throw new Error(result.message);
      expect(result.certificate.ruc).to.equal('20123456789');
      expect(result.certificate.subject).to.include('CN=CHASQUI TEST CERTIFICATE');
      expect(result.certificate.certificateBase64).to.equal(signer.certificateBase64);
      expect(result.certificate.notAfter > now).to.equal(true);
      const fromPfx = createSigner(result.certificate);
      expect(verifyXmlSignature(signXml(canonicalInvoice(), fromPfx).xml).ok).to.equal(true);
    });

    it('reads a PFX written by OpenSSL, its default (AES, SHA-256 MAC) and its legacy protection (RC2-40, 3DES)', function () {
      const dir = mkdtempSync(path.join(tmp, 'openssl-'));
      const run = (args: string[]) => spawnSync('openssl', args, { cwd: dir });
      if (run(['version']).status !== 0) this.skip();
      run([
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'k.pem',
        '-out',
        'c.pem',
        '-days',
        '2',
        '-subj',
        '/CN=EMPRESA SAC/serialNumber=20601234567',
      ]);
      // Both keep the certificate in an encrypted safe, which the cost check decrypts to count what lies inside.
      for (const [legacy, safe] of [
        [[], /PKCS7 Encrypted data: PBES2, PBKDF2, AES-256-CBC/],
        [['-legacy'], /PKCS7 Encrypted data: pbeWithSHA1And40BitRC2-CBC/],
      ] as const) {
        const out = ['-out', 'c.pfx', '-passout', 'pass:clave'];
        const exported = run(['pkcs12', '-export', ...legacy, '-inkey', 'k.pem', '-in', 'c.pem', ...out]);
        expect(exported.status, exported.stderr.toString()).to.equal(0);
        const info = run(['pkcs12', '-in', 'c.pfx', '-info', '-noout', '-passin', 'pass:clave', ...legacy]);
        expect(info.stderr.toString()).to.match(safe);
        const pfx = readFileSync(path.join(dir, 'c.pfx'));
        const result = loadPfx(pfx, 'clave');
        expect(result.ok && result.certificate.ruc, legacy.join()).to.equal('20601234567');
        expect(loadPfx(pfx, 'clavo')).to.include({ ok: false, reason: 'wrong_password' });
      }
    });

    it("says wrong_password for every wrong password of OpenSSL's legacy file, also one that decrypts to DER", function () {
      const dir = mkdtempSync(path.join(tmp, 'openssl-legacy-'));
      const run = (args: string[]) => spawnSync('openssl', args, { cwd: dir });
      if (run(['version']).status !== 0) this.skip();
      const subject = ['-subj', '/CN=EMPRESA SAC/serialNumber=20601234567'];
      run([
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'k.pem',
        '-out',
        'c.pem',
        '-days',
        '2',
        ...subject,
      ]);
      const out = ['-out', 'c.pfx', '-passout', 'pass:clave'];
      expect(run(['pkcs12', '-export', '-legacy', '-inkey', 'k.pem', '-in', 'c.pem', ...out]).status).to.equal(0);
      const pfx = readFileSync(path.join(dir, 'c.pfx'));
      // About 1 wrong key in 125 decrypts its RC2-40 safe to valid padding and DER (CI once got not_pfx): 1,000 meet some.
      const reasons = new Set(
        Array.from({ length: 1_000 }, (_, i) => loadPfx(pfx, `clavo${i}`)).map((r) => !r.ok && r.reason),
      );
      expect([...reasons]).to.deep.equal(['wrong_password']);
    });

    it('says wrong_password for a wrong password', () => {
      expect(loadPfx(certificate.pfx('s3cret'), 'other')).to.include({ ok: false, reason: 'wrong_password' });
    });

    it('says not_pfx for garbage', () => {
      expect(loadPfx(Buffer.from('this is not a certificate'), 'x')).to.include({ ok: false, reason: 'not_pfx' });
      expect(loadPfx(Buffer.from(certificate.certificatePem), 'x')).to.include({ ok: false, reason: 'not_pfx' });
    });

    it('says too_large above the size limit', () => {
      expect(loadPfx(Buffer.alloc(70 * 1024, 0x30), 'x')).to.include({ ok: false, reason: 'too_large' });
      expect(loadPfx(certificate.pfx('p'), 'p', { maxBytes: 100 })).to.include({ ok: false, reason: 'too_large' });
    });

    it('says no_private_key for a PFX with only the certificate', () => {
      const cert = forge.pki.certificateFromPem(certificate.certificatePem);
      const der = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(null, [cert], 'p', { algorithm: '3des' })).getBytes();
      expect(loadPfx(Buffer.from(der, 'binary'), 'p')).to.include({ ok: false, reason: 'no_private_key' });
    });

    it('says expired and not_yet_valid from the validity dates', () => {
      const expired = generateTestCertificate({ notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') });
      expect(loadPfx(expired.pfx('p'), 'p')).to.deep.include({ ok: false, reason: 'expired' });
      const future = generateTestCertificate({ notBefore: new Date(Date.now() + 86_400_000), validDays: 30 });
      expect(loadPfx(future.pfx('p'), 'p')).to.deep.include({ ok: false, reason: 'not_yet_valid' });
      // The clock is the caller's: the same file is valid on a date inside its window.
      expect(loadPfx(expired.pfx('p'), 'p', { now: new Date('2020-06-01') }).ok).to.equal(true);
    });
  });
});
