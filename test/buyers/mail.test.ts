import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { composeBuyerEmail, formatAmount, senderFor } from '../../buyers/mail';
import { checkFileLink, signedFilePath, LINK_TTL_SECONDS } from '../../buyers/links';
import { secretBoxFrom } from '../../core/config';
import { testConfig } from '../support/services';
import type { DocumentRow } from '../../db/documents';
import { DocumentValidationError, prepareDocument } from '../../documents';
import { fixture } from '../support/documents';

/** The message and the links without a server: what reaches headers, amounts as printed, links that cannot be forged. */
describe("buyer's e-mail message and the consultation page's links", () => {
  const row = {
    id: '5b0f6a4e-3f0e-4f7e-9a55-0d7f0c2a9b11',
    doc_type: '03',
    series: 'B001',
    number: '42',
    filename: '20123456786-03-B001-42',
    issue_date: '2026-11-26',
    currency: 'PEN',
    totals: { PayableAmount: '1234567.50' },
    environment: '02',
  } as unknown as DocumentRow;

  it('keeps a company name with line breaks out of the headers, and writes amounts as a Peruvian receipt does', async () => {
    const message = composeBuyerEmail(
      row,
      { ruc: '20123456786', business_name: 'Bodega\r\nBcc: todos@otro.pe Sur' },
      { pdf: null, xml: '<Invoice/>', cdrZip: null },
      {
        from: senderFor('Facturas <facturas@chasqui.test>', 'Bodega\r\nBcc: todos@otro.pe "Sur"'),
        replyTo: null,
        to: ['a@cliente.pe'],
        consultaUrl: null,
        ownServer: false,
      },
    );
    // nodemailer's own stream transport builds the MIME message exactly as SMTP would carry it.
    const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
    const raw = built.message as Buffer;
    const parsed = await simpleParser(raw);
    expect(parsed.bcc).to.equal(undefined);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((v) => v.address) : []).to.deep.equal([
      'a@cliente.pe',
    ]);
    expect(parsed.subject).to.equal('BOLETA DE VENTA ELECTRÓNICA B001-42 de Bodega Bcc: todos@otro.pe Sur');
    expect(parsed.text).to.include('por un total de S/ 1,234,567.50.');
    expect(parsed.text).to.not.include('DEMO');
    expect(parsed.attachments.map((a) => a.filename)).to.deep.equal(['20123456786-03-B001-42.xml']);
    expect(formatAmount('118')).to.equal('118.00');
    expect(formatAmount('-0.5')).to.equal('-0.50');
  });

  it('reads destinatario.correo on guides and cliente.correo on sales documents as a list, and names the field when wrong', () => {
    const guide = fixture('gre-09-compra.json');
    guide.destinatario.correo = ' almacen@cliente.pe ';
    expect(prepareDocument(guide).buyerEmail).to.deep.equal(['almacen@cliente.pe']);
    const invoice = fixture('invoice-basic.json');
    invoice.cliente.correo = ['a@cliente.pe', 'A@cliente.pe', 'b@cliente.pe'];
    expect(prepareDocument(invoice).buyerEmail, 'a repeated address once').to.deep.equal([
      'a@cliente.pe',
      'b@cliente.pe',
    ]);
    expect(prepareDocument(fixture('invoice-basic.json')).buyerEmail).to.equal(undefined);
    guide.destinatario.correo = 'almacen@cliente.pe\nBcc: x@y.pe';
    try {
      prepareDocument(guide);
      expect.fail('accepted an address with a line break');
    } catch (err) {
      expect(err).to.be.instanceOf(DocumentValidationError);
      expect((err as DocumentValidationError).issues.map((i) => i.path)).to.deep.equal(['destinatario.correo']);
    }
  });

  it('signs a link for one document, one file and one hour: any change, or the hour passing, breaks it', () => {
    const secrets = secretBoxFrom(testConfig());
    const now = Date.UTC(2026, 10, 26, 12);
    const link = new URL(signedFilePath(secrets, row.id, 'pdf', now), 'https://chasqui.test');
    const vence = link.searchParams.get('vence')!;
    const firma = link.searchParams.get('firma')!;
    expect(Number(vence)).to.equal(now / 1000 + LINK_TTL_SECONDS);
    expect(checkFileLink(secrets, row.id, 'pdf', vence, firma, now)).to.equal(true);
    expect(checkFileLink(secrets, row.id, 'xml', vence, firma, now), 'another file').to.equal(false);
    expect(
      checkFileLink(secrets, '00000000-0000-4000-8000-000000000000', 'pdf', vence, firma, now),
      'another document',
    ).to.equal(false);
    expect(checkFileLink(secrets, row.id, 'pdf', String(Number(vence) + 60), firma, now), 'a later expiry').to.equal(
      false,
    );
    expect(
      checkFileLink(secrets, row.id, 'pdf', vence, firma, now + (LINK_TTL_SECONDS + 1) * 1000),
      'after the hour',
    ).to.equal(false);
    const otherKey = secretBoxFrom({ ...testConfig(), masterKey: randomBytes(32).toString('base64') });
    expect(checkFileLink(otherKey, row.id, 'pdf', vence, firma, now), 'another master key').to.equal(false);
  });
});
