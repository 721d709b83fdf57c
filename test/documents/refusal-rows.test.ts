/**
 * Refusals held to the row of SUNAT's sheet they cite (sunat/rules/*.csv): each refuses what its row refuses, with its
 * row's code, and builds what the row accepts.
 */
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { addDays } from '../../documents/calendar';
import { errors, fixture } from '../support/documents';

/** The codes of a 422 ("[SUNAT 2524] … @path" → "2524"), or [] when the document was built. */
const codes = (payload: unknown, options = {}) => errors(payload, options).map((e) => /^\[\w+ (\w+)\]/.exec(e)![1]);

describe('refusals as their sheet rows say', () => {
  describe('daily summary lines (Resumen Diario1_1)', () => {
    const rcWith = (line: Record<string, unknown>) => {
      const doc = fixture('rc-void.json');
      return { ...doc, items: [{ ...doc.items[0], ...line }] };
    };
    const note = { tipoDoc: '07', serieNumero: 'B001-9' };

    it("row 40: a note's line names its boleta (2524) unless the line voids it (estado 3)", () => {
      expect(codes(rcWith({ ...note, estado: '1' }))).to.deep.equal(['2524']);
      expect(codes(rcWith({ ...note, estado: '2' }))).to.deep.equal(['2524']);
      const voided = prepareDocument(rcWith({ ...note, estado: '3' }));
      expect(voided.xml).to.include('<cbc:ID>B001-9</cbc:ID>');
      expect(voided.xml).to.not.include('cac:BillingReference');
    });

    it("row 20: a line's series is B… or numeric (a contingency receipt); any other is 2513", () => {
      expect(codes(rcWith({ serieNumero: 'F001-7' }))).to.deep.equal(['2513']);
      expect(codes(rcWith({ serieNumero: 'X001-7' }))).to.deep.equal(['2513']);
      expect(prepareDocument(rcWith({ serieNumero: '0001-7' })).xml).to.include('<cbc:ID>0001-7</cbc:ID>');
    });
  });

  describe("a summary's dates", () => {
    it('ReferenceDate after IssueDate is 2671 on rc, ra and rr (rows 8, 9, 9); the same day is accepted', () => {
      for (const name of ['rc-void.json', 'ra-invoices.json', 'rr-retention.json']) {
        const doc = fixture(name);
        expect(codes({ ...doc, fechaReferencia: doc.fechaEmision })).to.deep.equal([]);
        const late = { ...doc, fechaReferencia: addDays(doc.fechaEmision, 1) };
        expect(codes(late), name).to.deep.equal(['2671']);
      }
    });

    it('an IssueDate after today is 2236 on a daily summary (row 7), 2301 on ra and rr (row 8); today is accepted', () => {
      for (const [name, code] of [
        ['rc-void.json', '2236'],
        ['ra-invoices.json', '2301'],
        ['rr-retention.json', '2301'],
      ]) {
        const doc = fixture(name);
        expect(codes(doc, { today: doc.fechaEmision }), name).to.deep.equal([]);
        expect(codes(doc, { today: doc.fechaReferencia }), name).to.deep.equal([code]);
      }
    });
  });

  describe("a sales document's issue date after today", () => {
    const on = (name: string) => fixture(name);
    const before = (name: string, days: number) => addDays(on(name).fechaEmision, -days);

    it('Factura2_0 row 14, NotaCredito2_0 row 16: up to two days ahead is built, three is 2329', () => {
      for (const name of ['invoice-decimals.json', 'receipt-icbper.json', 'credit-note-01.json']) {
        expect(codes(on(name), { today: before(name, 2) }), name).to.deep.equal([]);
        expect(codes(on(name), { today: before(name, 3) }), name).to.deep.equal(['2329']);
      }
    });

    it('LiquidacionCompra2_0 row 3: a liquidación de compra dated after today is 2329', () => {
      const name = 'liquidacion-compra.json';
      expect(codes(on(name), { today: before(name, 0) })).to.deep.equal([]);
      expect(codes(on(name), { today: before(name, 1) })).to.deep.equal(['2329']);
    });

    it("a receipt that travels in today's daily summary may not be dated later (Resumen Diario1_1 row 8, 2671)", () => {
      const name = 'receipt-icbper.json';
      const options = { receiptsViaSummary: true };
      expect(codes(on(name), { ...options, today: before(name, 0) })).to.deep.equal([]);
      expect(codes(on(name), { ...options, today: before(name, 1) })).to.deep.equal(['2671']);
      // Its factura sibling goes alone to SUNAT and keeps the two days.
      expect(
        codes(on('invoice-decimals.json'), { ...options, today: before('invoice-decimals.json', 2) }),
      ).to.deep.equal([]);
    });
  });

  describe('the document a note modifies', () => {
    const modifying = (name: string, serieNumero: string) => {
      const doc = fixture(name);
      return { ...doc, documentoAfectado: { ...doc.documentoAfectado, serieNumero } };
    };
    const reference = (xml: string) => /<cac:InvoiceDocumentReference><cbc:ID>([^<]+)</.exec(xml)?.[1];

    it("NotaCredito2_0 rows 76/77: a factura's series F…, E001 or paper, a boleta's B…, EB01 or paper; else 2117", () => {
      for (const serie of ['F001-9', 'E001-9', '0001-9', '1-9'])
        expect(reference(prepareDocument(modifying('credit-note-01.json', serie)).xml)).to.equal(serie);
      for (const serie of ['B001-9', 'EB01-9', '0001-9'])
        expect(reference(prepareDocument(modifying('credit-note-boleta.json', serie)).xml)).to.equal(serie);
      expect(codes(modifying('credit-note-01.json', 'EB01-9'))).to.deep.equal(['2117']);
      expect(codes(modifying('credit-note-01.json', 'B001-9'))).to.deep.equal(['2117']);
      expect(codes(modifying('credit-note-boleta.json', 'E001-9'))).to.deep.equal(['2117']);
      expect(codes(modifying('credit-note-01.json', 'E002-9'))).to.deep.equal(['2117']);
    });

    it('NotaDebito2_0 rows 75/76: the same series, refused as 2205', () => {
      expect(reference(prepareDocument(modifying('debit-note-01.json', 'E001-9')).xml)).to.equal('E001-9');
      expect(codes(modifying('debit-note-01.json', 'B001-9'))).to.deep.equal(['2205']);
    });
  });

  describe('formaPago Credito (Factura2_0 rows 758, 762, 771)', () => {
    const sale = fixture('invoice-credit-instalments.json');
    const total = prepareDocument(sale).totals!.PayableAmount;
    const withCuotas = (doc: Record<string, any>, montos: number[]) => ({
      ...doc,
      formaPago: { tipo: 'Credito', cuotas: montos.map((monto, i) => ({ monto, fechaPago: `2024-0${4 + i}-15` })) },
    });
    /** The same sale, deductible expenses of a natural person (0112) identified by DNI. */
    const toDni = {
      ...sale,
      tipoOperacion: '0112',
      cliente: { tipoDoc: '1', numDoc: '45678912', nombre: 'María Quispe Huamán' },
      items: sale.items.map((item: Record<string, unknown>) => ({ ...item, codigoSunat: '84121901' })),
    };

    it('to a RUC: the cuotas add up to the net pending amount (3319), and there is one at least (3249)', () => {
      expect(Number(total)).to.equal(2360);
      expect(codes(withCuotas(sale, [1180, 1180]))).to.deep.equal([]);
      expect(codes(withCuotas(sale, [1180]))).to.deep.equal(['3319']);
      expect(codes(withCuotas(sale, [1180, 1181]))).to.deep.equal(['3319']);
      expect(codes({ ...sale, formaPago: 'Credito' })).to.deep.equal(['3249']);
    });

    it('to anyone else neither is judged; a cuota above the payable total is 3266 for everyone', () => {
      expect(codes(withCuotas(toDni, [1180]))).to.deep.equal([]);
      expect(codes(withCuotas(toDni, [1180, 1181]))).to.deep.equal([]);
      expect(prepareDocument({ ...toDni, formaPago: 'Credito' }).xml).to.include(
        '<cbc:PaymentMeansID>Credito</cbc:PaymentMeansID>',
      );
      expect(codes(withCuotas(toDni, [2361]))).to.deep.equal(['3266']);
      expect(codes(withCuotas(sale, [2361]))).to.deep.equal(['3266', '3319']);
    });
  });

  describe('the detracción code of its operation (Factura2_0 rows 493-495, 3129)', () => {
    const sale = fixture('invoice-detraccion.json');
    const withCode = (codigo: string) => ({ ...sale, detraccion: { ...sale.detraccion, codigo } });

    it('1002-1004 take only their own code; 1001 may take theirs too, with a warning', () => {
      expect(sale.tipoOperacion).to.equal('1001');
      const freight = prepareDocument(withCode('027'));
      expect(freight.xml).to.match(/<cbc:PaymentMeansID [^>]*catalogo54">027</);
      expect(freight.warnings.join('\n')).to.include('usually declared with operation 1004');
      expect(prepareDocument(sale).warnings.join('\n')).to.not.include('usually declared');
      const fishing = fixture('invoice-detraction-1002.json');
      expect(codes({ ...fishing, detraccion: { ...fishing.detraccion, codigo: '027' } })).to.deep.equal(['3129']);
    });
  });

  describe('export lines (afectacionIgv 40)', () => {
    const exportSale = fixture('invoice-igv-40-exportacion.json');

    it('every line of an export operation is 40 (Factura2_0 row 185, 2642); a 40 line elsewhere is only warned', () => {
      const line = exportSale.items[0];
      expect(codes({ ...exportSale, items: [{ ...line, afectacionIgv: '10' }] })).to.deep.equal(['2642']);
      const domestic = { ...exportSale, tipoOperacion: '0101', cliente: fixture('invoice-decimals.json').cliente };
      const doc = prepareDocument(domestic);
      expect(doc.xml).to.match(/<cbc:ID [^>]*>9995<\/cbc:ID><cbc:Name>EXP</);
      expect(doc.warnings.join('\n')).to.include('afectacionIgv 40 (export) on operation 0101');
      expect(prepareDocument(exportSale).warnings.join('\n')).to.not.include('afectacionIgv 40');
    });
  });

  describe("the customer's identity type (Factura2_0 rows 87-91, 2800)", () => {
    const exportSale = fixture('invoice-igv-40-exportacion.json');
    const ruc = fixture('invoice-decimals.json').cliente;
    const as = (tipoOperacion: string, cliente: unknown, extra: Record<string, unknown> = {}) => ({
      ...exportSale,
      tipoOperacion,
      cliente,
      ...extra,
    });

    it('a factura of export 0200, 0201 or 0204 refuses a RUC unless it carries legend 2008; the other exports take one', () => {
      for (const op of ['0200', '0201', '0204']) expect(codes(as(op, ruc)), op).to.deep.equal(['2800']);
      const legend = { leyendas: [{ codigo: '2008', valor: 'Venta en zona comercial' }] };
      expect(codes(as('0200', ruc, legend))).to.deep.equal([]);
      for (const op of ['0203', '0206', '0207', '0208']) expect(codes(as(op, ruc)), op).to.deep.equal([]);
      expect(codes(as('0200', exportSale.cliente))).to.deep.equal([]);
    });

    it('a domestic factura needs a RUC; a note takes any customer of catalog 06 (NotaCredito2_0 row 67)', () => {
      const dni = { tipoDoc: '1', numDoc: '45678912', nombre: 'María Quispe Huamán' };
      expect(codes({ ...fixture('invoice-decimals.json'), cliente: dni })).to.deep.equal(['2800']);
      expect(codes({ ...fixture('credit-note-01.json'), cliente: dni })).to.deep.equal([]);
    });
  });
});
