/**
 * SUNAT's dated rules of sales documents and daily summaries (issue 24): each on both sides of its date (the day
 * before, the day itself), by default and moved, the warning window, and the issue date (not the day of sending)
 * deciding which rule judges a document.
 */
import { expect } from 'chai';
import {
  DocumentValidationError,
  formatIssue,
  prepareDocument,
  type PrepareOptions,
  type PreparedDocument,
} from '../../documents';
import { DEFAULT_CALENDAR, parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { readSignedSale, receiptSummaryPayload } from '../../documents/summaries/from-signed';
import { readPrinted } from '../../documents/printed';
import { fixture } from '../support/documents';

/** The 422's errors as the API shows them, or [] when the document was built. */
function errors(payload: unknown, options: PrepareOptions = {}): string[] {
  try {
    prepareDocument(payload, options);
    return [];
  } catch (err) {
    if (!(err instanceof DocumentValidationError)) throw err;
    return err.issues.map((i) => `${formatIssue(i)} @${i.path}`);
  }
}

const dated = (name: string, fechaEmision: string, changes: Record<string, unknown> = {}) => ({
  ...fixture(name),
  fechaEmision,
  ...changes,
});
const withCodes = (doc: Record<string, any>) => ({
  ...doc,
  items: doc.items.map((it: object) => ({ ...it, codigoSunat: '43211503' })),
});
const atRate = (doc: Record<string, any>, rate: number) => ({
  ...doc,
  items: doc.items.map((it: object) => ({ ...it, porcentajeIgv: rate })),
});

describe('dated rules of sales documents', () => {
  describe('product-code-required (3496)', () => {
    it('takes a line without codigoSunat the day before, and refuses it the day itself naming the line', () => {
      expect(errors(dated('invoice-mixed-lines.json', '2026-12-31'))).to.deep.equal([]);
      const refused = errors(dated('invoice-decimals.json', '2027-01-01'));
      expect(refused).to.have.length(fixture('invoice-decimals.json').items.length);
      expect(refused[0]).to.equal(
        "[SUNAT 3496] items[0].codigoSunat (SUNAT's product code, catalog 25) is required on every line of documents issued from 2027-01-01 @items[0].codigoSunat",
      );
      expect(errors(withCodes(dated('invoice-decimals.json', '2027-01-01')))).to.deep.equal([]);
    });

    it('judges receipts, notes and liquidaciones de compra too, not retention documents', () => {
      for (const name of ['receipt-usd.json', 'credit-note-01.json', 'debit-note-01.json', 'liquidacion-compra.json']) {
        expect(
          errors(dated(name, '2027-01-01')).some((e) => e.startsWith('[SUNAT 3496]')),
          name,
        ).to.equal(true);
      }
      expect(errors(dated('retention.json', '2027-01-01'))).to.deep.equal([]);
    });

    it('moves with the calendar: the day before and the day of an overridden date', () => {
      const calendar = new RuleCalendar(parseRuleDates('product-code-required=2026-03-01'));
      expect(errors(dated('invoice-decimals.json', '2026-02-28'), { calendar })).to.deep.equal([]);
      expect(errors(dated('invoice-decimals.json', '2026-03-01'), { calendar })[0]).to.match(
        /^\[SUNAT 3496\] .* issued from 2026-03-01 @items\[0\]\.codigoSunat$/,
      );
      // Postponed: the shipped date no longer bites.
      const later = new RuleCalendar(parseRuleDates('product-code-required=2027-07-01'));
      expect(errors(dated('invoice-decimals.json', '2027-01-01'), { calendar: later })).to.deep.equal([]);
    });

    it('warns from ruleWarnDays before the date, naming 3496, the date and the lines', () => {
      const warnings = (date: string, ruleWarnDays = 60) =>
        prepareDocument(dated('invoice-mixed-lines.json', date), { ruleWarnDays }).warnings.filter((w) =>
          w.includes('3496'),
        );
      // 2026-11-02 is 60 days before 2027-01-01.
      expect(warnings('2026-11-01')).to.deep.equal([]);
      const [warning] = warnings('2026-11-02');
      expect(warning).to.match(/^\[SUNAT 3496\] from 2027-01-01 SUNAT refuses lines without codigoSunat/);
      expect(warning).to.include('items[0]');
      expect(warnings('2026-12-31', 0)).to.deep.equal([]);
      expect(
        prepareDocument(withCodes(dated('invoice-decimals.json', '2026-12-31')), { ruleWarnDays: 60 }).warnings,
      ).to.deep.equal([]);
    });

    it('judges a document by its issue date, not by the day it is sent', () => {
      // Issued on 2026-12-31, sent (prepared) on 2027-01-03: the old rule.
      expect(errors(dated('invoice-decimals.json', '2026-12-31'), { today: '2027-01-03' })).to.deep.equal([]);
      expect(errors(dated('invoice-decimals.json', '2027-01-01'), { today: '2027-01-03' })[0]).to.match(
        /^\[SUNAT 3496\]/,
      );
    });
  });

  describe('mype-rate-2027 and mype-rate-end (3103)', () => {
    const reduced = (date: string, rate: number, calendar: RuleCalendar = DEFAULT_CALENDAR) =>
      errors(atRate(withCodes(dated('invoice-igv-10-reduced-rate.json', date)), rate), { calendar }).filter((e) =>
        e.includes('3103'),
      );

    it('10 until the day before mype-rate-2027, 14 from it, none from mype-rate-end', () => {
      expect(reduced('2026-12-31', 10)).to.deep.equal([]);
      expect(reduced('2026-12-31', 14)[0]).to.equal(
        '[SUNAT 3103] porcentajeIgv 14 is not an IGV rate of a document issued on 2026-12-31: that date allows 18, or 10 (the reduced MYPE rate of Ley 31556) @items[0].porcentajeIgv',
      );
      expect(reduced('2027-01-01', 14)).to.deep.equal([]);
      expect(reduced('2027-01-01', 10)[0]).to.include(
        'that date allows 18, or 14 (the reduced MYPE rate of Ley 31556)',
      );
      expect(reduced('2027-12-31', 14)).to.deep.equal([]);
      expect(reduced('2028-01-01', 14)[0]).to.include(
        'that date allows 18 (the reduced MYPE rate of Ley 31556 has ended)',
      );
      expect(reduced('2028-01-01', 18)).to.deep.equal([]);
    });

    it('moves with the calendar', () => {
      const calendar = new RuleCalendar(parseRuleDates('mype-rate-2027=2026-06-01'));
      expect(reduced('2026-05-31', 10, calendar)).to.deep.equal([]);
      expect(reduced('2026-06-01', 14, calendar)).to.deep.equal([]);
      expect(reduced('2026-06-01', 10, calendar)).to.have.length(2);
    });

    it('taxes at 14 % and writes that rate; warns at 10 % within the window', () => {
      const doc = prepareDocument(fixture('invoice-2027-mype-rate-14.json'));
      expect(doc.xml).to.include('<cbc:Percent>14.00</cbc:Percent>');
      expect(doc.totals!['TaxAmount.1000']).to.equal('12.47');
      const warned = prepareDocument(withCodes(dated('invoice-igv-10-reduced-rate.json', '2026-12-15')), {
        ruleWarnDays: 60,
      }).warnings;
      expect(warned).to.deep.equal([
        '[SUNAT 3103] porcentajeIgv 10 is the reduced MYPE rate until 2026-12-31; documents issued from 2027-01-01 use 18 or 14',
      ]);
    });
  });

  describe('debit-note-13 (2172, 3507)', () => {
    const note = (date: string, affectation = '30') => {
      const doc = fixture('debit-note-13.json');
      return {
        ...doc,
        fechaEmision: date,
        items: doc.items.map((it: object) => ({ ...it, afectacionIgv: affectation })),
      };
    };

    it('refuses reason 13 the day before its date and takes it on unaffected lines the day itself', () => {
      expect(errors(note('2026-12-31'))).to.deep.equal([
        '[SUNAT 2172] debit note reason 13 (catalog 10) is accepted on debit notes issued from 2027-01-01; this one is dated 2026-12-31 @motivo.codigo',
      ]);
      expect(errors(note('2027-01-01'))).to.deep.equal([]);
      expect(prepareDocument(note('2027-01-01')).xml).to.match(/<cbc:ResponseCode[^>]*>13<\/cbc:ResponseCode>/);
    });

    it('takes only unaffected operations (3507)', () => {
      expect(errors(note('2027-01-01', '10'))).to.deep.equal([
        '[SUNAT 3507] a debit note of reason 13 covers unaffected (inafecta) operations only: afectacionIgv 30–37, not 10 @items[0].afectacionIgv',
      ]);
    });

    it('moves with the calendar', () => {
      const calendar = new RuleCalendar(parseRuleDates('debit-note-13=2026-10-01'));
      expect(errors(note('2026-09-30'), { calendar })[0]).to.match(/^\[SUNAT 2172\]/);
      expect(errors(note('2026-10-01'), { calendar })).to.deep.equal([]);
    });
  });

  describe('credit-note-ceiling (3286, 3503, 3261)', () => {
    // credit-note-01 modifies F001-1 for 2 360.00.
    const note = (date: string, ref = 'F001-1') =>
      withCodes(
        dated('credit-note-01.json', date, {
          documentoAfectado: { tipoDoc: ref[0] === 'F' ? '01' : '03', serieNumero: ref },
        }),
      );
    const held = (payable: string, serieNumero = 'F001-1') => ({ serieNumero, totals: { PayableAmount: payable } });

    it('caps a note by the held document from its date, not the day before', () => {
      expect(errors(note('2026-12-31'), { referenced: held('1000.00') })).to.deep.equal([]);
      expect(errors(note('2027-01-01'), { referenced: held('1000.00') })).to.deep.equal([
        "[SUNAT 3286] the credit note's total (2360.00) exceeds that of F001-1 it modifies (1000.00) @documentoAfectado",
      ]);
      expect(errors(note('2027-01-01'), { referenced: held('2360.00') })).to.deep.equal([]);
      // A document chasqui does not hold is not compared: SUNAT judges it.
      expect(errors(note('2027-01-01'), { referenced: null })).to.deep.equal([]);
    });

    it('answers 3503 for a note on a boleta', () => {
      const boletaNote = {
        ...note('2027-01-01', 'B001-1'),
        serie: 'BC01',
        cliente: { tipoDoc: '1', numDoc: '45678912', nombre: 'María Quispe' },
      };
      expect(errors(boletaNote, { referenced: held('100.00', 'B001-1') })).to.deep.equal([
        "[SUNAT 3503] the credit note's total (2360.00) exceeds that of B001-1 it modifies (100.00) @documentoAfectado",
      ]);
    });

    it('moves with the calendar', () => {
      const calendar = new RuleCalendar(parseRuleDates('credit-note-ceiling=2026-09-01'));
      expect(errors(note('2026-08-31'), { calendar, referenced: held('1.00') })).to.deep.equal([]);
      expect(errors(note('2026-09-01'), { calendar, referenced: held('1.00') })[0]).to.match(/^\[SUNAT 3286\]/);
    });

    it('takes one modified document per note (3261)', () => {
      const two = {
        ...note('2027-01-01'),
        documentoAfectado: [
          { tipoDoc: '01', serieNumero: 'F001-1' },
          { tipoDoc: '01', serieNumero: 'F001-2' },
        ],
      };
      expect(errors(two)[0]).to.match(
        /^\[SUNAT 3261\] 'documentoAfectado' is one document \{tipoDoc, serieNumero\}: a note modifies one document only/,
      );
    });
  });
});

describe('the printed representation of the 2027 shapes', () => {
  it('states the IGV at 14 % and a debit note of reason 13, as signed', () => {
    const invoice = readPrinted(prepareDocument(fixture('invoice-2027-mype-rate-14.json')).xml, { format: 'a4' });
    expect(invoice.amounts.map((a) => `${a.label} ${a.value}`)).to.include('IGV 14 % S/ 12.47');
    const note = readPrinted(prepareDocument(fixture('debit-note-13.json')).xml, { format: 'a4' });
    const reason = note.sections.flatMap((s) => s.facts).find((f) => f.label === 'Motivo');
    expect(reason?.value).to.equal('13 Ajuste de operaciones inafectas');
  });
});

describe('dated rules of daily summaries', () => {
  /** rc-summary-v2 dated again, its line at the reduced rate left at the default 18 (the rate depends on the date). */
  const rc = (fechaReferencia: string, fechaEmision = fechaReferencia): Record<string, any> => {
    const doc = fixture('rc-summary-v2.json');
    return {
      ...doc,
      fechaEmision,
      fechaReferencia,
      items: doc.items.map(({ porcentajeIgv, ...line }: { porcentajeIgv?: number }) => line),
    };
  };
  const lines = (xml: string) =>
    [...xml.matchAll(/<sac:SummaryDocumentsLine>([\s\S]*?)<\/sac:SummaryDocumentsLine>/g)].map((m) => m[1]);
  const instructions = (line: string) => [...line.matchAll(/<cbc:InstructionID>(\d+)</g)].map((m) => m[1]);

  it('writes cbc:Percent on the IGV category of every line, under both rule sets', () => {
    for (const doc of [prepareDocument(fixture('rc-mixed.json')), prepareDocument(rc('2027-01-01'))]) {
      for (const line of lines(doc.xml))
        expect(line).to.match(/<cac:TaxCategory><cbc:Percent>\d+\.00<\/cbc:Percent><cac:TaxScheme><cbc:ID>1000</);
    }
    expect(lines(prepareDocument(fixture('rc-summary-v2.json')).xml)[4]).to.include('<cbc:Percent>10.00</cbc:Percent>');
  });

  it('the day before summary-v2: free operations as 05, no buyer name, no 9996', () => {
    const doc = prepareDocument(rc('2026-12-31'));
    const free = lines(doc.xml)[1];
    expect(instructions(free)).to.deep.equal(['03', '05']);
    expect(free).to.include('<cbc:PaidAmount currencyID="PEN">15.00</cbc:PaidAmount><cbc:InstructionID>05<');
    expect(doc.xml).to.not.include('<cbc:ID>9996</cbc:ID>');
    expect(lines(doc.xml)[0]).to.not.include('RegistrationName');
  });

  it("the day itself (by the listed documents' date): 06–09, the IGV of free operations (9996), the buyer's name", () => {
    // Generated on 2027-01-01 for receipts of 2026-12-31: still the old shape.
    expect(prepareDocument(rc('2026-12-31', '2027-01-01')).xml).to.not.include('<cbc:ID>9996</cbc:ID>');
    const doc = prepareDocument(rc('2027-01-01'));
    const free = lines(doc.xml)[1];
    expect(instructions(free)).to.deep.equal(['03', '06', '08']);
    expect(free).to.match(
      /<cac:TaxTotal><cbc:TaxAmount currencyID="PEN">1\.80<\/cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxAmount currencyID="PEN">1\.80<\/cbc:TaxAmount><cac:TaxCategory><cac:TaxScheme><cbc:ID>9996<\/cbc:ID>/,
    );
    expect(free).to.include('<sac:TotalAmount currencyID="PEN">30.00</sac:TotalAmount>');
    expect(lines(doc.xml)[0]).to.include(
      '<cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>María Quispe Huamán</cbc:RegistrationName>',
    );
  });

  it('from summary-v2 refuses one free amount (2256) and a customer without name (2022); warns before', () => {
    const old = fixture('rc-mixed.json');
    const v2 = { ...old, fechaEmision: '2027-01-02', fechaReferencia: '2027-01-01' };
    expect(errors(v2)).to.deep.include.members([
      '[SUNAT 2256] summaries of documents dated from 2027-01-01 report free operations by kind (InstructionID 06–09; 05 is retired): send totales.gratuitasGravadas, totales.gratuitasExoneradas, totales.gratuitasInafectas, totales.gratuitasExportacion instead of totales.gratuitas @items[1].totales.gratuitas',
      "[SUNAT 2022] summaries of documents dated from 2027-01-01 carry the buyer's name: cliente.nombre is required @items[0].cliente.nombre",
    ]);
    const before = { ...old, fechaEmision: '2026-12-31', fechaReferencia: '2026-12-31' };
    expect(prepareDocument(before, { ruleWarnDays: 60 }).warnings[0]).to.match(
      /^\[SUNAT 2256\] summaries of documents dated from 2027-01-01 report free operations by kind/,
    );
    expect(prepareDocument(before).warnings).to.deep.equal([]);
  });

  it('moves with the calendar', () => {
    const calendar = new RuleCalendar(parseRuleDates('summary-v2=2026-07-01'));
    expect(prepareDocument(rc('2026-06-30'), { calendar }).xml).to.not.include('<cbc:ID>9996</cbc:ID>');
    expect(prepareDocument(rc('2026-07-01'), { calendar }).xml).to.include('<cbc:ID>9996</cbc:ID>');
  });

  it('the automatic summary reads the rate, the kinds of free operations and the buyer from the signed receipt', () => {
    const receipt = (date: string) => prepareDocument(withCodes(dated('receipt-free-transfer.json', date))).xml;
    const sale = readSignedSale(receipt('2027-01-01'));
    expect(sale).to.deep.include({
      igvRate: 18,
      customer: { tipoDoc: '1', numDoc: '45678912', nombre: 'María Quispe Huamán' },
    });
    expect(sale.totals).to.deep.equal({
      gravadas: '50.00',
      igv: '9.00',
      gratuitasGravadas: '10.00',
      igvGratuitas: '1.80',
    });
    const summary = (date: string): PreparedDocument =>
      prepareDocument(
        receiptSummaryPayload(
          { correlativo: 1, fechaEmision: date, fechaReferencia: date, issuer: sale.issuer },
          'PEN',
          [{ sale: readSignedSale(receipt(date)), condition: '1' }],
        ),
      );
    expect(instructions(lines(summary('2026-12-31').xml)[0])).to.deep.equal(['01', '05']);
    const v2 = lines(summary('2027-01-01').xml)[0];
    expect(instructions(v2)).to.deep.equal(['01', '06']);
    expect(v2).to.include('<cbc:ID>9996</cbc:ID>');
    expect(v2).to.include('<cbc:RegistrationName>María Quispe Huamán</cbc:RegistrationName>');
  });

  it("a line's rate is one its documents' date allows (3103)", () => {
    const at14 = (date: string) => {
      const doc = rc(date);
      return { ...doc, items: doc.items.map((l: object) => ({ ...l, porcentajeIgv: 14 })) };
    };
    expect(errors(at14('2027-01-01'))).to.deep.equal([]);
    expect(errors(at14('2026-12-31'))[0]).to.equal(
      '[SUNAT 3103] porcentajeIgv 14 is not an IGV rate of documents issued on 2026-12-31: that date allows 18, or 10 (the reduced MYPE rate of Ley 31556) @items[0].porcentajeIgv',
    );
  });
});
