import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signXml, type Signer } from '../../documents/signing';
import { Decimal } from '../../documents/decimal';
import { amountInWords } from '../../documents/tax/words';
import { CHECK_PAGE, printDocument, readPrinted, validateLogo, type PrintOptions } from '../../documents/printed';
import { formatDate } from '../../documents/printed/labels';
import { readCdrXml } from '../../authority/cdr';
import { fixture } from '../support/documents';
import { invoicePayload } from '../../bench/payloads';
import { loadPdfReader, PdfFile, testPng as png } from '../support/pdf-tools';

const GUIDE_CDR = path.resolve(__dirname, '../../sunat/samples/cdr/R-20000000001-09-T001-1.xml');

let signer: Signer;
function signed(payload: unknown) {
  const prepared = prepareDocument(payload);
  const { xml, hash } = signXml(prepared.xml, signer);
  return { prepared, xml, hash };
}

async function pdf(xml: string, options: PrintOptions): Promise<PdfFile> {
  return new PdfFile(await printDocument(xml, options));
}

describe('printed representation (documents/printed): PDF read back with mupdf and jsQR', function () {
  this.timeout(60_000);
  before(async () => {
    await loadPdfReader();
    signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));
  });

  it('A4 factura: the QR holds SUNAT content field by field, the text holds number, RUC, totals and the amount in words', async () => {
    const { prepared, xml, hash } = signed(fixture('invoice-complete.json'));
    const file = await pdf(xml, { format: 'a4' });
    const [qr, ...others] = file.qr();
    expect(others).to.deep.equal([]);
    expect(qr.split('|')).to.deep.equal([
      '20123456786',
      '01',
      'F001',
      '245',
      prepared.totals!['TaxAmount.1000'],
      prepared.totals!.PayableAmount,
      '2024-03-15',
      '6',
      '20600000005',
      hash,
      '',
    ]);
    const text = file.text();
    expect(text).to.contain('REPRESENTACIÓN IMPRESA DE LA FACTURA ELECTRÓNICA');
    expect(text).to.contain('R.U.C. 20123456786').and.contain('F001-245').and.contain('Comercial Andina S.A.C.');
    expect(text).to.contain('Distribuidora del Sur S.A.').and.contain('20600000005');
    expect(text).to.match(/Importe total\s+S\/ 2,798\.84/);
    expect(text).to.match(/IGV 18 %\s+S\/ 417\.64/);
    expect(text).to.match(/Op\. gravadas\s+S\/ 2,320\.20/);
    expect(text).to.match(/Op\. exoneradas\s+S\/ 80\.00/);
    expect(text).to.match(/ICBPER\s+S\/ 1\.00/);
    expect(text).to.match(/Op\. gratuitas\s+S\/ 30\.00/);
    expect(text).to.match(/Descuentos\s+S\/ 270\.00/);
    expect(text).to.contain(amountInWords(new Decimal(prepared.totals!.PayableAmount), 'PEN'));
    expect(text).to.contain('SON DOS MIL SETECIENTOS NOVENTA Y OCHO CON 84/100 SOLES');
    expect(text).to.contain(`Valor resumen (hash): ${hash}`);
    expect(text).to.contain(CHECK_PAGE);
    // Credit sale: the pending amount and each instalment with its date.
    expect(text).to.contain('Forma de pago: Crédito');
    expect(text).to.match(/Cuota 1:\s+S\/ 1,500\.00, vence 15\/04\/2024/);
    expect(text).to.match(/Cuota 2:\s+S\/ 1,298\.84, vence 15\/05\/2024/);
    expect(text).to.contain('Página 1 de 1');
    expect(file.fonts().length).to.equal(2);
    for (const font of file.fonts()) {
      expect(font.embedded, font.name).to.equal(true);
      expect(font.name).to.match(/\+NotoSans-(Regular|Bold)$/);
    }
    expect(file.pageSize().width).to.be.closeTo(595.28, 0.01);
    expect(file.pageSize().height).to.be.closeTo(841.89, 0.01);
  });

  it('ticket: 80 mm wide, as tall as its content, with the same QR and totals', async () => {
    const { prepared, xml, hash } = signed(fixture('invoice-complete.json'));
    const file = await pdf(xml, { format: 'ticket' });
    const { width, height } = file.pageSize();
    expect(width).to.be.closeTo(226.77, 0.01);
    expect(height).to.be.within(300, 1400);
    expect(file.pages()).to.equal(1);
    expect(file.qr()).to.have.length(1);
    expect(file.qr()[0].split('|')[9]).to.equal(hash);
    expect(file.qr()[0].split('|')[5]).to.equal(prepared.totals!.PayableAmount);
    const text = file.text();
    expect(text).to.contain('F001-245').and.contain('RUC 20123456786').and.contain('S/ 2,798.84');
    expect(text).to.contain('REPRESENTACIÓN IMPRESA DE LA FACTURA ELECTRÓNICA');
    expect(text.replace(/\s+/g, ' ')).to.contain('SON DOS MIL SETECIENTOS NOVENTA Y OCHO CON 84/100 SOLES');
  });

  it('the same document gives the same bytes; another document other bytes', async () => {
    const { xml } = signed(fixture('invoice-complete.json'));
    for (const format of ['a4', 'ticket'] as const) {
      const [a, b] = [await printDocument(xml, { format }), await printDocument(xml, { format })];
      expect(a.equals(b), format).to.equal(true);
    }
    const other = signed(fixture('invoice-basic.json'));
    expect(
      (await printDocument(xml, { format: 'a4' })).equals(await printDocument(other.xml, { format: 'a4' })),
    ).to.equal(false);
  });

  it('writes Spanish text exactly (á é í ó ú ñ Ñ ° « ») in both formats', async () => {
    const payload = fixture('invoice-basic.json');
    payload.items[0].descripcion = 'Piñata «Ñandú» 30° ángulo: él, aquí, útil';
    const { xml } = signed(payload);
    for (const format of ['a4', 'ticket'] as const) {
      expect((await pdf(xml, { format })).text().replace(/\s+/g, ' '), format).to.contain(
        'Piñata «Ñandú» 30° ángulo: él, aquí, útil',
      );
    }
  });

  it('a 300-line factura paginates: header and column titles on every page, "Página x de y", totals on the last page', async () => {
    const { prepared, xml } = signed(invoicePayload(300, { correlativo: '300' }));
    const file = await pdf(xml, { format: 'a4' });
    const pages = file.pages();
    expect(pages).to.be.greaterThan(3);
    const total = `S/ ${prepared.totals!.PayableAmount.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
    let lines = 0;
    for (let page = 1; page <= pages; page++) {
      const text = file.text(page);
      expect(text, `page ${page}`)
        .to.contain('R.U.C. 20123456786')
        .and.contain('F001-300')
        .and.contain(`Página ${page} de ${pages}`);
      const onPage = (text.match(/Producto de prueba número \d+/g) ?? []).length;
      // Column titles over every page with lines (the closing block may start a page of its own).
      if (onPage) expect(text, `page ${page}`).to.match(/Cant\.\s+Unid\.\s+Código\s+Descripción/);
      lines += onPage;
      if (page < pages) expect(text, `page ${page}`).to.not.contain('Importe total');
    }
    expect(lines, 'every line printed once').to.equal(300);
    const last = file.text(pages);
    expect(last).to.match(new RegExp(`Importe total\\s+${total.replace(/[/.]/g, '\\$&')}`));
    expect(last).to.contain(amountInWords(new Decimal(prepared.totals!.PayableAmount), 'PEN'));
    expect(file.qr(pages)).to.have.length(1);
  });

  it('taxes by kind: every amount row is the signed total of its kind (ISC, IGV, IVAP, exoneradas, inafectas, exportación, other charges)', async () => {
    const money = (currency: string, value: string) =>
      `${currency === 'PEN' ? 'S/' : currency} ${value.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
    const cases: [string, string, (t: Record<string, string>) => string][] = [
      ['invoice-isc-al-valor.json', 'ISC', (t) => t['TaxAmount.2000']],
      ['invoice-isc-al-valor.json', 'IGV 18 %', (t) => t['TaxAmount.1000']],
      ['invoice-igv-17-ivap.json', 'IVAP', (t) => t['TaxAmount.1016']],
      ['invoice-igv-17-ivap.json', 'Op. gravadas IVAP', (t) => t.LineExtensionAmount],
      ['invoice-igv-20-exonerado.json', 'Op. exoneradas', (t) => t.LineExtensionAmount],
      ['invoice-igv-30-inafecto.json', 'Op. inafectas', (t) => t.LineExtensionAmount],
      ['invoice-igv-40-exportacion.json', 'Op. exportación', (t) => t.LineExtensionAmount],
      ['invoice-charge-global.json', 'Otros cargos', (t) => t.ChargeTotalAmount],
    ];
    for (const [name, label, expected] of cases) {
      const { prepared, xml } = signed(fixture(name));
      const currency = xml.includes('>USD</cbc:DocumentCurrencyCode>') ? 'USD' : 'PEN';
      const row = readPrinted(xml, { format: 'a4' }).amounts.find((a) => a.label === label);
      expect(row, `${name}: ${label}`).to.not.equal(undefined);
      expect(row!.value, `${name}: ${label}`).to.equal(money(currency, expected(prepared.totals!)));
      const text = (await pdf(xml, { format: 'a4' })).text();
      expect(text, name).to.match(
        new RegExp(`${label.replace(/[.%]/g, '\\$&')}\\s+${row!.value.replace(/[/.$]/g, '\\$&')}`),
      );
      expect(text, name).to.contain(`Importe total`).and.contain(money(currency, prepared.totals!.PayableAmount));
    }
  });

  it('prints the amount in words in every currency chasqui issues in (PEN, USD)', async () => {
    for (const [name, currency, words] of [
      ['invoice-basic.json', 'PEN', 'SOLES'],
      ['invoice-usd.json', 'USD', 'DÓLARES AMERICANOS'],
      ['receipt-usd.json', 'USD', 'DÓLARES AMERICANOS'],
    ] as const) {
      const { prepared, xml } = signed(fixture(name));
      const text = (await pdf(xml, { format: 'a4' })).text();
      const expected = amountInWords(new Decimal(prepared.totals!.PayableAmount), currency);
      expect(expected, name).to.match(new RegExp(`${words}$`));
      expect(text, name).to.contain(expected);
      if (currency === 'USD') expect(text, name).to.contain(`USD ${prepared.totals!.PayableAmount}`);
    }
  });

  it('boleta: its own title, and the QR carries the customer document as signed', async () => {
    const { xml, prepared } = signed(fixture('receipt-basic.json'));
    const file = await pdf(xml, { format: 'ticket' });
    expect(file.text()).to.contain('BOLETA DE VENTA ELECTRÓNICA');
    const fields = file.qr()[0].split('|');
    expect(fields.slice(0, 2)).to.deep.equal(['20123456786', '03']);
    expect(`${fields[2]}-${fields[3]}`).to.equal(prepared.filename.split('-').slice(2).join('-'));
  });

  it('detracción: legend, code, rate, amount and the Banco de la Nación account', async () => {
    const { xml } = signed(fixture('invoice-detraccion-credito.json'));
    const text = (await pdf(xml, { format: 'a4' })).text();
    expect(text).to.contain('OPERACIÓN SUJETA A DETRACCIÓN');
    expect(text).to.contain('Operación sujeta al Sistema de Pago de Obligaciones Tributarias');
    expect(text).to.match(/Cuenta en el Banco de la Nación:\s+00-000-123456/);
    expect(text).to.match(/Porcentaje:\s+12 %/);
    expect(text).to.match(/Monto de la detracción:\s+S\/ 354\.00/);
    expect(text).to.match(/Bien o servicio \(catálogo 54\):\s+037/);
  });

  it('percepción (operation 2001, when a document carries it): regime, base, amount and the total with it', () => {
    const { xml } = signed(fixture('invoice-basic.json'));
    // The XML shape SUNAT asks for (charge 51 and PaymentTerms "Percepcion"); the builder for 2001 is another issue's.
    const edited = xml
      .replace(
        '<cac:TaxTotal>',
        '<cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>51</cbc:AllowanceChargeReasonCode>' +
          '<cbc:MultiplierFactorNumeric>0.02</cbc:MultiplierFactorNumeric><cbc:Amount currencyID="PEN">2.36</cbc:Amount><cbc:BaseAmount currencyID="PEN">118.00</cbc:BaseAmount></cac:AllowanceCharge><cac:TaxTotal>',
      )
      .replace(
        '<cac:PaymentTerms>',
        '<cac:PaymentTerms><cbc:ID>Percepcion</cbc:ID><cbc:Amount currencyID="PEN">120.36</cbc:Amount></cac:PaymentTerms><cac:PaymentTerms>',
      );
    const section = readPrinted(edited, { format: 'a4' }).sections.find(
      (s) => s.title === 'Operación sujeta a percepción',
    );
    expect(section?.facts).to.deep.equal([
      { label: 'Régimen (catálogo 53)', value: '51' },
      { label: 'Base imponible', value: 'S/ 118.00' },
      { label: 'Monto de la percepción', value: 'S/ 2.36' },
      { label: 'Total incluida la percepción', value: 'S/ 120.36' },
    ]);
  });

  it('liquidación de compra with income tax withheld: the withholding is a row of its own before the total it reduces', async () => {
    const { xml, prepared } = signed(fixture('liquidacion-compra-renta.json'));
    const rows = readPrinted(xml, { format: 'a4' }).amounts.map((r) => `${r.label}: ${r.value}`);
    expect(rows.slice(-3)).to.deep.equal([
      'IGV 18 %: S/ 951.01',
      'Renta retenida: S/ 84.22',
      'Importe total: S/ 5,199.14',
    ]);
    expect(prepared.totals!.PayableAmount).to.equal('5199.14');
    const text = (await pdf(xml, { format: 'a4' })).text();
    expect(text).to.match(/Renta retenida\s+S\/ 84\.22/);
    // Issued by the buyer: the company heads the page and the QR, the seller is the counterpart.
    const printed = readPrinted(xml, { format: 'a4' });
    expect(printed.issuer.idNumber).to.equal('20123456786');
    expect(printed.counterpart).to.deep.include({ label: 'Vendedor' });
    expect(printed.counterpart!.party.idNumber).to.equal('40123456');
    expect(text).to.contain('R.U.C. 20123456786').and.contain('Teodoro Mamani Quispe');
    expect(printed.qr).to.deep.include({ kind: 'content' });
    expect((printed.qr as { text: string }).text).to.match(/^20123456786\|04\|.*\|1\|40123456\|/);
  });

  it('credit note: its title and the document it modifies with the reason', async () => {
    const { xml } = signed(fixture('credit-note-01.json'));
    const text = (await pdf(xml, { format: 'a4' })).text();
    expect(text).to.contain('NOTA DE CRÉDITO ELECTRÓNICA').and.contain('FC01-1');
    expect(text).to.contain('Documento que modifica');
    expect(text).to.match(/FACTURA ELECTRÓNICA:\s+F001-1/);
    expect(text).to.match(/Motivo:\s+01 Anulación de la operación/);
  });

  it('prepayments (anticipos) and their document', async () => {
    const { xml } = signed(fixture('invoice-anticipo.json'));
    const text = (await pdf(xml, { format: 'a4' })).text();
    expect(text).to.match(/Anticipos\s+S\/ 100\.00/);
    expect(text).to.match(/F001-2:\s+S\/ 100\.00/);
    expect(text).to.match(/Importe total\s+S\/ 372\.00/);
  });

  it('marks a document that is not valid: DEMO, RECHAZADO, ANULADO', async () => {
    const { xml } = signed(fixture('invoice-basic.json'));
    const plain = (await pdf(xml, { format: 'a4' })).text();
    expect(plain).to.not.contain('DEMO').and.not.contain('RECHAZADO').and.not.contain('ANULADO');
    const marked = (await pdf(xml, { format: 'a4', marks: ['demo', 'rejected', 'voided'] })).text();
    expect(marked).to.contain('DEMO — SIN VALOR TRIBUTARIO · RECHAZADO · ANULADO');
    expect((await pdf(xml, { format: 'ticket', marks: ['voided'] })).text()).to.contain('ANULADO');
  });

  it("despatch guide 09: its own layout, and the CDR's link as the QR", async () => {
    const read = readCdrXml(fs.readFileSync(GUIDE_CDR, 'utf8'));
    if (!read.ok) throw new Error(read.reason);
    const link = read.cdr.documentLink!;
    expect(link).to.equal(
      'https://e-factura.sunat.gob.pe/v1/contribuyente/gre/comprobantes/descargaqr?hashqr=xxxxxxxxxxxxxxxxxxxxxxxxxxx',
    );
    const { xml, hash } = signed(fixture('gre-09-venta-privado.json'));
    for (const format of ['a4', 'ticket'] as const) {
      const file = await pdf(xml, { format, despatchCdr: { link } });
      expect(file.qr(), format).to.deep.equal([link]);
      const text = file.text().replace(/\s+/g, ' ');
      expect(text).to.contain('GUÍA DE REMISIÓN REMITENTE ELECTRÓNICA').and.contain('T001-102');
      expect(text).to.contain('Distribuidora Norte S.A.').and.contain('20555123451');
      expect(text).to.contain('Cemento Portland tipo I x 42.5 kg').and.contain('120.00');
      expect(text)
        .to.contain('Av. Abancay 123, Cercado de Lima (ubigeo 150101)')
        .and.contain('Calle Mercaderes 456, Arequipa');
      expect(text)
        .to.contain('01 Venta')
        .and.contain('Transporte privado')
        .and.contain('5340.50 KGM')
        .and.contain('ABC123');
      expect(text).to.contain('Jorge Luis Quispe Mamani');
      expect(text).to.contain(hash);
      expect(text).to.not.contain('Importe total');
    }
  });

  it('despatch guide by public transport: the date the goods were handed to the carrier; foreign goods: port, containers and indicators', async () => {
    const publicGuide = fixture('gre-09-venta-publico.json');
    // A handover date of its own (neither the issue date nor the start of the transfer), so the PDF shows which is which.
    publicGuide.envio.fechaInicio = '2025-03-12';
    publicGuide.envio.fechaEntregaTransportista = '2025-03-11';
    for (const format of ['a4', 'ticket'] as const) {
      const text = (await pdf(signed(publicGuide).xml, { format, despatchCdr: null })).text().replace(/\s+/g, ' ');
      // On A4 the label wraps in its column, so the extracted text may put the value inside it.
      expect(text, format)
        .to.match(/Entrega al (11\/03\/2025 )?transportista:( 11\/03\/2025)?/)
        .and.contain(formatDate('2025-03-11'));
      expect(text, format).to.contain(`Inicio del traslado: ${formatDate('2025-03-12')}`);
    }
    const text = (
      await pdf(signed(fixture('gre-09-mercancia-extranjera-contenedores.json')).xml, {
        format: 'a4',
        despatchCdr: null,
      })
    )
      .text()
      .replace(/\s+/g, ' ');
    expect(text).to.contain('19 Traslado de mercancía extranjera').and.contain('Puerto: CLL - Callao');
    expect(text).to.contain('Contenedores: MSKU1234565 precinto ML1234567, TGHU7654321 precinto ML7654321');
    expect(text).to.contain('Traslado de contenedores del manifiesto de carga').and.contain('Manifiesto de carga (MC)');
  });

  it('despatch guide without its CDR: no QR, the PDF says it is pending (or, with a CDR without link, says so)', async () => {
    const { xml } = signed(fixture('gre-31-basico.json'));
    const without = await pdf(xml, { format: 'a4', despatchCdr: { link: null } });
    expect(without.qr()).to.deep.equal([]);
    expect(without.text().replace(/\s+/g, ' ')).to.contain(
      'La constancia de SUNAT (CDR) de esta guía no trae el enlace del código QR',
    );
    const file = await pdf(xml, { format: 'a4', despatchCdr: null });
    expect(file.qr()).to.deep.equal([]);
    const text = file.text();
    expect(text).to.contain('GUÍA DE REMISIÓN TRANSPORTISTA ELECTRÓNICA');
    expect(text).to.match(/Registro MTC:\s+0001234567/);
    expect(text).to.contain('Pagador del flete: remitente').and.not.contain('SUNAT_Envio');
    expect(text.replace(/\s+/g, ' ')).to.contain('Guía pendiente de la constancia de SUNAT (CDR)');
  });

  it('reads amounts from the XML as signed: what the document says, not a recomputation', () => {
    const { xml } = signed(fixture('invoice-basic.json'));
    // Change the signed payable amount: the printed total follows the XML, not the lines.
    const edited = xml.replace(/(<cbc:PayableAmount currencyID="PEN">)[^<]+/, '$11234567.89');
    const printed = readPrinted(edited, { format: 'a4' });
    expect(printed.amounts.at(-1)).to.deep.equal({ label: 'Importe total', value: 'S/ 1,234,567.89', strong: true });
    expect(printed.qr.text.split('|')[5]).to.equal('1234567.89');
  });

  it('embeds the logo, and refuses images it could not print', async () => {
    const logo = png(120, 40);
    expect(validateLogo(logo, 'image/png', 256 * 1024)).to.deep.equal({
      ok: true,
      type: 'image/png',
      width: 120,
      height: 40,
    });
    const { xml } = signed(fixture('invoice-basic.json'));
    expect((await pdf(xml, { format: 'a4', logo })).images()).to.equal(1);
    expect((await pdf(xml, { format: 'ticket', logo })).images()).to.equal(1);
    expect((await pdf(xml, { format: 'a4' })).images()).to.equal(0);

    const reason = (bytes: Buffer, type = 'image/png', max = 256 * 1024) => {
      const check = validateLogo(bytes, type, max);
      return check.ok ? null : check.reason;
    };
    expect(reason(png(10, 10, true))).to.equal("the PNG's IDAT chunk is corrupt (CRC)");
    expect(reason(logo.subarray(0, logo.length - 20))).to.contain('truncated');
    expect(reason(logo, 'image/jpeg')).to.equal('the image is a image/png, not the image/jpeg its Content-Type says');
    expect(reason(Buffer.from('GIF89a....'), 'image/png')).to.equal('the image is neither PNG nor JPEG');
    expect(reason(logo, 'image/png', 100)).to.equal('the image is larger than 100 bytes');
    expect(reason(png(2001, 1))).to.equal('the image is 2001×1 px; at most 2000 px a side');
    expect(reason(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]), 'image/jpeg')).to.contain(
      'no frame header',
    );
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x40, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff,
      0xd9,
    ]);
    expect(validateLogo(jpeg, 'image/jpeg', 1024)).to.deep.equal({
      ok: true,
      type: 'image/jpeg',
      width: 64,
      height: 32,
    });
  });
});
