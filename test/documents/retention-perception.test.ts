/**
 * Comprobantes de retención (20) and percepción (40): amounts per line checked against an independent calculation in
 * integer arithmetic (BigInt cents), and the XML pieces SUNAT reads.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { load, scaled, roundDiv, cents, tag, errors } from './operations-support';

describe('comprobantes de retención (20) and percepción (40)', () => {
  /** Per line, in cents: the payment in soles, the retención/percepción at `rate` thousandths of a percent, and the net. */
  function expected(payload: Record<string, any>, ratePer100k: bigint, sign: 1n | -1n) {
    // A credit note (07) is listed without payment: it adds nothing.
    const lines = payload.items
      .filter((it: any) => it.documento.tipoDoc !== '07')
      .map((it: any) => {
        const paid = it.pago ?? it.cobro;
        const soles = it.tipoCambio
          ? roundDiv(scaled(paid.importe, 2) * scaled(it.tipoCambio.factor, 6), 10n ** 6n)
          : scaled(paid.importe, 2);
        const amount = roundDiv(soles * ratePer100k, 100_000n);
        return { soles, amount, net: soles + sign * amount };
      });
    return {
      lines,
      total: lines.reduce((a: bigint, l: any) => a + l.amount, 0n),
      net: lines.reduce((a: bigint, l: any) => a + l.net, 0n),
    };
  }

  it("retention.json: 3 % of each payment in soles (USD at the payment's rate), net paid = paid − retención", () => {
    const payload = load('retention');
    const doc = prepareDocument(payload);
    const want = expected(payload, 3000n, -1n);
    expect(doc.totals).to.deep.equal({ TotalInvoiceAmount: cents(want.total), SUNATTotalPaid: cents(want.net) });
    expect(tag(doc.xml, /<sac:SUNATRetentionAmount currencyID="PEN">([\d.]+)</g)).to.deep.equal(
      want.lines.map((l: any) => cents(l.amount)),
    );
    expect(tag(doc.xml, /<sac:SUNATNetTotalPaid currencyID="PEN">([\d.]+)</g)).to.deep.equal(
      want.lines.map((l: any) => cents(l.net)),
    );
    expect(doc.xml).to.include(
      '<cac:ExchangeRate><cbc:SourceCurrencyCode>USD</cbc:SourceCurrencyCode><cbc:TargetCurrencyCode>PEN</cbc:TargetCurrencyCode><cbc:CalculationRate>3.713</cbc:CalculationRate><cbc:Date>2024-03-15</cbc:Date></cac:ExchangeRate>',
    );
    expect(doc.xml).to.include(
      '<sac:SUNATRetentionSystemCode>01</sac:SUNATRetentionSystemCode><sac:SUNATRetentionPercent>3.00</sac:SUNATRetentionPercent>',
    );
    expect(doc.filename).to.equal('20123456786-20-R001-27');
    // The issuer is the agent; the supplier the receiver; cac:Signature comes before cbc:ID in this schema.
    expect(doc.xml).to.match(
      /<cbc:CustomizationID>1\.0<\/cbc:CustomizationID><cac:Signature>.*<\/cac:Signature><cbc:ID>R001-27<\/cbc:ID>/,
    );
    expect(doc.xml).to.match(/<cac:ReceiverParty><cac:PartyIdentification><cbc:ID [^>]*schemeID="6"[^>]*>20600000005</);
  });

  it('perception.json and perception-combustible.json: 2 % and 1 % on top of what is collected', () => {
    for (const [name, rate] of [
      ['perception', 2000n],
      ['perception-combustible', 1000n],
    ] as const) {
      const payload = load(name);
      const doc = prepareDocument(payload);
      const want = expected(payload, rate, 1n);
      expect(doc.totals, name).to.deep.equal({
        TotalInvoiceAmount: cents(want.total),
        SUNATTotalCashed: cents(want.net),
      });
      expect(tag(doc.xml, /<sac:SUNATPerceptionAmount currencyID="PEN">([\d.]+)</g), name).to.deep.equal(
        want.lines.map((l: any) => cents(l.amount)),
      );
      expect(tag(doc.xml, /<sac:SUNATNetTotalCashed currencyID="PEN">([\d.]+)</g), name).to.deep.equal(
        want.lines.map((l: any) => cents(l.net)),
      );
    }
  });

  it('retention-credit-note.json and perception-credit-note.json: a credit note (07) is listed without payment and changes no total', () => {
    for (const [name, plain, rate, sign, kind] of [
      ['retention-credit-note', 'retention', 3000n, -1n, 'Retention'],
      ['perception-credit-note', 'perception', 2000n, 1n, 'Perception'],
    ] as const) {
      const payload = load(name);
      const doc = prepareDocument(payload);
      const want = expected(payload, rate, sign);
      expect(Object.values(doc.totals!), name).to.deep.equal([cents(want.total), cents(want.net)]);
      expect(doc.totals, name).to.deep.equal(prepareDocument(load(plain)).totals);
      const references = tag(
        doc.xml,
        new RegExp(`(<sac:SUNAT${kind}DocumentReference>[\\s\\S]*?</sac:SUNAT${kind}DocumentReference>)`, 'g'),
      );
      const note = references.find((r) => r.includes('schemeID="07"'))!;
      expect(note, name).to.match(
        /^<sac:SUNAT\w+DocumentReference><cbc:ID schemeID="07">FC01-\d+<\/cbc:ID><cbc:IssueDate>[\d-]+<\/cbc:IssueDate><cbc:TotalInvoiceAmount currencyID="PEN">[\d.]+<\/cbc:TotalInvoiceAmount><\/sac:SUNAT\w+DocumentReference>$/,
      );
      expect(
        references.filter((r) => r.includes('<cac:Payment>')),
        name,
      ).to.have.length(payload.items.length - 1);
    }
  });

  it('a credit note line takes no payment nor exchange rate, and cannot be the only line (SUNAT 2669)', () => {
    const payload = load('retention-credit-note');
    const note = payload.items[1];
    expect(errors({ ...payload, items: [{ ...note, pago: { fecha: '2024-03-15', importe: 10 } }] })).to.deep.equal([
      "'items[0].pago' is not allowed: a credit note (07) is listed without payment",
    ]);
    expect(errors({ ...payload, items: [note] })).to.deep.equal([
      '[SUNAT 2669] a retención needs at least one payment: credit notes alone give a total of 0',
    ]);
    expect(
      errors({
        ...payload,
        items: [{ ...note, tipoCambio: { factor: 3.7, fecha: '2024-03-15' } }, payload.items[0]],
      }),
    ).to.deep.equal(["'items[0].tipoCambio' is not allowed: a credit note (07) is listed without payment"]);
    // Any other document still needs its payment.
    expect(errors({ ...payload, items: [{ documento: payload.items[0].documento }] })).to.have.length(1);
  });
});
