import { expect } from 'chai';
import { DEFAULT_CALENDAR, RuleCalendar } from '../../documents/calendar';
import { datedRuleFailures } from '../../validator/dated-rules';

/**
 * SUNAT's dated rules on the XML (validator/dated-rules.ts): each on both sides of its date (the day before, the day
 * itself), with SUNAT's dates and with a calendar moved as CHASQUI_RULE_DATES moves it. The documents are written by
 * hand, with prefixes the builders do not use, so that only what the rules read is there.
 */
const NS =
  'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"';

interface SaleLine {
  code?: string;
  scheme?: string;
  percent?: string;
  reason?: string;
}

function sale(o: {
  date: string;
  type?: '01' | '03' | '04' | '07' | '08';
  lines?: SaleLine[];
  reason?: string;
  references?: number;
}): string {
  const type = o.type ?? '01';
  const root = type === '07' ? 'CreditNote' : type === '08' ? 'DebitNote' : 'Invoice';
  const lineElement = `${root}Line`;
  const lines = (o.lines ?? [{ code: '43211503', scheme: '1000', percent: '18.00', reason: '10' }]).map(
    (l, i) =>
      `<cac:${lineElement}><cbc:ID>${i + 1}</cbc:ID><cac:TaxTotal><cac:TaxSubtotal><cac:TaxCategory>` +
      (l.percent !== undefined ? `<cbc:Percent>${l.percent}</cbc:Percent>` : '') +
      (l.reason ? `<cbc:TaxExemptionReasonCode>${l.reason}</cbc:TaxExemptionReasonCode>` : '') +
      `<cac:TaxScheme><cbc:ID>${l.scheme ?? '1000'}</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>` +
      `<cac:Item><cbc:Description>x</cbc:Description>${l.code !== undefined ? `<cac:CommodityClassification><cbc:ItemClassificationCode>${l.code}</cbc:ItemClassificationCode></cac:CommodityClassification>` : ''}</cac:Item></cac:${lineElement}>`,
  );
  const typeCode = root === 'Invoice' ? `<cbc:InvoiceTypeCode listID="0101">${type}</cbc:InvoiceTypeCode>` : '';
  const discrepancy = o.reason
    ? `<cac:DiscrepancyResponse><cbc:ReferenceID>F001-1</cbc:ReferenceID><cbc:ResponseCode>${o.reason}</cbc:ResponseCode></cac:DiscrepancyResponse>`
    : '';
  const references = Array.from(
    { length: o.references ?? 0 },
    (_, i) =>
      `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F001-${i + 1}</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>`,
  );
  return `<?xml version="1.0"?><${root} xmlns="urn:x" ${NS}><cbc:ID>F001-9</cbc:ID><cbc:IssueDate>${o.date}</cbc:IssueDate>${typeCode}${discrepancy}${references.join('')}${lines.join('')}</${root}>`;
}

function guide(o: { date: string; type?: '09' | '31'; mode?: string; loading?: string | null }): string {
  const loading =
    o.loading === null || o.loading === undefined
      ? ''
      : `<cac:LoadingTransportEvent><cbc:OccurrenceDate>${o.loading}</cbc:OccurrenceDate></cac:LoadingTransportEvent>`;
  return (
    `<DespatchAdvice ${NS}><cbc:ID>T001-1</cbc:ID><cbc:IssueDate>${o.date}</cbc:IssueDate><cbc:DespatchAdviceTypeCode>${o.type ?? '09'}</cbc:DespatchAdviceTypeCode>` +
    `<cac:Shipment><cbc:ID>SUNAT_Envio</cbc:ID><cac:ShipmentStage><cbc:TransportModeCode>${o.mode ?? '01'}</cbc:TransportModeCode>` +
    `<cac:TransitPeriod><cbc:StartDate>${o.date}</cbc:StartDate></cac:TransitPeriod>${loading}</cac:ShipmentStage></cac:Shipment></DespatchAdvice>`
  );
}

function summary(o: { date: string; percent: boolean }): string {
  const category = `<cac:TaxCategory>${o.percent ? '<cbc:Percent>18.00</cbc:Percent>' : ''}<cac:TaxScheme><cbc:ID>1000</cbc:ID></cac:TaxScheme></cac:TaxCategory>`;
  return (
    `<SummaryDocuments ${NS} xmlns:sac="urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1"><cbc:ID>RC-1</cbc:ID>` +
    `<cbc:ReferenceDate>${o.date}</cbc:ReferenceDate><cbc:IssueDate>${o.date}</cbc:IssueDate>` +
    `<sac:SummaryDocumentsLine><cbc:LineID>1</cbc:LineID><cac:TaxTotal><cbc:TaxAmount>18.00</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxAmount>18.00</cbc:TaxAmount>${category}</cac:TaxSubtotal></cac:TaxTotal></sac:SummaryDocumentsLine>` +
    `</SummaryDocuments>`
  );
}

const codes = (xml: string, calendar = DEFAULT_CALENDAR, at?: string) =>
  datedRuleFailures(xml, calendar, at ? { at } : {}).map((f) => `${f.rule}:${f.code}`);

describe('dated rules on the XML (validator/dated-rules.ts)', () => {
  describe('gre-loading-date (2026-06-01): guides by public transport carry the date the goods were handed over', () => {
    it("3617 from the day itself, not the day before; with SUNAT's dates and moved", () => {
      expect(codes(guide({ date: '2026-05-31' }))).to.deep.equal([]);
      expect(codes(guide({ date: '2026-06-01' }))).to.deep.equal(['gre-loading-date:3617']);
      const moved = new RuleCalendar({ 'gre-loading-date': '2026-07-01' });
      expect(codes(guide({ date: '2026-06-30' }), moved)).to.deep.equal([]);
      expect(codes(guide({ date: '2026-07-01' }), moved)).to.deep.equal(['gre-loading-date:3617']);
    });

    it('3619 for a date not written YYYY-MM-DD, 3618 for one before the issue date; private transport (02) is not judged', () => {
      expect(codes(guide({ date: '2026-11-26', loading: '26/11/2026' }))).to.deep.equal(['gre-loading-date:3619']);
      expect(codes(guide({ date: '2026-11-26', loading: '2026-11-25' }))).to.deep.equal(['gre-loading-date:3618']);
      expect(codes(guide({ date: '2026-11-26', loading: '2026-11-26' }))).to.deep.equal([]);
      expect(codes(guide({ date: '2026-11-26', mode: '02' }))).to.deep.equal([]);
      // SUNAT's GRE transportista XSL checks none of the three: a carrier's guide is not judged.
      expect(codes(guide({ date: '2026-11-26', type: '31' }))).to.deep.equal([]);
      const [failure] = datedRuleFailures(guide({ date: '2026-11-26' }), DEFAULT_CALENDAR);
      expect(failure).to.deep.equal({
        rule: 'gre-loading-date',
        code: '3617',
        message:
          'a guide by public transport (modalidad 01) carries the date the goods were handed to the carrier since 2026-06-01',
        path: 'Shipment/ShipmentStage/LoadingTransportEvent/OccurrenceDate',
      });
    });
  });

  // Factura2_0 field 28 / NotaCredito2_0 field 26, the 3496 rows: "Si el tag existe" — a line without one is not judged.
  describe('product-code-valid (2027-01-01): a product code, when present, is 8 digits in catalog 25', () => {
    const coded = (date: string, code: string | undefined, type: '01' | '03' | '04' | '07' | '08' = '01') =>
      sale({
        date,
        type,
        lines: [
          { code: '43211503', percent: '18' },
          { code, percent: '18' },
        ],
      });

    it('3496 naming the line from the day itself for an invalid code; absent, listed and reserved codes pass', () => {
      expect(codes(coded('2026-12-31', '12345678'))).to.deep.equal([]);
      for (const type of ['01', '03', '07', '08'] as const) {
        expect(codes(coded('2027-01-01', '12345678', type)), type).to.deep.equal(['product-code-valid:3496']);
        expect(codes(coded('2027-01-01', '1234567', type)), type).to.deep.equal(['product-code-valid:3496']);
        expect(codes(coded('2027-01-01', undefined, type)), type).to.deep.equal([]);
      }
      // LiquidacionCompra2_0 field 25 has no 3496 rows: observations only, which the XSL raises.
      expect(codes(coded('2027-01-01', '12345678', '04'))).to.deep.equal([]);
      for (const code of ['00000000', '99999999', '90101501', '43211500'])
        expect(codes(coded('2027-01-01', code)), code).to.deep.equal([]);
      // Above class level (Factura2_0 row 122, 4337): a segment or a family, listed or not.
      for (const code of ['10000000', '43210000']) {
        expect(codes(coded('2026-12-31', code)), code).to.deep.equal([]);
        expect(codes(coded('2027-01-01', code)), code).to.deep.equal(['product-code-valid:3496']);
      }
      expect(datedRuleFailures(coded('2027-01-01', ''), DEFAULT_CALENDAR)[0]).to.deep.include({
        code: '3496',
        path: 'InvoiceLine[2]/Item/CommodityClassification/ItemClassificationCode',
      });
    });

    it('brought forward with the calendar: judged from the new date; `at` asks about a stored document', () => {
      const moved = new RuleCalendar({ 'product-code-valid': '2026-11-26' });
      expect(codes(coded('2026-11-25', '12345678'), moved)).to.deep.equal([]);
      expect(codes(coded('2026-11-26', '12345678'), moved)).to.deep.equal(['product-code-valid:3496']);
      expect(codes(coded('2026-11-26', undefined), moved)).to.deep.equal([]);
      expect(codes(coded('2024-03-15', '12345678'))).to.deep.equal([]);
      expect(codes(coded('2024-03-15', '12345678'), DEFAULT_CALENDAR, '2027-01-01')).to.deep.equal([
        'product-code-valid:3496',
      ]);
      expect(codes(coded('2027-06-01', '12345678'), new RuleCalendar({ 'product-code-valid': 'off' }))).to.deep.equal(
        [],
      );
    });
  });

  // Factura2_0 fields 46/47: "la tasa vigente al IGV (18.00 o 10.50) a la fecha de emisión".
  describe('the special IGV rate: 10 until 2025, 10.5 from mype-rate-2026, 15 from mype-rate-2027, none from mype-rate-end', () => {
    const rated = (date: string, percent: string, type: '01' | '03' | '07' | '08' = '03') =>
      sale({ date, type, lines: [{ code: '90101501', percent }] });

    it('each rate on both sides of its date; 18 always', () => {
      expect(codes(rated('2025-12-31', '10.00'))).to.deep.equal([]);
      expect(codes(rated('2026-01-01', '10.00'))).to.deep.equal(['mype-rate-2026:3103']);
      expect(codes(rated('2025-12-31', '10.50'))).to.have.length(1);
      expect(codes(rated('2026-01-01', '10.50'))).to.deep.equal([]);
      expect(codes(rated('2026-12-31', '10.5'))).to.deep.equal([]);
      expect(codes(rated('2026-12-31', '15.00'))).to.deep.equal(['mype-rate-2026:3103']);
      expect(codes(rated('2027-01-01', '15.00'))).to.deep.equal([]);
      expect(codes(rated('2027-01-01', '10.50'))).to.deep.equal(['mype-rate-2027:3103']);
      expect(codes(rated('2027-12-31', '15.00'))).to.deep.equal([]);
      expect(codes(rated('2028-01-01', '15.00'))).to.deep.equal(['mype-rate-end:3103']);
      for (const date of ['2025-12-31', '2026-01-01', '2027-01-01', '2028-01-01'])
        expect(codes(rated(date, '18.00')), date).to.deep.equal([]);
      expect(datedRuleFailures(rated('2026-11-27', '10.00'), DEFAULT_CALENDAR)[0].message).to.equal(
        'line 1 has IGV rate 10.00; a document issued on 2026-11-27 may carry 18 or 10.5',
      );
    });

    // NotaCredito2_0 row 298, NotaDebito2_0 row 296: "(18.00, 10.50 o 10.00) … la tasa del IGV del 'Documento que se
    // modifica' es 10%, 10.5% o 18%": a note carries the rate of the document it modifies.
    it('a credit or debit note also carries the earlier special rates; an invoice or receipt does not', () => {
      for (const type of ['07', '08'] as const) {
        expect(codes(rated('2026-01-01', '10.00', type)), type).to.deep.equal([]);
        expect(codes(rated('2026-06-01', '10.50', type)), type).to.deep.equal([]);
        expect(codes(rated('2025-12-31', '10.50', type)), `${type}: 10.5 was no rate in 2025`).to.have.length(1);
        for (const percent of ['10.00', '10.50', '15.00'])
          expect(codes(rated('2028-01-01', percent, type)), `${type} ${percent}`).to.deep.equal([]);
        expect(codes(rated('2026-06-01', '15.00', type)), type).to.deep.equal(['mype-rate-2026:3103']);
      }
      for (const type of ['01', '03'] as const)
        expect(codes(rated('2026-01-01', '10.00', type)), type).to.deep.equal(['mype-rate-2026:3103']);
      expect(datedRuleFailures(rated('2026-11-27', '15.00', '07'), DEFAULT_CALENDAR)[0].message).to.equal(
        'line 1 has IGV rate 15.00; a document issued on 2026-11-27 may carry 18 or 10.5 or 10',
      );
    });

    it('moved and valued as configured; exonerated lines and IVAP are not IGV rates', () => {
      const moved = new RuleCalendar({ 'mype-rate-2027': '2026-11-26' }, { 'mype-rate-2027': 14 });
      expect(codes(rated('2026-11-25', '14.00'), moved)).to.deep.equal(['mype-rate-2026:3103']);
      expect(codes(rated('2026-11-26', '14.00'), moved)).to.deep.equal([]);
      expect(codes(rated('2026-11-26', '10.50'), moved)).to.deep.equal(['mype-rate-2027:3103']);
      expect(
        codes(
          sale({
            date: '2028-01-01',
            lines: [
              { code: '90101501', scheme: '9997', percent: '10.00', reason: '20' },
              { code: '90101501', scheme: '1016', percent: '4.00', reason: '17' },
            ],
          }),
        ),
      ).to.deep.equal([]);
    });
  });

  describe('debit-note-13 (2027-01-01): a reason-13 debit note covers only unaffected operations', () => {
    const note = (date: string, lines: SaleLine[]) => sale({ date, type: '08', reason: '13', lines });
    const taxed = [{ code: '90101501', scheme: '1000', percent: '18.00', reason: '10' }];
    const unaffected = [{ code: '90101501', scheme: '9998', percent: '0.00', reason: '30' }];

    it('3507 for a taxed line from the day itself; unaffected lines and other reasons pass', () => {
      expect(codes(note('2026-12-31', taxed))).to.deep.equal([]);
      expect(codes(note('2027-01-01', taxed))).to.deep.equal(['debit-note-13:3507']);
      expect(codes(note('2027-01-01', unaffected))).to.deep.equal([]);
      expect(codes(sale({ date: '2027-01-01', type: '08', reason: '02', lines: taxed }))).to.deep.equal([]);
      const moved = new RuleCalendar({ 'debit-note-13': '2026-11-26' });
      expect(codes(note('2026-11-25', taxed), moved)).to.deep.equal([]);
      expect(codes(note('2026-11-26', taxed), moved)).to.deep.equal(['debit-note-13:3507']);
    });

    it('3194 for a debit note of any reason modifying two documents, from the day itself (revisions row 11)', () => {
      const two = (date: string, reason: string) =>
        sale({ date, type: '08', reason, references: 2, lines: unaffected });
      for (const reason of ['01', '11', '13']) {
        expect(codes(two('2026-12-31', reason)), reason).to.deep.equal([]);
        expect(codes(two('2027-01-01', reason)), reason).to.deep.equal(['debit-note-13:3194']);
      }
      expect(codes(sale({ date: '2027-01-01', type: '08', reason: '01', references: 1 }))).to.deep.equal([]);
    });
  });

  describe('credit-note-ceiling (2027-01-01): a credit note modifies one document only', () => {
    it('3261 for two referenced documents from the day itself; one is fine', () => {
      expect(codes(sale({ date: '2026-12-31', type: '07', references: 2 }))).to.deep.equal([]);
      expect(codes(sale({ date: '2027-01-01', type: '07', references: 2 }))).to.deep.equal([
        'credit-note-ceiling:3261',
      ]);
      expect(codes(sale({ date: '2027-01-01', type: '07', references: 1 }))).to.deep.equal([]);
      const moved = new RuleCalendar({ 'credit-note-ceiling': '2026-11-26' });
      expect(codes(sale({ date: '2026-11-25', type: '07', references: 2 }), moved)).to.deep.equal([]);
      expect(codes(sale({ date: '2026-11-26', type: '07', references: 2 }), moved)).to.deep.equal([
        'credit-note-ceiling:3261',
      ]);
    });
  });

  describe('summary-igv-percent (2026-02-01) and summary-v2 (2027-01-01): the IGV rate on every summary line', () => {
    it("2992 from summary-igv-percent's day; summary-v2 asks the same when the first is moved past it", () => {
      expect(codes(summary({ date: '2026-01-31', percent: false }))).to.deep.equal([]);
      expect(codes(summary({ date: '2026-02-01', percent: false }))).to.deep.equal(['summary-igv-percent:2992']);
      expect(codes(summary({ date: '2026-02-01', percent: true }))).to.deep.equal([]);
      const moved = new RuleCalendar({ 'summary-igv-percent': '2027-06-01' });
      expect(codes(summary({ date: '2026-12-31', percent: false }), moved)).to.deep.equal([]);
      expect(codes(summary({ date: '2027-01-01', percent: false }), moved)).to.deep.equal(['summary-v2:2992']);
    });
  });

  it('nothing to judge: no issue date, a type no dated rule reads, XML whose tags do not balance', () => {
    expect(codes(guide({ date: '' }))).to.deep.equal([]);
    expect(codes(`<VoidedDocuments ${NS}><cbc:IssueDate>2027-01-01</cbc:IssueDate></VoidedDocuments>`)).to.deep.equal(
      [],
    );
    expect(codes('<Invoice><cbc:IssueDate>2027-01-01</cbc:IssueDate>')).to.deep.equal([]);
  });
});
