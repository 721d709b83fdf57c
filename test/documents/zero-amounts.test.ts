/**
 * Nothing signed that SUNAT refuses (issue 29, point 6): a line whose amounts round to 0.00 where SUNAT's rules need
 * them above zero is refused before signing, with SUNAT's code and the line's path. SUNAT's own rules (the validator
 * runs sunat/xsl) judge the smallest lines that are built, and refuse them once their amount is 0.00.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocumentValidationError, prepareDocument, type ValidationIssue } from '../../documents';
import { createSigner, generateTestCertificate, signBuiltXml } from '../../documents/signing';
import { validateDocuments } from '../support/validator';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
const signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));

function payload(
  name: string,
  item: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, any> {
  const doc = JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
  doc.items[0] = { ...doc.items[0], ...item };
  return { ...doc, ...extra };
}

function refusal(doc: unknown): ValidationIssue[] {
  try {
    prepareDocument(doc);
  } catch (err) {
    if (err instanceof DocumentValidationError) return err.issues;
    throw err;
  }
  throw new Error('built');
}

/** Built and signed; `edit` changes the built XML before it is signed (a document chasqui would not build). */
function signed(doc: unknown, edit: (xml: string) => string = (xml) => xml): { file: string; xml: string } {
  const prepared = prepareDocument(doc);
  const xml = edit(prepared.xml);
  return { file: `${prepared.filename}.xml`, xml: signBuiltXml(xml, signer).xml };
}

describe('lines whose amounts round to zero', function () {
  this.timeout(600_000);

  it('refuses a taxed receipt line of valorUnitario 1e-7 with 3105 and the line path; SUNAT refuses its 0.00 and accepts the smallest built', async () => {
    const issues = refusal(payload('receipt-basic', { cantidad: 1, valorUnitario: 1e-7 }));
    expect(issues.map((i) => [i.source, i.code, i.path])).to.deep.equal([['SUNAT', '3105', 'items[0]']]);
    expect(issues[0].message).to.contain('rounds to 0.00');
    // 0.03 is the smallest taxed line built (its IGV, 0.0054, rounds to 0.01) and SUNAT's rules accept it; the same
    // XML with the line's base at 0.00 is SUNAT's 3105, and with its IGV at 0.00 SUNAT's 3111.
    const smallestLine = payload('receipt-basic', { cantidad: 1, valorUnitario: 0.03 });
    const edited = (pattern: RegExp) =>
      signed(smallestLine, (xml) => {
        const changed = xml.replace(pattern, '$10.00<');
        expect(changed).not.to.equal(xml);
        return changed;
      });
    const line = '(<cac:InvoiceLine>[\\s\\S]*?<cac:TaxSubtotal><cbc:TaxableAmount currencyID="PEN">';
    const [accepted, noBase, noTax] = await validateDocuments([
      signed(smallestLine),
      edited(new RegExp(`${line})0\\.03<`)),
      edited(new RegExp(`${line}0\\.03</cbc:TaxableAmount><cbc:TaxAmount currencyID="PEN">)0\\.01<`)),
    ]);
    expect(accepted.xsl, accepted.rejection_message ?? '').to.be.oneOf(['accepted', 'observed']);
    expect([noBase.xsl, noBase.rejection], JSON.stringify(noBase)).to.deep.equal(['rejected', '3105']);
    expect([noTax.xsl, noTax.rejection]).to.deep.equal(['rejected', '3111']);
    // Below it the IGV rounds to 0.00: refused here with SUNAT's 3111.
    expect(
      refusal(payload('receipt-basic', { cantidad: 1, valorUnitario: 0.02 })).map((i) => [i.code, i.path]),
    ).to.deep.equal([['3111', 'items[0]']]);
  });

  it('covers factura and boleta lines whatever the affectation (exonerated, free), and leaves a credit note line alone', () => {
    for (const [name, item] of [
      ['invoice-basic', { valorUnitario: 0.001, cantidad: 1 }],
      ['receipt-basic', { valorUnitario: 0.0001, cantidad: 2, afectacionIgv: '20' }],
      ['receipt-free-transfer', { valorUnitario: 0.004, cantidad: 1 }],
    ] as const) {
      expect(
        refusal(payload(name, item)).map((i) => i.code),
        name,
      ).to.include('3105');
    }
    expect(() => prepareDocument(payload('credit-note-01', { valorUnitario: 0.001, cantidad: 1 }))).not.to.throw();
  });

  it('refuses an IVAP line whose 4 % rounds to 0.00 (3111), and SUNAT accepts the next cent', async () => {
    for (const v of [0.1, 0.06]) {
      expect(
        refusal(payload('invoice-igv-17-ivap', { cantidad: 1, valorUnitario: v })).map((i) => [i.code, i.path]),
        String(v),
      ).to.deep.equal([['3111', 'items[0]']]);
    }
    // 0.13 × 4 % = 0.0052 → 0.01.
    const [report] = await validateDocuments([
      signed(payload('invoice-igv-17-ivap', { cantidad: 1, valorUnitario: 0.13 })),
    ]);
    expect(report.xsl, report.rejection_message ?? '').to.be.oneOf(['accepted', 'observed']);
  });
});
