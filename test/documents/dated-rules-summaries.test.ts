/**
 * SUNAT's dated rules of daily summaries (issue 24), and the printed representation of the 2027 shapes: the second
 * half of test/documents/dated-rules.test.ts (sales documents).
 */
import { expect } from 'chai';
import { prepareDocument, type PreparedDocument } from '../../documents';
import { parseRuleDates, RuleCalendar } from '../../documents/calendar';
import { readSignedSale, receiptSummaryPayload } from '../../documents/summaries/from-signed';
import { readPrinted } from '../../documents/printed';
import { errors, fixture } from '../support/documents';
import { atRate, dated, withCodes } from './dated-fixtures';

describe('the printed representation of the 2027 shapes', () => {
  it('states the IGV at 15 % and a debit note of reason 13, as signed', () => {
    const doc = prepareDocument(fixture('invoice-2027-mype-rate-15.json'));
    const invoice = readPrinted(doc.xml, { format: 'a4' });
    expect(invoice.amounts.map((a) => `${a.label} ${a.value}`)).to.include(
      `IGV 15 % S/ ${doc.totals!['TaxAmount.1000']}`,
    );
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
    expect(lines(prepareDocument(fixture('rc-summary-v2.json')).xml)[4]).to.include('<cbc:Percent>10.50</cbc:Percent>');
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

  it('from summary-v2 refuses one free amount (2256); warns before', () => {
    const old = fixture('rc-mixed.json');
    const v2 = { ...old, fechaEmision: '2027-01-02', fechaReferencia: '2027-01-01' };
    expect(errors(v2)).to.deep.equal([
      '[SUNAT 2256] summaries of documents dated from 2027-01-01 report free operations by kind (InstructionID 06–09; 05 is retired): send totales.gratuitasGravadas, totales.gratuitasExoneradas, totales.gratuitasInafectas, totales.gratuitasExportacion instead of totales.gratuitas @items[1].totales.gratuitas',
    ]);
    const before = { ...old, fechaEmision: '2026-12-31', fechaReferencia: '2026-12-31' };
    expect(prepareDocument(before, { ruleWarnDays: 60 }).warnings[0]).to.match(
      /^\[SUNAT 2256\] summaries of documents dated from 2027-01-01 report free operations by kind/,
    );
    expect(prepareDocument(before).warnings).to.deep.equal([]);
  });

  describe("the buyer's name from summary-v2 (revisions row 19: ERROR 2022 judges its format, no row asks for it)", () => {
    const named = (fechaReferencia: string, nombre?: string): Record<string, any> => {
      const doc = rc(fechaReferencia);
      const [first, ...rest] = doc.items;
      const { nombre: _given, ...cliente } = first.cliente;
      return {
        ...doc,
        items: [{ ...first, cliente: nombre === undefined ? cliente : { ...cliente, nombre } }, ...rest],
      };
    };
    const refusal =
      "[SUNAT 2022] summaries of documents dated from 2027-01-01 write the buyer's name: cliente.nombre, when given, must be 3 to 1000 characters without tabs or line breaks @items[0].cliente.nombre";
    const registrationName = (doc: Record<string, any>) =>
      lines(prepareDocument(doc).xml)[0].match(/<cbc:RegistrationName>/g);

    it('accepts a customer without name on both sides of the date, and writes no name for it', () => {
      for (const date of ['2026-12-31', '2027-01-01']) {
        expect(errors(named(date))).to.deep.equal([]);
        expect(registrationName(named(date))).to.equal(null);
      }
      expect(prepareDocument(named('2026-12-31'), { ruleWarnDays: 60 }).warnings).to.deep.equal([]);
    });

    it('refuses a present name out of the format from the date, at 2 and 1001 characters and with a tab or line break', () => {
      for (const nombre of ['Al', 'x'.repeat(1001), 'María\tQuispe', 'María\nQuispe'])
        expect(errors(named('2027-01-01', nombre))).to.deep.equal([refusal]);
      for (const nombre of ['Ana', 'x'.repeat(1000), 'Ñandú Pérez S.A.C.'])
        expect(errors(named('2027-01-01', nombre))).to.deep.equal([]);
      expect(registrationName(named('2027-01-01', 'Ana'))).to.have.length(1);
    });

    it('the day before, a name out of the format is not written and only warned within the window', () => {
      expect(errors(named('2026-12-31', 'Al'))).to.deep.equal([]);
      expect(registrationName(named('2026-12-31', 'Al'))).to.equal(null);
      expect(prepareDocument(named('2026-12-31', 'Al'), { ruleWarnDays: 60 }).warnings).to.deep.equal([
        "[SUNAT 2256] summaries of documents dated from 2027-01-01 report free operations by kind (totales.gratuitasGravadas, totales.gratuitasExoneradas, totales.gratuitasInafectas, totales.gratuitasExportacion) and write the buyer's name (cliente.nombre, when given, 3 to 1000 characters); this summary's items[0] would be refused then",
      ]);
    });
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

  it('summarises a receipt at the special rate of 2026 with cbc:Percent 10.50', () => {
    const receipt = prepareDocument(atRate(dated('receipt-basic.json', '2026-11-20'), 10.5)).xml;
    const sale = readSignedSale(receipt);
    expect(sale.igvRate).to.equal(10.5);
    const summary = prepareDocument(
      receiptSummaryPayload(
        { correlativo: 1, fechaEmision: '2026-11-20', fechaReferencia: '2026-11-20', issuer: sale.issuer },
        'PEN',
        [{ sale, condition: '1' }],
      ),
    );
    expect(lines(summary.xml)[0]).to.include('<cbc:Percent>10.50</cbc:Percent>');
  });

  it("a line's rate is one its documents' date allows (3103)", () => {
    const at = (date: string, porcentajeIgv: number) => {
      const doc = rc(date);
      return { ...doc, items: doc.items.map((l: object) => ({ ...l, porcentajeIgv })) };
    };
    expect(errors(at('2027-01-01', 15))).to.deep.equal([]);
    expect(errors(at('2026-12-31', 10.5))).to.deep.equal([]);
    expect(errors(at('2026-12-31', 10))[0]).to.equal(
      '[SUNAT 3103] porcentajeIgv 10 is not an IGV rate of documents issued on 2026-12-31: that date allows 18, or 10.5 (the special rate of MYPE restaurants and hotels) @items[0].porcentajeIgv',
    );
    // A boleta's credit note at the rate of the 2025 boleta it modifies (NotaCredito2_0 row 298): the note was signed
    // at it, so its summary line takes it too.
    const note = at('2026-12-31', 10);
    note.items = note.items.map((l: Record<string, unknown>, i: number) => ({
      ...l,
      tipoDoc: '07',
      documentoAfectado: { tipoDoc: '03', serieNumero: `B001-${i + 1}` },
    }));
    expect(errors(note).filter((e) => e.includes('3103'))).to.deep.equal([]);
  });
});
