/**
 * Percepción (2001), detracciones 1002–1004 and the other catalog 51 operations with data of their own: amounts
 * checked against an independent calculation in integer arithmetic (BigInt cents, not the library's decimals) on
 * the example payloads' non-round amounts, and the XML pieces SUNAT reads for each operation. The liquidación de
 * compra is in purchase.test.ts, retención and percepción documents (20, 40) in retention-perception.test.ts.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { load, scaled, roundDiv, cents, payableCents, valueCents, tag, errors } from './operations-support';

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
      // Operation 2001 on credit carries no percepción (SUNAT's 3330): without it the factura is valid. Its one cuota
      // is the whole payable total, as Factura2_0 row 762 (3319) wants of a credit sale to a RUC.
      const onCredit = load('invoice-perception');
      const credit: Record<string, any> = {
        ...onCredit,
        formaPago: {
          tipo: 'Credito',
          cuotas: [{ monto: Number(cents(payableCents(onCredit.items))), fechaPago: '2024-04-15' }],
        },
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
});
