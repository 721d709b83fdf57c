/**
 * The simulator through the `soap` npm library, as `chasqui simulator` runs by default: SUNAT's sending window, its
 * dated rules, file names and the references of voided-documents communications. Rows of the table in
 * docs/authority.md.
 */
import { expect } from 'chai';
import { readCdrZip } from '../../authority/cdr';
import { type SimulatorHandle } from '../../simulator/server';
import { startSimulator } from '../../simulator/server';
import { addDays, DEFAULT_CALENDAR, RuleCalendar } from '../../documents/calendar';
import { limaDate } from '../../core/lima';
import { loadConfig } from '../../core/config';
import { invoice, summary, voided } from '../support/ubl-fixtures';
import { prepareDocument } from '../../documents';
import { fixture } from '../support/documents';
import { RUC, sign, urls } from './support';
import { type Client, client, faultOf, fileArgs, cdrXml, text } from './soap-client-support';

describe("simulator through an independent SOAP client: SUNAT's dates and references", () => {
  const today = limaDate(new Date());
  let sim: SimulatorHandle;
  let bill: Client;
  before(async () => {
    // As `chasqui simulator` runs by default: SUNAT's sending window, SUNAT's rule dates.
    sim = await startSimulator({ ticketPolls: 0 });
    bill = await client(urls(sim).bill);
  });
  after(async () => {
    await sim.close();
  });

  const dated = (series: string, number: number, issueDate: string, type?: '01' | '03') =>
    sign(invoice({ ruc: RUC, series, number, issueDate, type }));
  const responseCode = (answer: Record<string, unknown>) => {
    const read = readCdrZip(Buffer.from(answer.applicationResponse as string, 'base64'));
    if (!read.ok) throw new Error(read.reason);
    return read.cdr.responseCode;
  };
  /** The CDR of a summary's ticket: its ResponseCode and Description. */
  async function summaryVerdict(doc: {
    filename: string;
    xml: string;
  }): Promise<{ code: string | null; description: string | null }> {
    const [sent] = await bill.sendSummaryAsync(fileArgs(sign(doc)));
    const [status] = await bill.getStatusAsync({ ticket: sent.ticket });
    const xml = cdrXml((status.status as { content: string }).content);
    return { code: text(xml, 'cbc:ResponseCode'), description: text(xml, 'cbc:Description') };
  }

  it("2108: a document past SUNAT's sending window (3 days) is rejected; on its last day it is received", async () => {
    const [old] = await bill.sendBillAsync(fileArgs(dated('F101', 1, '2024-03-15')));
    expect(responseCode(old)).to.equal('2108');
    expect(cdrXml(old.applicationResponse as string)).to.contain(
      'Presentacion fuera de fecha - Detalle: IssueDate 2024-03-15: SUNAT receives it up to 3 days after its issue date',
    );
    const [late] = await bill.sendBillAsync(fileArgs(dated('F101', 2, addDays(today, -4))));
    expect(responseCode(late)).to.equal('2108');
    const [receipt] = await bill.sendBillAsync(fileArgs(dated('B101', 1, addDays(today, -4), '03')));
    expect(responseCode(receipt)).to.equal('2108');
    const [lastDay] = await bill.sendBillAsync(fileArgs(dated('F101', 3, addDays(today, -3))));
    expect(responseCode(lastDay)).to.equal('0');
  });

  it('the switch: sendingWindowDays 0 (CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS=0, --sending-window-days 0) receives a 2024 invoice', async () => {
    expect(loadConfig({}).simulatorSendingWindowDays).to.equal(3);
    expect(loadConfig({ CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS: '0' }).simulatorSendingWindowDays).to.equal(0);
    const open = await startSimulator({ ticketPolls: 0, sendingWindowDays: 0 });
    try {
      const [answer] = await (await client(urls(open).bill)).sendBillAsync(fileArgs(dated('F102', 1, '2024-03-15')));
      expect(responseCode(answer)).to.equal('0');
    } finally {
      await open.close();
    }
  });

  it('0151: a SOAP fileName without .zip is refused, for sendBill and sendSummary; nothing is received', async () => {
    const doc = dated('F103', 1, today);
    const { contentFile } = fileArgs(doc);
    for (const fileName of [doc.filename, `${doc.filename}.xml`]) {
      expect(await faultOf(bill.sendBillAsync({ fileName, contentFile })), fileName).to.deep.include({
        faultcode: 'soap-env:Client.0151',
        faultstring: 'El nombre del archivo ZIP es incorrecto',
      });
    }
    const rc = summary(RUC, today, 901);
    expect(
      (await faultOf(bill.sendSummaryAsync({ fileName: rc.filename, contentFile: fileArgs(sign(rc)).contentFile })))
        .faultcode,
    ).to.equal('soap-env:Client.0151');
    const [received] = await bill.sendBillAsync(fileArgs(doc));
    expect(responseCode(received)).to.equal('0');
  });

  it('voided-documents communications (RA): 2105 for a document never sent, 2323 for one already voided, 2375 for another reference date', async () => {
    const never = await summaryVerdict(voided(RUC, today, 101, [{ type: '01', series: 'F104', number: 1 }]));
    expect(never).to.deep.equal({
      code: '2105',
      description: `Comprobante a dar de baja no se encuentra registrado en SUNAT - Detalle: 01 F104-1 was never received or was rejected`,
    });
    await bill.sendBillAsync(fileArgs(dated('F104', 2, today)));
    const yesterday = addDays(today, -1);
    const wrongDate = await summaryVerdict(voided(RUC, yesterday, 102, [{ type: '01', series: 'F104', number: 2 }]));
    expect(wrongDate.code).to.equal('2375');
    expect(wrongDate.description).to.contain(`01 F104-2 was issued on ${today}, not on the ReferenceDate ${yesterday}`);
    expect((await summaryVerdict(voided(RUC, today, 103, [{ type: '01', series: 'F104', number: 2 }]))).code).to.equal(
      '0',
    );
    const again = await summaryVerdict(voided(RUC, today, 104, [{ type: '01', series: 'F104', number: 2 }]));
    expect(again).to.deep.equal({
      code: '2323',
      description:
        'Existe documento ya informado anteriormente en una comunicacion de baja - Detalle: 01 F104-2 is already voided',
    });
  });

  it('dated rules by issue date: a summary line without its IGV rate is 2992 (since 2026-02-01); with it, accepted', async () => {
    const withIgv = (seq: number, percent: string) => {
      const rc = summary(RUC, today, seq);
      const tax = `<cac:TaxTotal><cbc:TaxAmount currencyID="PEN">1.80</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxAmount currencyID="PEN">1.80</cbc:TaxAmount><cac:TaxCategory>${percent}<cac:TaxScheme><cbc:ID>1000</cbc:ID><cbc:Name>IGV</cbc:Name><cbc:TaxTypeCode>VAT</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>`;
      return {
        filename: rc.filename,
        xml: rc.xml.replace('</sac:SummaryDocumentsLine>', `${tax}</sac:SummaryDocumentsLine>`),
      };
    };
    const missing = await summaryVerdict(withIgv(201, ''));
    expect(missing.code).to.equal('2992');
    expect(missing.description).to.match(
      /^El XML no contiene el tag de la tasa del tributo de la línea - Detalle: summary line 1 has no IGV rate/,
    );
    expect((await summaryVerdict(withIgv(202, '<cbc:Percent>18.00</cbc:Percent>'))).code).to.equal('0');
  });

  it('dated rules moved with the calendar (config.rules): an invalid product code is 3496 from the moved date, a line without one never', async () => {
    const invalid = (number: number, issueDate: string) =>
      sign(invoice({ ruc: RUC, series: 'F105', number, issueDate, productCode: '12345678' }));
    const [byDefault] = await bill.sendBillAsync(fileArgs(invalid(1, today)));
    expect(responseCode(byDefault), "product-code-valid is not in force today by SUNAT's dates").to.equal('0');
    const moved = await startSimulator({ ticketPolls: 0, rules: new RuleCalendar({ 'product-code-valid': today }) });
    try {
      const early = await client(urls(moved).bill);
      const [refused] = await early.sendBillAsync(fileArgs(invalid(1, today)));
      expect(responseCode(refused)).to.equal('3496');
      expect(cdrXml(refused.applicationResponse as string)).to.contain(
        `line 1: 12345678 is not in catalog 25 (nor 00000000 or 99999999); SUNAT's product code is not valid since ${today} (nodo: InvoiceLine[1]/Item/CommodityClassification/ItemClassificationCode)`,
      );
      // Factura2_0 field 28: "Si el tag existe" — without a code, or with a reserved one, the invoice is accepted.
      const [noCode] = await early.sendBillAsync(fileArgs(dated('F105', 2, today)));
      expect(responseCode(noCode)).to.equal('0');
      const [reserved] = await early.sendBillAsync(
        fileArgs(sign(invoice({ ruc: RUC, series: 'F105', number: 3, issueDate: today, productCode: '00000000' }))),
      );
      expect(responseCode(reserved)).to.equal('0');
      // Not 8 digits, or above class level (a family), as the sales rules refuse them.
      for (const [i, productCode] of ['1234567', '43210000'].entries()) {
        const [bad] = await early.sendBillAsync(
          fileArgs(sign(invoice({ ruc: RUC, series: 'F105', number: 5 + i, issueDate: today, productCode }))),
        );
        expect(responseCode(bad), productCode).to.equal('3496');
      }
      // Issued the day before the moved date and sent now: judged by the old rules.
      const [before] = await early.sendBillAsync(fileArgs(invalid(4, addDays(today, -1))));
      expect(responseCode(before)).to.equal('0');
    } finally {
      await moved.close();
    }
  });

  it('the IGV rate of the issue date (Factura2_0 fields 46/47): the special rate of today accepted (10.5 in 2026), 10 refused with 3103; 18 always', async () => {
    const at = (number: number, issueDate: string, rate: string) =>
      sign(invoice({ ruc: RUC, series: 'F106', number, issueDate, rate }));
    const { special } = DEFAULT_CALENDAR.igvRates(today);
    if (today < '2027-01-01') expect(special).to.equal(10.5);
    if (special !== null) {
      const [accepted] = await bill.sendBillAsync(fileArgs(at(1, today, special.toFixed(2))));
      expect(responseCode(accepted)).to.equal('0');
    }
    const [old] = await bill.sendBillAsync(fileArgs(at(2, today, '10.00')));
    expect(responseCode(old)).to.equal('3103');
    expect(cdrXml(old.applicationResponse as string)).to.contain(
      `line 1 has IGV rate 10.00; a document issued on ${today} may carry ${special === null ? '18' : `18 or ${special}`}`,
    );
    const [general] = await bill.sendBillAsync(fileArgs(at(3, today, '18.00')));
    expect(responseCode(general)).to.equal('0');
  });

  // NotaCredito2_0 row 298: "(18.00, 10.50 o 10.00) … la tasa del IGV del 'Documento que se modifica' es 10%, 10.5% o 18%".
  it("a credit note at the earlier special rate (10, that of the 2025 invoice it modifies) is accepted; today's other rates are not", async () => {
    const note = (correlativo: string, rate: number) => {
      const doc = fixture('credit-note-01.json');
      const payload = {
        ...doc,
        correlativo,
        fechaEmision: today,
        items: doc.items.map((it: object) => ({ ...it, codigoSunat: '43211503', porcentajeIgv: rate })),
      };
      // Built for the fixture's RUC (a valid one), sent as the simulator's test issuer, whose certificate signs it.
      const prepared = prepareDocument(payload);
      const own = (text: string) => text.replaceAll(doc.emisor.ruc, RUC);
      return sign({ filename: own(prepared.filename), xml: own(prepared.xml) });
    };
    const { special, earlier } = DEFAULT_CALENDAR.igvRates(today, '07');
    if (today < '2027-01-01') expect([special, earlier]).to.deep.equal([10.5, [10]]);
    for (const [i, rate] of earlier.entries()) {
      const [accepted] = await bill.sendBillAsync(fileArgs(note(String(i + 1), rate)));
      expect(responseCode(accepted), String(rate)).to.equal('0');
    }
    const [wrong] = await bill.sendBillAsync(
      fileArgs(sign(invoice({ ruc: RUC, series: 'F106', number: 9, issueDate: today, rate: '10.00' }))),
    );
    expect(responseCode(wrong), 'an invoice modifies no document').to.equal(special === 10 ? '0' : '3103');
  });
});
