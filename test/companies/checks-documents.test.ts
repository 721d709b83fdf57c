import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { newCompany } from '../issuing/support';
import { call } from './helpers';
import { generateTestCertificate, createSigner } from '../../documents/signing';
import { limaDate } from '../../core/lima';
import { addDays } from '../../documents/calendar';
import { commitSignedDocument } from '../support/documents';
import { payload } from '../issuing/support';
import { ChecksStack } from './checks-support';

/** Issue 26: the checks of what the company signs and issues: its certificate, its series, its sending window, coming rules. */
describe('company checks: certificate and documents', function () {
  this.timeout(120_000);
  const suite = ChecksStack.use();

  describe('certificate', () => {
    it('warns with days_left 10 for a certificate expiring in 10 days', async () => {
      const company = await newCompany(suite.env.stack);
      const pfx = generateTestCertificate({ ruc: company.ruc, notAfter: new Date(Date.now() + 10 * 86_400_000) }).pfx(
        'clave',
      );
      const boundary = `----chasqui${randomBytes(8).toString('hex')}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="c.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
        ),
        pfx,
        Buffer.from(
          `\r\n--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nclave\r\n--${boundary}--\r\n`,
        ),
      ]);
      const upload = await call(suite.env.stack, 'POST', `/v1/companies/${company.ruc}/certificate`, {
        token: company.accountToken,
        body,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(upload.status, JSON.stringify(upload.body)).to.equal(201);
      const checks = await suite.runChecks(company);
      expect(checks.certificate).to.include({ status: 'warn', days_left: 10, origin: 'own' });
      expect(checks.certificate.detail).to.contain('expires in 10 days');
    });
  });

  describe('series_gaps', () => {
    it('lists the numbers missing between the lowest and highest of each series; rejected numbers count as used', async () => {
      const company = await newCompany(suite.env.stack);
      const today = limaDate(new Date());
      for (const n of [1, 2, 3]) await suite.documentRow(company, 'F001', n, today);
      await suite.documentRow(company, 'F002', 10, today);
      await suite.documentRow(company, 'F002', 11, today, 'rejected');
      await suite.documentRow(company, 'F002', 14, today);
      await suite.documentRow(company, 'F002', 16, today);
      const checks = await suite.runChecks(company);
      expect(checks.series_gaps.status).to.equal('warn');
      expect(checks.series_gaps.gaps).to.deep.equal([
        {
          doc_type: '01',
          series: 'F002',
          lowest: 10,
          highest: 16,
          missing_count: 3,
          missing: ['F002-12', 'F002-13', 'F002-15'],
        },
      ]);

      const clean = await newCompany(suite.env.stack);
      for (const n of [5, 6, 7]) await suite.documentRow(clean, 'F001', n, today);
      const cleanChecks = await suite.runChecks(clean);
      expect(cleanChecks.series_gaps.status).to.equal('ok');
      expect(cleanChecks.series_gaps.gaps).to.deep.equal([]);
    });
  });

  describe('sending_window', () => {
    it('warns for a document whose window closes within 24 h and fails for one past it, with their numbers', async () => {
      const company = await newCompany(suite.env.stack);
      const today = limaDate(new Date());
      await suite.documentRow(company, 'F001', 1, addDays(today, -3), 'to_send');
      const closing = await suite.runChecks(company);
      expect(closing.sending_window.status).to.equal('warn');
      expect(closing.sending_window.closing.map((d: any) => d.number)).to.deep.equal(['F001-1']);
      expect(closing.sending_window.detail).to.contain('F001-1');

      await suite.documentRow(company, 'F001', 2, addDays(today, -4), 'queued');
      const closed = await suite.runChecks(company);
      expect(closed.sending_window.status).to.equal('fail');
      expect(closed.sending_window.closed.map((d: any) => d.number)).to.deep.equal(['F001-2']);

      const calm = await newCompany(suite.env.stack);
      await suite.documentRow(calm, 'F001', 1, today, 'to_send');
      await suite.documentRow(calm, 'F001', 2, addDays(today, -5), 'accepted');
      expect((await suite.runChecks(calm)).sending_window.status).to.equal('ok');
    });
  });

  describe('rule_readiness', () => {
    it('warns with the code and the date when recent documents would fail a rule starting soon', async () => {
      const company = await newCompany(suite.env.stack);
      const signer = createSigner(generateTestCertificate({ ruc: company.ruc }));
      // An invoice of today whose line carries a SUNAT product code that catalog 25 does not list (observed today).
      const invoice = payload('invoice-basic.json', company.ruc, { fechaEmision: limaDate(new Date()) });
      for (const item of invoice.items) item.codigoSunat = '12345678';
      const doc = await commitSignedDocument(suite.env.stack.db, company.row, invoice, signer, { status: 'accepted' });
      const checks = await suite.runChecks(company);
      expect(checks.rule_readiness.status).to.equal('warn');
      const rule = checks.rule_readiness.rules.find((r: any) => r.rule === 'product-code-valid');
      expect(rule).to.include({ effective: suite.ruleDate, documents_checked: 1, would_fail: 1 });
      expect(rule.examples[0]).to.include({ number: `${doc.series}-${doc.number}`, code: '3496' });
      expect(checks.rule_readiness.detail).to.contain(
        `would fail product-code-valid from ${suite.ruleDate} (SUNAT 3496)`,
      );

      const quiet = await newCompany(suite.env.stack);
      const calm = await suite.runChecks(quiet);
      expect(calm.rule_readiness.status).to.equal('ok');
      expect(calm.rule_readiness.rules.map((r: any) => r.would_fail)).to.satisfy((counts: number[]) =>
        counts.every((n) => n === 0),
      );
    });
  });
});
