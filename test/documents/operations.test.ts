/**
 * Percepción (2001), detracciones 1002–1004 and the other catalog 51 operations with data of their own: amounts
 * checked against an independent calculation in integer arithmetic (BigInt cents, not the library's decimals) on
 * the example payloads' non-round amounts, and the XML pieces SUNAT reads for each operation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { DocumentValidationError, formatIssue, prepareDocument } from '../../documents';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
const load = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, any>;

/** A decimal text as an integer scaled by 10^scale (`"23.7288"`, 10 → 237288000000). */
function scaled(text: string | number, scale: number): bigint {
  const [int, frac = ''] = String(text).split('.');
  return BigInt(int + frac.padEnd(scale, '0').slice(0, scale));
}

/** n / 10^scale rounded half-up to an integer (all values here are positive). */
function roundDiv(n: bigint, divisor: bigint): bigint {
  return (n * 2n + divisor) / (2n * divisor);
}

const cents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

/** Taxed lines at 18 %: payable total in cents, each line rounded before summing as SUNAT does. */
function payableCents(items: { cantidad: number | string; valorUnitario: number | string }[]): bigint {
  let value = 0n;
  let igv = 0n;
  for (const it of items) {
    const line = roundDiv(scaled(it.cantidad, 10) * scaled(it.valorUnitario, 10), 10n ** 18n);
    value += line;
    igv += roundDiv(line * 18n, 100n);
  }
  return value + igv;
}

/** Σ line values in cents (each line rounded), taxes left out. */
function valueCents(items: { cantidad: number | string; valorUnitario: number | string }[]): bigint {
  return items.reduce(
    (sum, it) => sum + roundDiv(scaled(it.cantidad, 10) * scaled(it.valorUnitario, 10), 10n ** 18n),
    0n,
  );
}

function tag(xml: string, pattern: RegExp): string[] {
  return [...xml.matchAll(pattern)].map((m) => m[1]);
}

function errors(payload: unknown): string[] {
  try {
    prepareDocument(payload);
  } catch (e) {
    if (e instanceof DocumentValidationError) return e.issues.map(formatIssue);
    throw e;
  }
  return [];
}

describe('catalog 51 operations with data of their own', () => {
  describe('percepción (2001)', () => {
    it('charges the regime rate on the payable total, to the cent, and states the total with percepción', () => {
      const payload = load('invoice-perception');
      const doc = prepareDocument(payload);
      const payable = payableCents(payload.items);
      const perception = roundDiv(payable * 2n, 100n); // regime 51: 2 %
      expect(doc.totals!.PayableAmount).to.equal(cents(payable));
      const charge =
        /<cac:AllowanceCharge><cbc:ChargeIndicator>true<\/cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode[^>]*>51<\/cbc:AllowanceChargeReasonCode>(.*?)<\/cac:AllowanceCharge>/.exec(
          doc.xml,
        );
      expect(charge, 'charge 51').to.not.equal(null);
      expect(charge![1]).to.equal(
        `<cbc:MultiplierFactorNumeric>0.02</cbc:MultiplierFactorNumeric><cbc:Amount currencyID="PEN">${cents(perception)}</cbc:Amount><cbc:BaseAmount currencyID="PEN">${cents(payable)}</cbc:BaseAmount>`,
      );
      expect(
        tag(doc.xml, /<cac:PaymentTerms><cbc:ID>Percepcion<\/cbc:ID><cbc:Amount currencyID="PEN">([\d.]+)</g),
      ).to.deep.equal([cents(payable + perception)]);
      expect(doc.xml).to.include('<cbc:Note languageLocaleID="2000">COMPROBANTE DE PERCEPCIÓN</cbc:Note>');
      // The percepción is not a charge of the sale: the payable total and ChargeTotalAmount do not include it.
      expect(doc.totals!.ChargeTotalAmount).to.equal('0.00');
    });

    it('takes another rate and base when given (regime 53 at 0.5 % on part of the sale)', () => {
      const payload: Record<string, any> = {
        ...load('invoice-perception'),
        percepcion: { codigo: '53', baseImponible: '1234.57' },
      };
      const doc = prepareDocument(payload);
      const amount = roundDiv(scaled('1234.57', 2) * 5n, 1000n); // 0.5 % of 1234.57 = 6.17285 → 6.17
      expect(
        tag(
          doc.xml,
          /<cbc:AllowanceChargeReasonCode[^>]*>53<\/cbc:AllowanceChargeReasonCode><cbc:MultiplierFactorNumeric>([\d.]+)</g,
        ),
      ).to.deep.equal(['0.005']);
      expect(doc.xml).to.include(
        `<cbc:Amount currencyID="PEN">${cents(amount)}</cbc:Amount><cbc:BaseAmount currencyID="PEN">1234.57</cbc:BaseAmount>`,
      );
      expect(tag(doc.xml, /<cbc:ID>Percepcion<\/cbc:ID><cbc:Amount currencyID="PEN">([\d.]+)</g)).to.deep.equal([
        cents(payableCents(payload.items) + amount),
      ]);
    });

    it('a boleta carries it too (regime 52, 1 %); a note does not; on credit none is stated', () => {
      const boleta = load('receipt-perception');
      const doc = prepareDocument(boleta);
      const payable = payableCents(boleta.items);
      expect(tag(doc.xml, /<cbc:ID>Percepcion<\/cbc:ID><cbc:Amount currencyID="PEN">([\d.]+)</g)).to.deep.equal([
        cents(payable + roundDiv(payable, 100n)),
      ]);
      const note = { ...load('credit-note-01'), percepcion: { codigo: '51' } };
      expect(errors(note)).to.include(
        '[chasqui BR_PERCEPTION_DOC] the percepción is stated on facturas and boletas, not on notes',
      );
      // Operation 2001 on credit carries no percepción (SUNAT's 3330): without it the factura is valid.
      const credit: Record<string, any> = {
        ...load('invoice-perception'),
        formaPago: { tipo: 'Credito', cuotas: [{ monto: 100, fechaPago: '2024-04-15' }] },
      };
      delete credit.percepcion;
      expect(errors(credit)).to.deep.equal([]);
    });
  });

  describe('detracciones 1002–1004', () => {
    for (const [name, code, percent] of [
      ['invoice-detraction-1002', '004', 4n],
      ['invoice-detraction-1003', '028', 4n],
      ['invoice-detraction-1004', '027', 4n],
    ] as const) {
      it(`${name}: the detracción is ${percent} % of the payable total (code ${code}) with legend 2006`, () => {
        const payload = load(name);
        const doc = prepareDocument(payload);
        const payable = payableCents(payload.items);
        expect(doc.totals!.PayableAmount).to.equal(cents(payable));
        const terms =
          /<cac:PaymentTerms><cbc:ID>Detraccion<\/cbc:ID><cbc:PaymentMeansID[^>]*>(\d+)<\/cbc:PaymentMeansID><cbc:PaymentPercent>([\d.]+)<\/cbc:PaymentPercent><cbc:Amount currencyID="PEN">([\d.]+)</.exec(
            doc.xml,
          );
        expect(terms?.slice(1)).to.deep.equal([code, `${percent}.00`, cents(roundDiv(payable * percent, 100n))]);
        expect(doc.xml).to.include('<cbc:Note languageLocaleID="2006">OPERACIÓN SUJETA A DETRACCIÓN</cbc:Note>');
        expect(doc.xml).to.include(`listID="${payload.tipoOperacion}"`);
      });
    }

    it('a boleta carries a detracción too (receipt-detraccion.json); a note does not', () => {
      const payload = load('receipt-detraccion');
      const doc = prepareDocument(payload);
      const payable = payableCents(payload.items);
      expect(
        tag(
          doc.xml,
          /<cbc:ID>Detraccion<\/cbc:ID><cbc:PaymentMeansID[^>]*>\d+<\/cbc:PaymentMeansID><cbc:PaymentPercent>[\d.]+<\/cbc:PaymentPercent><cbc:Amount currencyID="PEN">([\d.]+)</g,
        ),
      ).to.deep.equal([cents(roundDiv(payable * 10n, 100n))]);
      expect(doc.xml).to.not.include('FormaPago');
      const note = { ...load('credit-note-01'), tipoOperacion: '1001', detraccion: payload.detraccion };
      expect(errors(note)).to.include(
        '[chasqui BR_DETRACTION_DOC] the detracción is written on facturas and boletas, not on notes',
      );
    });

    it('1002 writes the fishing data as catalog 55 properties of the line', () => {
      const doc = prepareDocument(load('invoice-detraction-1002'));
      expect(tag(doc.xml, /<cbc:NameCode[^>]*>(\d+)</g)).to.deep.equal([
        '3001',
        '3002',
        '3003',
        '3004',
        '3005',
        '3006',
      ]);
      expect(doc.xml).to.include(
        '<cbc:NameCode listAgencyName="PE:SUNAT" listName="Propiedad del item" listURI="urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo55">3005</cbc:NameCode><cac:UsabilityPeriod><cbc:StartDate>2024-03-14</cbc:StartDate></cac:UsabilityPeriod>',
      );
      expect(doc.xml).to.include('<cbc:ValueQuantity unitCode="TNE">18.75</cbc:ValueQuantity>');
    });

    it('1004 writes the trip and the three reference values of each line', () => {
      const doc = prepareDocument(load('invoice-detraction-1004'));
      const delivery = /<cac:Delivery>(.*?)<\/cac:Delivery>/.exec(doc.xml)![1];
      expect(
        tag(delivery, /<cac:DeliveryTerms><cbc:ID>(\d+)<\/cbc:ID><cbc:Amount currencyID="PEN">[\d.]+</g),
      ).to.deep.equal(['01', '02', '03']);
      expect(tag(delivery, /<cbc:Amount currencyID="PEN">([\d.]+)</g)).to.deep.equal(['6215.40', '5980.16', '6420.88']);
      expect(delivery).to.include(
        '<cbc:Instructions>Transporte de 28 toneladas de urea en camión con semirremolque</cbc:Instructions>',
      );
      expect(tag(delivery, /<cbc:ID schemeAgencyName="PE:INEI" schemeName="Ubigeos">(\d+)</g)).to.deep.equal([
        '040101',
        '150101',
      ]);
    });
  });

  describe('0301, 0302 and 2100–2105', () => {
    it('every operation of catalog 51 for facturas and boletas is accepted', () => {
      const fixtures = [
        'invoice-operation-0202',
        'invoice-operation-0301',
        'receipt-operation-0302',
        'invoice-operation-2100',
        'invoice-operation-2101',
        'invoice-operation-2102',
        'invoice-operation-2103',
        'invoice-operation-2104',
        'receipt-operation-2105',
      ];
      for (const name of fixtures) {
        const payload = load(name);
        const doc = prepareDocument(payload);
        expect(doc.xml, name).to.include(`listID="${payload.tipoOperacion}"`);
        expect(doc.totals!.PayableAmount, name).to.equal(
          cents(
            payload.items.every((i: { afectacionIgv: string }) => i.afectacionIgv === '30' || i.afectacionIgv === '40')
              ? valueCents(payload.items)
              : payableCents(payload.items),
          ),
        );
      }
    });

    it('0202 (hospedaje to a non-domiciled guest) needs the guest and the stay on every line, each with its SUNAT code', () => {
      const payload = load('invoice-operation-0202');
      payload.items[0].propiedades = payload.items[0].propiedades.filter(
        (p: { codigo: string }) => !['4002', '4005', '4009'].includes(p.codigo),
      );
      expect(errors(payload)).to.deep.equal([
        '[SUNAT 3141] operation 0202 needs property 4002 (Beneficio Hospedajes: Fecha de ingreso al país) on every line',
        '[SUNAT 3145] operation 0202 needs property 4005 (Beneficio Hospedajes: Número de Días de Permanencia) on every line',
        '[SUNAT 3136] operation 0202 needs property 4009 (Beneficio Hospedajes: Número de documento de identidad del huesped) on every line',
      ]);
    });

    it('0302 names the travel agent and how the ticket was paid', () => {
      const doc = prepareDocument(load('receipt-operation-0302'));
      expect(doc.xml).to.match(
        /<\/cac:PartyLegalEntity><cac:AgentParty><cac:PartyIdentification><cbc:ID schemeAgencyName="PE:SUNAT" schemeID="6"[^>]*>20600000005</,
      );
      expect(doc.xml).to.include(
        '>005</cbc:PaymentMeansCode><cbc:PaymentID>VOU-884213</cbc:PaymentID></cac:PaymentMeans>',
      );
      expect(doc.xml).to.include('<cac:UsabilityPeriod><cbc:StartTime>07:45:00</cbc:StartTime></cac:UsabilityPeriod>');
    });
  });

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
      expect(doc.xml).to.match(
        /<cac:ReceiverParty><cac:PartyIdentification><cbc:ID [^>]*schemeID="6"[^>]*>20600000005</,
      );
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
});
