/**
 * The document a note modifies (documentoAfectado), as SUNAT's sheets ask for it: 2524 "Debe indicar el documento
 * afectado por la nota" spares credit notes of reason 10 (NotaCredito2_0 row 73) and debit notes of reason 03
 * (NotaDebito2_0 row 73); from debit-note-13's date the debit notes' exemption moves to reason 13
 * (sunat/rules/revisions.csv row 9, reported). chasqui used to require it on every note (2118).
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { DEFAULT_CALENDAR, parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { createSigner, generateTestCertificate, signBuiltXml } from '../../documents/signing';
import { datedRuleFailures } from '../../validator/dated-rules';
import { errors, fixture } from '../support/documents';
import { validateDocuments } from '../support/validator';

/** A note fixture of a date (its lines with SUNAT product codes, whatever the date), with documentoAfectado. */
function note(name: string, fechaEmision: string): Record<string, any> {
  const doc = fixture(name);
  return { ...doc, fechaEmision, items: doc.items.map((it: object) => ({ ...it, codigoSunat: '43211503' })) };
}

/** The same without its documentoAfectado, of a reason. */
function unreferenced(name: string, codigo: string, fechaEmision: string): Record<string, unknown> {
  const { documentoAfectado: _, ...doc } = note(name, fechaEmision);
  return { ...doc, motivo: { ...doc.motivo, codigo } };
}

const CREDIT_2524 =
  '[SUNAT 2524] documentoAfectado (the document this note modifies) is required: only a credit note of reason 10 may leave it out @documentoAfectado';
const debit2524 = (reason: string) =>
  `[SUNAT 2524] documentoAfectado (the document this note modifies) is required: only a debit note of reason ${reason} may leave it out @documentoAfectado`;

describe("a note's referenced document (2524, NotaCredito2_0 and NotaDebito2_0 row 73)", () => {
  it('builds a credit note of reason 10 without one: no BillingReference, no ReferenceID', () => {
    const built = prepareDocument(unreferenced('credit-note-10.json', '10', '2026-11-20'));
    expect(built.xml).to.not.contain('cac:BillingReference');
    expect(built.xml).to.not.contain('cbc:ReferenceID');
    expect(built.xml).to.match(/<cac:DiscrepancyResponse><cbc:ResponseCode[^>]*>10<\/cbc:ResponseCode>/);
    // With one, as before.
    expect(prepareDocument(note('credit-note-10.json', '2026-11-20')).xml).to.contain('<cac:BillingReference>');
  });

  it('refuses a credit note of any other reason without one, with 2524 (not 2118)', () => {
    for (const reason of ['01', '07', '13'])
      expect(errors(unreferenced('credit-note-10.json', reason, '2026-11-20')), reason).to.include(CREDIT_2524);
  });

  it('a B note of a company sending receipts in the daily summary names its receipt: the summary line needs it', () => {
    const boleta = unreferenced('credit-note-boleta.json', '10', '2026-11-20');
    expect(errors(boleta)).to.deep.equal([]);
    expect(errors(boleta, { receiptsViaSummary: true })).to.deep.equal([
      '[SUNAT 2524] documentoAfectado (the receipt this note modifies) is required: this company sends its B notes in the daily summary, whose line names it @documentoAfectado',
    ]);
    expect(errors(note('credit-note-boleta.json', '2026-11-20'), { receiptsViaSummary: true })).to.deep.equal([]);
    // An F note never travels in the summary.
    expect(errors(unreferenced('credit-note-10.json', '10', '2026-11-20'), { receiptsViaSummary: true })).to.deep.equal(
      [],
    );
  });

  it('debit notes: reason 03 may leave it out until debit-note-13, reason 13 from its date', () => {
    expect(errors(unreferenced('debit-note-03.json', '03', '2026-12-31'))).to.deep.equal([]);
    expect(errors(unreferenced('debit-note-03.json', '03', '2027-01-01'))).to.deep.equal([debit2524('13')]);
    expect(errors(unreferenced('debit-note-13.json', '13', '2027-01-01'))).to.deep.equal([]);
    expect(errors(unreferenced('debit-note-03.json', '01', '2026-12-31'))).to.deep.equal([debit2524('03')]);
    expect(errors(unreferenced('debit-note-03.json', '01', '2027-01-01'))).to.deep.equal([debit2524('13')]);
    // Reason 13 before its date is refused for itself (2172), and is not yet the exempt reason.
    expect(errors(unreferenced('debit-note-13.json', '13', '2026-12-31'))).to.include(debit2524('03'));
    // A referenced note of either reason is built on both sides of the date.
    expect(errors(note('debit-note-03.json', '2027-01-01'))).to.deep.equal([]);
  });

  it('moves with debit-note-13 (CHASQUI_RULE_DATES)', () => {
    const calendar = new RuleCalendar(parseRuleDates('debit-note-13=2026-10-01'));
    expect(errors(unreferenced('debit-note-03.json', '03', '2026-09-30'), { calendar })).to.deep.equal([]);
    expect(errors(unreferenced('debit-note-03.json', '03', '2026-10-01'), { calendar })).to.deep.equal([
      debit2524('13'),
    ]);
    expect(errors(unreferenced('debit-note-13.json', '13', '2026-10-01'), { calendar })).to.deep.equal([]);
  });

  it("SUNAT's own rules (the NC XSL) accept the unreferenced reason 10 and refuse reason 01 with 2524", async function () {
    this.timeout(600_000);
    const built = prepareDocument(unreferenced('credit-note-10.json', '10', '2024-03-20'));
    const signer = createSigner(generateTestCertificate({ ruc: fixture('credit-note-10.json').emisor.ruc }));
    const reason01 = built.xml.replace(/(<cbc:ResponseCode[^>]*>)10</, '$101<');
    const [accepted, refused] = await validateDocuments([
      { file: `${built.filename}.xml`, xml: signBuiltXml(built.xml, signer).xml },
      { file: `${built.filename}.xml`, xml: signBuiltXml(reason01, signer).xml },
    ]);
    expect(accepted).to.deep.include({ xsd: 'ok', sig: 'ok', pass: true });
    expect(accepted.xsl).to.be.oneOf(['accepted', 'observed']);
    expect(refused.xsl).to.equal('rejected');
    expect(refused.rejection).to.equal('2524');
  });

  it('refuses a note dated before the document it modifies when chasqui holds it (2885), but reasons 10 and 03', () => {
    const held = (issueDate?: string) => ({
      referenced: { serieNumero: 'F001-1', totals: { PayableAmount: '99999.00' }, ...(issueDate ? { issueDate } : {}) },
    });
    const early = `[SUNAT 2885] fechaEmision 2026-11-20 is before 2026-11-21, the issue date of F001-1 this note modifies @fechaEmision`;
    const credit = (reason: string) => ({
      ...note('credit-note-10.json', '2026-11-20'),
      motivo: { codigo: reason, descripcion: 'x' },
    });
    const debit = (reason: string) => ({
      ...note('debit-note-03.json', '2026-11-20'),
      motivo: { codigo: reason, descripcion: 'x' },
    });
    expect(errors(credit('01'), held('2026-11-21'))).to.deep.equal([early]);
    expect(errors(debit('01'), held('2026-11-21'))).to.deep.equal([early]);
    // The same day, a date not known, and the reasons each sheet spares (NotaCredito2_0 row 84, NotaDebito2_0 row 83).
    expect(errors(credit('01'), held('2026-11-20'))).to.deep.equal([]);
    expect(errors(credit('01'), held())).to.deep.equal([]);
    expect(errors(credit('10'), held('2026-11-21'))).to.deep.equal([]);
    expect(errors(debit('03'), held('2026-11-21'))).to.deep.equal([]);
  });

  it('the simulator and `chasqui validate` judge the same: an unreferenced debit note of reason 03 from 2027-01-01', () => {
    const xml = prepareDocument(unreferenced('debit-note-03.json', '03', '2026-12-31')).xml;
    const judged = (at: string) => datedRuleFailures(xml, DEFAULT_CALENDAR, { at }).map((f) => `${f.rule}:${f.code}`);
    expect(judged('2026-12-31')).to.deep.equal([]);
    expect(judged('2027-01-01')).to.deep.equal(['debit-note-13:2524']);
    const referenced = prepareDocument(note('debit-note-03.json', '2026-12-31')).xml;
    expect(datedRuleFailures(referenced, DEFAULT_CALENDAR, { at: '2027-01-01' })).to.deep.equal([]);
  });
});
