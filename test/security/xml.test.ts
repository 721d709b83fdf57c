import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentCount, issue, newCompany, payload, startIssuingStack, type IssuingStack } from '../issuing/support';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signXml, verifyXmlSignature } from '../../documents/signing';
import { declaresDtd, DTD_REFUSED } from '../../documents/xml/dtd';
import { parseRoot } from '../../documents/xml/read';
import { readSoapAnswer } from '../../authority/soap';
import { readCdrXml, readCdrZip } from '../../authority/cdr';
import { UNZIP_MAX_BYTES, zipEntries } from '../../authority/zip';
import { Validator } from '../../validator';

/** A marker file an external entity would read: its text must never show up anywhere. */
const SECRET = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-xxe-')), 'secret.txt');
fs.writeFileSync(SECRET, 'SECRETO-DEL-SERVIDOR');

/** The DTDs an attacker puts in front of a document, each with an entity reference in a text the document keeps. */
const ATTACKS: Record<string, { dtd: string; reference: string }> = {
  'billion laughs': {
    dtd:
      '<!DOCTYPE Invoice [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">' +
      '<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">' +
      '<!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>',
    reference: '&h;',
  },
  'external entity (a local file)': {
    dtd: `<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file://${SECRET}">]>`,
    reference: '&xxe;',
  },
  'external DTD (a URL)': {
    dtd: '<!DOCTYPE Invoice SYSTEM "http://169.254.169.254/latest/meta-data/">',
    reference: '',
  },
  'parameter entity': {
    dtd: `<!DOCTYPE Invoice [<!ENTITY % p SYSTEM "file://${SECRET}"> %p;]>`,
    reference: '',
  },
  'lower-case doctype after a comment and a processing instruction': {
    dtd: '<!-- hola --><?pi x?>\n<!doctype Invoice [<!ENTITY x "y">]>',
    reference: '&x;',
  },
};

/** `xml` with the attack's DTD after its XML declaration and its reference in the first line's description. */
function withDtd(xml: string, attack: { dtd: string; reference: string }): string {
  const declaration = /^<\?xml[^>]*\?>/.exec(xml)?.[0] ?? '';
  return (
    declaration +
    attack.dtd +
    xml.slice(declaration.length).replace('Caja de clavos', `Caja de clavos ${attack.reference}`)
  );
}

describe('security: XML from outside carries no DTD (entity bombs, external entities)', function () {
  this.timeout(60_000);

  it('the prolog reader finds a DOCTYPE wherever the prolog may hold one, and only there', () => {
    for (const [name, attack] of Object.entries(ATTACKS))
      expect(declaresDtd(withDtd('<?xml version="1.0"?><a/>', attack)), name).to.equal(true);
    expect(declaresDtd('\ufeff<!DOCTYPE a><a/>')).to.equal(true);
    expect(declaresDtd('<?xml version="1.0"?>\n<a><![CDATA[<!DOCTYPE is text here>]]></a>')).to.equal(false);
    expect(declaresDtd('<a>&lt;!DOCTYPE a&gt;</a>')).to.equal(false);
    expect(declaresDtd('<!-- <!DOCTYPE in a comment> --><a/>')).to.equal(false);
  });

  describe('POST /v1/cpe of a company that signs externally', () => {
    let env: IssuingStack;
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack({}, { worker: false });
    });
    after(() => env?.stop());

    it('refuses each DTD attack with a 422 BR_XML_DTD within a second, storing nothing', async () => {
      const company = await newCompany(env.stack, { settings: { destination: 'provider_ose', signing: 'external' } });
      const signer = createSigner(generateTestCertificate());
      for (const [name, attack] of Object.entries(ATTACKS)) {
        const signed = withDtd(
          signXml(prepareDocument(payload('invoice-basic.json', company.ruc)).xml, signer).xml,
          attack,
        );
        const started = performance.now();
        const res = await issue(env.stack, company.token, { xml: Buffer.from(signed).toString('base64') });
        expect(performance.now() - started, name).to.be.below(1_000);
        expect(res.status, name).to.equal(422);
        expect(res.body.errors.join(' '), name).to.contain('BR_XML_DTD').and.contain(DTD_REFUSED);
        expect(JSON.stringify(res.body), name).to.not.contain('SECRETO');
      }
      expect(await documentCount(env.stack, company.row.id)).to.equal(0);
    });
  });

  describe("the authority's answers and the other readers", () => {
    const bomb = ATTACKS['billion laughs'];
    const xxe = ATTACKS['external entity (a local file)'];

    it('a SOAP answer or a CDR with a DTD is refused as such, not read', () => {
      const soap = withDtd(
        '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
          '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Caja de clavos</faultstring></soap:Fault>' +
          '</soap:Body></soap:Envelope>',
        xxe,
      );
      expect(readSoapAnswer(soap, 'sendBillResponse')).to.deep.equal({
        kind: 'invalid',
        reason: `the answer is refused: ${DTD_REFUSED}`,
      });
      const cdr = withDtd(
        '<?xml version="1.0"?><ar:ApplicationResponse xmlns:ar="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2">' +
          'Caja de clavos</ar:ApplicationResponse>',
        bomb,
      );
      expect(readCdrXml(cdr)).to.deep.equal({ ok: false, reason: `the CDR is refused: ${DTD_REFUSED}` });
    });

    it('a CDR zip that unpacks past 16 MB is refused without unpacking it, even when its sizes lie', () => {
      const bomb = zipEntries([{ name: 'R-20100066603-01-F001-1.xml', data: Buffer.alloc(64 * 1024 * 1024) }]);
      expect(bomb.length).to.be.below(UNZIP_MAX_BYTES / 32);
      const started = performance.now();
      expect(readCdrZip(bomb)).to.deep.equal({ ok: false, reason: 'the CDR zip is too large' });
      expect(performance.now() - started).to.be.below(200);
      // The same entry declaring 10 bytes: inflated into 10 bytes, no more.
      const lying = Buffer.from(bomb);
      lying.writeUInt32LE(10, 22);
      lying.writeUInt32LE(10, lying.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
      expect(readCdrZip(lying).ok).to.equal(false);
    });

    it('`chasqui validate`, the signature check and the printed representation refuse it too', async () => {
      const signer = createSigner(generateTestCertificate());
      const signed = signXml(prepareDocument(payload('invoice-basic.json', '20100066603')).xml, signer).xml;
      const attacked = withDtd(signed, bomb);
      const validator = new Validator({ cacheDir: os.tmpdir(), skip: { xsd: true, xsl: true, sig: true } });
      const [report] = await validator.validate([{ file: '20100066603-01-F001-1.xml', xml: attacked }]);
      expect(report.problems).to.deep.equal([DTD_REFUSED]);
      expect(verifyXmlSignature(withDtd(signed, xxe))).to.deep.include({ ok: false, reason: DTD_REFUSED });
      expect(() => parseRoot(attacked)).to.throw(DTD_REFUSED);
    });
  });
});
