import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocumentValidationError, formatIssue, prepareDocument } from '../../documents';
import { prepareDespatch } from '../../documents/despatch';
import { createSigner, generateTestCertificate, signXml, verifyXmlSignature } from '../../documents/signing';
import type { ValidationReport } from '../../validator';
import { validateDocuments } from '../support/validator';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const fixtureNames = (dir: string) => readdirSync(dir).filter((f) => /^gre-.*\.json$/.test(f));
const codesOf = (warnings: string[]) => warnings.map((w) => /^\[SUNAT (\d+)\]/.exec(w)?.[1]).filter(Boolean);

describe('documents/despatch (GRE 09 and 31)', () => {
  const signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));

  describe("the GRE corpus through SUNAT's rules (chasqui validate)", function () {
    // The first run on a machine compiles SUNAT's GRE rules; later runs take about a second.
    this.timeout(300_000);
    const names = fixtureNames(FIXTURES);
    const warningsByFile = new Map<string, string[]>();
    let verdicts: ValidationReport[] = [];

    before(async () => {
      const documents = names.map((name) => {
        const prepared = prepareDocument(readJson(path.join(FIXTURES, name)));
        const file = `${prepared.filename}.xml`;
        warningsByFile.set(file, prepared.warnings);
        return { file, xml: signXml(prepared.xml, signer).xml };
      });
      verdicts = await validateDocuments(documents);
    });

    it('covers 09 and 31 with at least 8 fixtures', () => {
      expect(names.length).to.be.at.least(8);
      expect(names.some((n) => n.startsWith('gre-31-'))).to.equal(true);
      expect(verdicts).to.have.length(names.length);
    });

    it('passes XSD, is accepted by the GRE XSL (observed only where chasqui warned) and verifies', () => {
      for (const v of verdicts) {
        const summary = `${path.basename(v.file)}: xsd=${v.xsd} xsl=${v.xsl} sig=${v.sig} ${v.rejection_message ?? ''}`;
        expect(v.xsd, summary).to.equal('ok');
        expect(v.sig, summary).to.equal('ok');
        expect(v.xsl, summary).to.be.oneOf(['accepted', 'observed']);
        // Every observation SUNAT's XSL raises was announced to the integrator as a warning.
        const warned = codesOf(warningsByFile.get(v.file)!);
        for (const code of v.observations) expect(warned, `${summary} observation ${code}`).to.include(code);
      }
      expect(verdicts.filter((v) => v.xsl === 'accepted').length).to.be.at.least(names.length - 2);
    });
  });

  describe('invalid payloads', () => {
    for (const name of fixtureNames(path.join(FIXTURES, 'invalid'))) {
      it(`rejects ${name} with exactly the expected errors`, () => {
        const { payload, errors } = readJson(path.join(FIXTURES, 'invalid', name)) as {
          payload: unknown;
          errors: { error: string; path: string | null }[];
        };
        expect(errors.length).to.be.greaterThan(0);
        try {
          prepareDocument(payload);
        } catch (err) {
          expect(err).to.be.instanceOf(DocumentValidationError);
          const found = (err as DocumentValidationError).issues.map((i) => ({ error: formatIssue(i), path: i.path }));
          expect(found).to.deep.equal(errors);
          return;
        }
        throw new Error('the payload was accepted');
      });
    }
  });

  describe('prepareDespatch', () => {
    const guide = readJson(path.join(FIXTURES, 'gre-09-venta-privado.json'));

    it('names the file RUC-09-SERIE-CORRELATIVO (correlativo as sent, like the sales documents) and returns no totals', () => {
      const prepared = prepareDespatch({ ...guide, correlativo: '00000102' });
      expect(prepared).to.include({
        docType: '09',
        ruc: '20123456786',
        series: 'T001',
        number: 102,
        filename: '20123456786-09-T001-00000102',
        totals: null,
        currency: null,
      });
      expect(prepared.xml).to.include('<cbc:ID>T001-00000102</cbc:ID>');
      expect(prepared.xml).to.include('<cbc:IssueTime>09:15:00</cbc:IssueTime>');
    });

    it('is what prepareDocument returns for 09 and 31', () => {
      expect(prepareDocument(guide)).to.deep.equal(prepareDespatch(guide));
    });

    it('produces canonical XML that the signer digests directly and xml-crypto verifies', () => {
      const signed = signXml(prepareDespatch(guide).xml, signer);
      expect(verifyXmlSignature(signed.xml)).to.include({ ok: true, digest: signed.hash });
    });

    it('rejects a guide issued for another company', () => {
      expect(() => prepareDespatch(guide, { issuerRuc: '20100000009' }))
        .to.throw(DocumentValidationError)
        .with.property('issues')
        .that.deep.includes({
          code: 'BR_ISSUER_MISMATCH',
          source: 'chasqui',
          message: 'emisor.ruc 20123456786 is not the company of the token (20100000009)',
          path: 'emisor.ruc',
          line: null,
          col: null,
          snippet: null,
        });
    });

    it('rejects an issue date more than two days after today (2329, as the GRE XSL says), accepts one two days ahead', () => {
      expect(prepareDespatch(guide, { today: '2025-03-08' }).xml).to.include('<cbc:IssueDate>2025-03-10<');
      expect(() => prepareDespatch(guide, { today: '2025-03-07' }))
        .to.throw(DocumentValidationError)
        .with.property('issues')
        .that.satisfies((issues: { code: string }[]) => issues.some((i) => i.code === '2329'));
    });

    it('warns when a GRE 31 lacks the MTC registration and the freight payer', () => {
      const carrierGuide = readJson(path.join(FIXTURES, 'gre-31-basico.json'));
      delete carrierGuide.emisor.registroMTC;
      delete carrierGuide.pagadorFlete;
      expect(codesOf(prepareDespatch(carrierGuide).warnings)).to.deep.equal(['4391', '4388']);
    });
  });
});
