import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import got from 'got';
import { issue, newCompany, payload, startIssuingStack, type IssuingStack } from '../issuing/support';
import { contentDisposition, downloadName } from '../../core/download-name';
import { composeBuyerEmail } from '../../buyers/mail';
import { findDocument } from '../../db/documents';

/** Names a stored row could carry if anything upstream ever let them through. */
const HOSTILE_NAMES = [
  'a"b',
  'x\r\nSet-Cookie: chasqui_console=robado',
  'x\nX-Injected: 1',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  'C:\\x',
  '/etc/passwd',
  'factura;filename=otro.exe',
  'ñandú',
  '',
  '.hidden',
  'x'.repeat(500),
];

describe('security: file names in downloads and e-mail attachments', function () {
  this.timeout(60_000);

  it('a name passes only as letters, digits, - and _; anything else becomes documento, in both RFC 6266 forms', () => {
    expect(downloadName('20123456786-01-F001-1', '.xml')).to.equal('20123456786-01-F001-1.xml');
    expect(contentDisposition('attachment', '20123456786-01-F001-1', '-ticket.pdf')).to.equal(
      `attachment; filename="20123456786-01-F001-1-ticket.pdf"; filename*=UTF-8''20123456786-01-F001-1-ticket.pdf`,
    );
    for (const name of HOSTILE_NAMES) {
      expect(downloadName(name, '.xml'), JSON.stringify(name)).to.equal('documento.xml');
      const header = contentDisposition('inline', name, '.pdf');
      expect(header, JSON.stringify(name)).to.equal(`inline; filename="documento.pdf"; filename*=UTF-8''documento.pdf`);
    }
  });

  describe('served and mailed', () => {
    let env: IssuingStack;
    before(async function () {
      this.timeout(120_000);
      env = await startIssuingStack({}, { worker: false });
    });
    after(() => env?.stop());

    it('a stored row with a hostile file name is served as documento.xml: no header injected, nothing else changed', async () => {
      const company = await newCompany(env.stack);
      const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
      const id = issued.body.external_id;
      const hostile = 'x"\r\nX-Injected: 1\r\n\r\n<script>../../etc/passwd';
      await env.stack.db('documents').where({ id }).update({ filename: hostile });
      for (const [file, suffix] of [
        ['xml', '.xml'],
        ['pdf', '.pdf'],
      ]) {
        const res = await got(`${env.stack.url}/v1/cpe/${id}/${file}`, {
          headers: { Authorization: `Bearer ${company.token}` },
          throwHttpErrors: false,
          retry: { limit: 0 },
        });
        expect(res.statusCode, file).to.equal(200);
        expect(res.headers['content-disposition'], file).to.equal(
          `attachment; filename="documento${suffix}"; filename*=UTF-8''documento${suffix}`,
        );
        expect(res.headers, file).to.not.have.property('x-injected');
      }
      expect((await findDocument(env.stack.db, id))!.filename).to.equal(hostile);
    });

    it("the buyer's e-mail names its attachments the same way", async () => {
      const company = await newCompany(env.stack);
      const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
      const row = (await findDocument(env.stack.db, issued.body.external_id))!;
      const message = composeBuyerEmail(
        { ...row, filename: '../x"\r\nContent-Type: text/html' },
        { ruc: company.ruc, business_name: 'Empresa' },
        { pdf: Buffer.from('%PDF-1.4'), xml: row.xml!, cdrZip: Buffer.from('PK') },
        { from: 'facturas@chasqui.test', replyTo: null, to: ['a@cliente.pe'], consultaUrl: null, ownServer: false },
      );
      const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
      const parsed = await simpleParser(built.message as Buffer);
      expect(parsed.attachments.map((a) => a.filename)).to.deep.equal([
        'documento.pdf',
        'documento.xml',
        'R-documento.zip',
      ]);
    });
  });
});
