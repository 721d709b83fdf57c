import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { verifyXmlSignature } from '../../documents/signing';
import { checkSignature, verifyCanonicalSignature } from '../../simulator/signature';
import { sample, SUNAT_DIR } from '../authority/support';
import { despatch, invoice, summary } from '../support/ubl-fixtures';
import { RUC, sign } from './support';

describe('simulator signature check: string path agrees with xml-crypto', () => {
  const docs = [
    invoice({ ruc: RUC, series: 'F001', number: 1 }),
    summary(RUC, '2026-11-21', 1),
    despatch(RUC, 'T001', 1),
  ].map((d) => sign(d).xml);

  it('accepts what chasqui signs, on the string path', () => {
    for (const xml of docs) {
      expect(verifyXmlSignature(xml).ok).to.equal(true);
      expect(verifyCanonicalSignature(xml)).to.deep.include({ ok: true });
      expect(checkSignature(xml)).to.deep.include({ ok: true, present: true, path: 'string' });
    }
  });

  it('rejects altered content, an altered signature value and an altered digest like xml-crypto does', () => {
    const xml = docs[0];
    const value = /<ds:SignatureValue>([^<]+)</.exec(xml)![1];
    const digest = /<ds:DigestValue>([^<]+)</.exec(xml)![1];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const altered = [
      xml.replace('Servicio de prueba', 'Servicio cambiado'),
      xml.replace(value, flip(value)),
      xml.replace(digest, flip(digest)),
    ];
    for (const bad of altered) {
      expect(verifyXmlSignature(bad).ok).to.equal(false);
      expect(verifyCanonicalSignature(bad)).to.deep.include({ ok: false });
    }
    expect(verifyCanonicalSignature(altered[0])?.reason).to.match(/digest mismatch/);
  });

  it('leaves documents of other signers to xml-crypto, with the same verdicts as the kit baseline', () => {
    const dir = path.join(SUNAT_DIR, 'samples/signed-rsa-sha256');
    for (const file of readdirSync(dir)) {
      const xml = sample(`signed-rsa-sha256/${file}`);
      expect(verifyCanonicalSignature(xml), file).to.equal(null);
      expect(checkSignature(xml), file).to.deep.include({ ok: true, path: 'xml-crypto' });
    }
    expect(checkSignature(sample('signed/12345678912-01-F001-1_alterado.xml'))).to.deep.include({
      ok: false,
      present: true,
    });
  });

  it('reports an unsigned document as such (SUNAT 1059)', () => {
    expect(checkSignature(invoice({ ruc: RUC, series: 'F001', number: 2 }).xml)).to.deep.include({
      ok: false,
      present: false,
    });
  });
});
