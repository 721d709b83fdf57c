/**
 * The liquidación de compra (04): amounts checked against an independent calculation in integer arithmetic (BigInt
 * cents) on the example payloads, and the XML pieces SUNAT reads.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { load, scaled, roundDiv, cents, payableCents, valueCents, tag, errors } from './operations-support';

describe('liquidación de compra (04)', () => {
  it('taxes as a factura but the buyer withholds the IGV: payable = value; the seller is the supplier, the issuing buyer the customer', () => {
    const payload = load('liquidacion-compra');
    const doc = prepareDocument(payload);
    expect(doc).to.include({ docType: '04', filename: '20123456786-04-L001-15' });
    expect(doc.totals!.TaxInclusiveAmount).to.equal(cents(payableCents(payload.items)));
    expect(doc.totals!.PayableAmount).to.equal(cents(valueCents(payload.items)));
    expect(doc.xml).to.include(
      '<cbc:Note languageLocaleID="1000">SON CINCO MIL OCHENTA Y CUATRO CON 49/100 SOLES</cbc:Note>',
    );
    expect(doc.xml).to.include('<cbc:InvoiceTypeCode listAgencyName="PE:SUNAT" listID="0501"');
    expect(doc.xml).to.match(
      /<cac:AccountingSupplierParty><cac:Party><cac:PartyIdentification><cbc:ID [^>]*schemeID="1"[^>]*>40123456<\/cbc:ID>.*<cbc:AddressTypeCode [^>]*>02<\/cbc:AddressTypeCode>/,
    );
    expect(doc.xml).to.match(
      /<cac:AccountingCustomerParty><cac:Party><cac:PartyIdentification><cbc:ID [^>]*schemeID="6"[^>]*>20123456786</,
    );
    expect(doc.xml).to.include('<cac:DeliveryTerms><cac:DeliveryLocation><cbc:LocationTypeCode');
    expect(doc.xml).to.not.include('PaymentTerms');
  });

  it('liquidacion-compra-renta.json: income tax withheld (3000) at 1.5 % and 4 % of each line value, deducted from the payable with the IGV', () => {
    const payload = load('liquidacion-compra-renta');
    const doc = prepareDocument(payload);
    // Independent: each line value rounded, its withholding rounded to the cent, then summed (SUNAT's 2464, 4346).
    const lines = (
      payload.items as { cantidad: number; valorUnitario: number; retencionRenta: { porcentaje: number } }[]
    ).map((it) => {
      const value = roundDiv(scaled(it.cantidad, 10) * scaled(it.valorUnitario, 10), 10n ** 18n);
      return {
        value,
        ir: roundDiv(value * scaled(it.retencionRenta.porcentaje, 2), 10000n),
        percent: it.retencionRenta.porcentaje,
      };
    });
    const ir = lines.reduce((sum, l) => sum + l.ir, 0n);
    expect(doc.totals!['TaxAmount.3000']).to.equal(cents(ir));
    expect(doc.totals!.TaxInclusiveAmount).to.equal(cents(payableCents(payload.items)));
    expect(doc.totals!.PayableAmount).to.equal(cents(valueCents(payload.items) - ir));
    // The line's TaxTotal/TaxAmount and the header's keep the IGV only: the withholding is not a tax the buyer adds.
    expect(doc.totals!.TaxAmount).to.equal(doc.totals!['TaxAmount.1000']);
    const subtotals = tag(
      doc.xml,
      /<cac:InvoiceLine>[\s\S]*?(<cac:TaxSubtotal><cbc:TaxableAmount[^<]*<\/cbc:TaxableAmount><cbc:TaxAmount[^<]*<\/cbc:TaxAmount><cac:TaxCategory><cbc:ID[^>]*>S<\/cbc:ID><cbc:Percent>[\d.]+<\/cbc:Percent><cac:TaxScheme><cbc:ID[^>]*>3000<)/g,
    );
    expect(subtotals.map((x) => tag(x, />([\d.]+)</g).slice(0, 3))).to.deep.equal(
      lines.map((l) => [cents(l.value), cents(l.ir), l.percent.toFixed(2)]),
    );
    expect(doc.xml).to.include('<cbc:Name>IR</cbc:Name><cbc:TaxTypeCode>TOX</cbc:TaxTypeCode>');
    expect(doc.xml).to.include(
      `<cbc:Note languageLocaleID="1000">SON CINCO MIL CIENTO NOVENTA Y NUEVE CON 14/100 SOLES</cbc:Note>`,
    );
    expect(doc.warnings).to.deep.equal([]);
  });

  it('income tax withheld: another rate is announced as SUNAT observes it (4237); a factura or a free line refuses it', () => {
    const payload = load('liquidacion-compra-renta');
    payload.items[0].retencionRenta.porcentaje = 3;
    expect(prepareDocument(payload).warnings).to.deep.equal([
      '[SUNAT 4237] items[0].retencionRenta.porcentaje 3: SUNAT expects 1.5 or 4 and observes any other rate',
    ]);
    payload.items[0].retencionRenta.porcentaje = 1.5;
    payload.items[1].afectacionIgv = '11';
    expect(errors(payload)).to.deep.equal([
      '[chasqui BR_IR_FREE_LINE] a free line (transferencia gratuita) has no value to withhold income tax from',
    ]);
    const invoice = load('invoice-basic');
    invoice.items[0].retencionRenta = { porcentaje: 1.5 };
    expect(errors(invoice)).to.deep.equal([
      '[chasqui BR_IR_PURCHASE_ONLY] income tax is withheld (retencionRenta) only in a liquidación de compra (04)',
    ]);
  });

  it('0503 (compra de oro) carries the mining data of each line', () => {
    const doc = prepareDocument(load('liquidacion-compra-oro'));
    expect(tag(doc.xml, /<cbc:NameCode[^>]*>(\d+)</g)).to.deep.equal(['6000', '6004', '6005', '6006']);
    expect(doc.totals!.PayableAmount).to.equal(cents(valueCents(load('liquidacion-compra-oro').items)));
  });
});
