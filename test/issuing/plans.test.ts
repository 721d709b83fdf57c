import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  accountBalances,
  documentCount,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
} from './support';
import { findDocument } from '../../db/documents';
import { insertCertificate, findCertificate } from '../../db/certificates';
import { updateCompany } from '../../db/companies';
import {
  createSigner,
  generateTestCertificate,
  signXml,
  verifyXmlSignature,
  type TestCertificate,
} from '../../documents/signing';
import { prepareDocument } from '../../documents';
import { certificatesCommand } from '../../cli/commands/certificates';
import { accountsCommand } from '../../cli/commands/accounts';
import type { TestStack } from '../support/stack';

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } },
  };
}

async function giveOwnCertificate(
  stack: TestStack,
  companyId: string,
  accountId: string,
  certificate: TestCertificate,
  notAfter?: Date,
) {
  const row = await insertCertificate(stack.db, {
    account_id: accountId,
    origin: 'own',
    subject: 'CN=own',
    issuer: 'CN=own',
    serial_number: '01',
    ruc: null,
    not_before: new Date(Date.now() - 86_400_000),
    not_after: notAfter ?? new Date(Date.now() + 365 * 86_400_000),
    certificate_pem: certificate.certificatePem,
    private_key_sealed: stack.secrets.seal(certificate.privateKeyPem),
  });
  await updateCompany(stack.db, companyId, { certificate_id: row.id });
  return row;
}

const certificateOf = (base64Xml: string) => verifyXmlSignature(Buffer.from(base64Xml, 'base64').toString('utf8'));
const pem64 = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

describe('plans and quota (POST /v1/cpe in production)', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack();
    stack = env.stack;
  });
  after(() => env?.stop());

  it('plan 01: one signature per issue, the same bytes again are a replay that consumes nothing; no quota is a 402 before signing', async () => {
    const company = await newCompany(stack, { environment: '02', quota: 2 });
    const body = payload('invoice-basic.json', company.ruc);
    const first = await issue(stack, company.token, body);
    const again = await issue(stack, company.token, body);
    const second = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
    expect([first.status, again.status, second.status]).to.deep.equal([202, 202, 202]);
    expect(first.body.environment_name).to.equal('production');
    expect(again.body.external_id).to.equal(first.body.external_id);
    expect(second.body.external_id).to.not.equal(first.body.external_id);
    expect(await accountBalances(stack, company.accountId)).to.deep.equal({ quota: 0, osePackage: 0 });
    const row = (await stack.db('companies').where({ id: company.row.id }).first())!;
    expect(row.production_documents).to.equal(2);

    const blocked = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(blocked.status).to.equal(402);
    expect(blocked.body).to.deep.equal({ success: false, message: blocked.body.message });
    expect(blocked.body.message).to.match(/limit of signatures/);
    expect(await documentCount(stack, company.row.id)).to.equal(2);
  });

  it('N concurrent issues against a quota of N−1 give exactly one 402', async () => {
    const n = 6;
    const company = await newCompany(stack, { environment: '02', quota: n - 1 });
    const answers = await Promise.all(
      Array.from({ length: n }, () => issue(stack, company.token, payload('invoice-basic.json', company.ruc))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).to.deep.equal([...Array(n - 1).fill(202), 402]);
    expect((await accountBalances(stack, company.accountId)).quota).to.equal(0);
    expect(await documentCount(stack, company.row.id)).to.equal(n - 1);
  });

  it('demo consumes and blocks nothing', async () => {
    const company = await newCompany(stack, { quota: 0, plan: '02' });
    const res = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(res.status).to.equal(202);
    expect(await accountBalances(stack, company.accountId)).to.deep.equal({ quota: 0, osePackage: 0 });
    expect((await stack.db('companies').where({ id: company.row.id }).first()).production_documents).to.equal(0);
  });

  it('own certificate: signs with the company key and consumes CHASQUI_OWN_CERTIFICATE_UNITS (half a signature)', async () => {
    const company = await newCompany(stack, { environment: '02', quota: 2 });
    const own = generateTestCertificate({ ruc: company.ruc });
    await giveOwnCertificate(stack, company.row.id, company.accountId, own);
    const res = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(certificateOf(res.body.xml).certificateBase64).to.equal(pem64(own.certificatePem));
    expect((await findDocument(stack.db, res.body.external_id))!.signed_by).to.equal('own_certificate');
    expect((await accountBalances(stack, company.accountId)).quota).to.equal(1.5);
  });

  it('a certificate past its X.509 expiry is a 402 naming the date', async () => {
    const company = await newCompany(stack, { environment: '02', quota: 2 });
    await giveOwnCertificate(
      stack,
      company.row.id,
      company.accountId,
      generateTestCertificate(),
      new Date('2025-03-31T12:00:00Z'),
    );
    const res = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(res.status).to.equal(402);
    expect(res.body.message).to.contain('expired on 2025-03-31');
  });

  it('provider OSE: a provider-signed document consumes a signature and one send of the OSE package (402 when used up)', async () => {
    const company = await newCompany(stack, { environment: '02', quota: 3, settings: { destination: 'provider_ose' } });
    await stack.db('accounts').where({ id: company.accountId }).update({ ose_package_units: 1 });
    expect((await issue(stack, company.token, payload('invoice-basic.json', company.ruc))).status).to.equal(202);
    expect(await accountBalances(stack, company.accountId)).to.deep.equal({ quota: 2, osePackage: 0 });
    const blocked = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(blocked.status).to.equal(402);
    expect(blocked.body.message).to.contain('OSE sending package');

    const cli = io();
    expect(
      await accountsCommand(['ose-package', '--account', company.accountId, '--add', '3'], stack, cli.io),
    ).to.equal(0);
    expect(cli.out.stdout).to.contain('OSE sending package 3');
    expect((await issue(stack, company.token, payload('invoice-basic.json', company.ruc))).status).to.equal(202);
  });

  describe('plan 02 and chasqui certificates assign', () => {
    let pfxFile: string;
    let provider: TestCertificate;
    before(() => {
      provider = generateTestCertificate({ commonName: 'PROVIDER PLAN 02' });
      pfxFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-plan02-')), 'assigned.pfx');
      fs.writeFileSync(pfxFile, provider.pfx('secret'));
    });

    it('402 without an assigned certificate; once assigned it signs, its validity starts at the first production signature and ends after CHASQUI_PLAN02_VALIDITY_DAYS', async () => {
      const company = await newCompany(stack, { environment: '02', plan: '02' });
      const none = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
      expect(none.status).to.equal(402);
      expect(none.body.message).to.contain('no certificate assigned');

      const cli = io();
      const code = await certificatesCommand(
        ['assign', '--company', company.ruc, '--pfx', pfxFile, '--password', 'secret'],
        stack,
        cli.io,
      );
      expect(code, cli.out.stderr).to.equal(0);
      expect(cli.out.stdout).to.contain(`assigned to company ${company.ruc}`);
      const assigned = (await stack.db('companies').where({ id: company.row.id }).first()).certificate_id as string;
      expect((await findCertificate(stack.db, assigned))!).to.include({ origin: 'provider', first_used_at: null });

      const res = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(certificateOf(res.body.xml).certificateBase64).to.equal(pem64(provider.certificatePem));
      expect((await findDocument(stack.db, res.body.external_id))!.signed_by).to.equal('provider_certificate');
      const firstUse = (await findCertificate(stack.db, assigned))!.first_used_at!;
      expect(Date.now() - firstUse.getTime()).to.be.within(0, 30_000);
      expect((await accountBalances(stack, company.accountId)).quota, 'plan 02 has no per-signature quota').to.equal(0);

      const started = new Date('2025-01-10T15:00:00Z');
      await stack.db('certificates').where({ id: assigned }).update({ first_used_at: started });
      const expired = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
      expect(expired.status).to.equal(402);
      expect(expired.body.message).to.contain('expired on 2026-01-10');
    });

    it('a demo company with an assigned certificate does not start its validity', async () => {
      const company = await newCompany(stack, { plan: '02' });
      expect(
        await certificatesCommand(
          [
            'assign',
            '--company',
            company.ruc,
            '--pfx',
            pfxFile,
            '--password',
            'secret',
            '--account',
            company.accountId,
          ],
          stack,
          io().io,
        ),
      ).to.equal(0);
      expect((await issue(stack, company.token, payload('invoice-basic.json', company.ruc))).status).to.equal(202);
      const assigned = (await stack.db('companies').where({ id: company.row.id }).first()).certificate_id as string;
      expect((await findCertificate(stack.db, assigned))!.first_used_at).to.equal(null);
    });

    it('the command refuses a wrong password, an unknown company and incomplete arguments', async () => {
      const company = await newCompany(stack, { plan: '02' });
      const wrong = io();
      expect(
        await certificatesCommand(
          ['assign', '--company', company.ruc, '--pfx', pfxFile, '--password', 'nope'],
          stack,
          wrong.io,
        ),
      ).to.equal(1);
      expect(wrong.out.stderr).to.contain('password');
      expect(
        await certificatesCommand(
          ['assign', '--company', '20000000001', '--pfx', pfxFile, '--password', 'secret'],
          stack,
          io().io,
        ),
      ).to.equal(1);
      const usage = io();
      expect(await certificatesCommand(['assign', '--company', company.ruc], stack, usage.io)).to.equal(2);
      expect(usage.out.stderr).to.contain('usage:');
    });
  });

  describe('external signing (company signing external, destination provider_ose)', () => {
    const own = generateTestCertificate();
    const signer = createSigner(own);
    const signedXml = (ruc: string) => signXml(prepareDocument(payload('invoice-basic.json', ruc)).xml, signer);
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

    it("accepts the issuer's signed XML as is (no new signature), consumes only the OSE package, and delivers it", async () => {
      const company = await newCompany(stack, {
        environment: '02',
        settings: { destination: 'provider_ose', signing: 'external' },
      });
      await stack.db('accounts').where({ id: company.accountId }).update({ ose_package_units: 2 });
      const signed = signedXml(company.ruc);
      const res = await issue(stack, company.token, { xml: b64(signed.xml) });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ status: 'queued', hash: signed.hash });
      expect(Buffer.from(res.body.xml, 'base64').toString('utf8')).to.equal(signed.xml);
      const row = (await findDocument(stack.db, res.body.external_id))!;
      expect(row).to.include({
        signed_by: 'external',
        destination: 'provider_ose',
        doc_type: '01',
        series: 'F001',
        xml: signed.xml,
      });
      expect(row.filename).to.equal(`${company.ruc}-01-F001-${row.number}`);
      expect(await accountBalances(stack, company.accountId)).to.deep.equal({ quota: 0, osePackage: 1 });
      expect((await until(stack, row.id, ['accepted', 'observed', 'rejected'])).status).to.equal('accepted');
    });

    it("refuses unsigned, tampered, malformed or another issuer's XML, and JSON documents, with the 7.2 body", async () => {
      const company = await newCompany(stack, { settings: { destination: 'provider_ose', signing: 'external' } });
      const signed = signedXml(company.ruc);
      const cases: [string, unknown, string][] = [
        ['unsigned', { xml: b64(prepareDocument(payload('invoice-basic.json', company.ruc)).xml) }, 'BR_XML_SIGNATURE'],
        ['tampered', { xml: b64(signed.xml.replace('Caja de clavos', 'Caja de tornillos')) }, 'BR_XML_SIGNATURE'],
        ['malformed', { xml: b64(signed.xml.slice(0, -20)) }, 'BR_XML_MALFORMED'],
        ['other issuer', { xml: b64(signedXml('20100066603').xml) }, 'BR_ISSUER_MISMATCH'],
      ];
      for (const [name, body, code] of cases) {
        const res = await issue(stack, company.token, body);
        expect(res.status, name).to.equal(422);
        expect(res.body, name).to.include({ origin: 'validation', action: 'correct', reached_sunat: false });
        expect(res.body.errors.join(' '), name).to.contain(code);
      }
      const json = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
      expect(json.status).to.equal(422);
      expect(json.body.errors).to.have.property('xml');
      expect(await documentCount(stack, company.row.id)).to.equal(0);
    });
  });
});
