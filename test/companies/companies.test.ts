import { expect } from 'chai';
import { startTestStack, type TestStack } from '../support/stack';
import { call, companyBody, createCompany, newAccountToken, randomRuc } from './helpers';
import { hashToken } from '../../db/tokens';

describe('company management (/v1/companies)', function () {
  let stack: TestStack;
  let token: string;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
    token = (await newAccountToken(stack)).token;
  });
  after(() => stack?.stop());

  describe('create', () => {
    it('creates a company with defaults and a signing token shown once, stored only as a hash', async () => {
      const ruc = randomRuc();
      const res = await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc) });
      expect(res.status).to.equal(201);
      expect(res.body.success).to.equal(true);
      const { company, token: signing } = res.body.data;
      expect(signing).to.match(/^chq_sig_[A-Za-z0-9_-]{43}$/);
      expect(company).to.include({
        ruc,
        plan_type: '01',
        environment: '01',
        environment_name: 'demo',
        destination: 'tax_authority',
        signing: 'provider',
      });
      expect(company).to.include({
        sending: 'automatic',
        receipts: 'individual',
        response: 'no_wait',
        certificate: null,
        webhook: null,
      });
      expect(company.tax_procedures.pse_authorization.state).to.equal('pending');
      expect(company.tax_procedures.ose_link.state).to.equal('not_applicable');
      const stored = await stack
        .db('api_tokens')
        .where({ token_hash: hashToken(signing) })
        .first();
      expect(stored.scope).to.equal('cpe:sign');
      const plainAnywhere = await stack.db('api_tokens').whereRaw('token_hash = ?', [signing]).first();
      expect(plainAnywhere).to.equal(undefined);
    });

    it('does not duplicate the same RUC in the same account and says it exists', async () => {
      const ruc = randomRuc();
      await createCompany(stack, token, ruc);
      const again = await call(stack, 'POST', '/v1/companies', {
        token,
        json: companyBody(ruc, { business_name: 'Otro nombre' }),
      });
      expect(again.status).to.equal(200);
      expect(again.body.message).to.match(/already exists/);
      expect(again.body.data.exists).to.equal(true);
      expect(again.body.data.token).to.equal(undefined);
      expect(again.body.data.company.business_name).to.equal(`Empresa ${ruc} S.A.C.`);
      const rows = await stack.db('companies').where({ ruc });
      expect(rows).to.have.length(1);
    });

    it('answers 409 for a RUC held by another account unless confirm is true', async () => {
      const ruc = randomRuc();
      await createCompany(stack, token, ruc);
      const other = (await newAccountToken(stack)).token;
      const refused = await call(stack, 'POST', '/v1/companies', { token: other, json: companyBody(ruc) });
      expect(refused.status).to.equal(409);
      expect(refused.body).to.include({ success: false });
      expect(refused.body.message).to.contain('confirm: true');
      const confirmed = await call(stack, 'POST', '/v1/companies', {
        token: other,
        json: companyBody(ruc, { confirm: true }),
      });
      expect(confirmed.status).to.equal(201);
    });

    it('reports every invalid field as errors {field: [messages]}', async () => {
      const res = await call(stack, 'POST', '/v1/companies', {
        token,
        json: { ruc: '20100066604', plan_type: '03', environment: 2, extra: true, sol_user: 'MODDATOS' },
      });
      expect(res.status).to.equal(422);
      expect(res.body.success).to.equal(false);
      expect(Object.keys(res.body.errors)).to.have.members([
        'ruc',
        'business_name',
        'plan_type',
        'environment',
        'extra',
        'body',
      ]);
      expect(res.body.errors.ruc[0]).to.contain('check digit');
      expect(res.body.errors.body[0]).to.contain('sol_password');
    });

    it('answers 422, never 500, for a body that is not an object', async () => {
      const res = await call(stack, 'POST', '/v1/companies', { token, json: [1, 2] });
      expect(res.status).to.equal(422);
      expect(res.body.errors.body).to.have.length(1);
    });

    it('refuses signing external without destination provider_ose', async () => {
      const res = await call(stack, 'POST', '/v1/companies', {
        token,
        json: companyBody(randomRuc(), { signing: 'external' }),
      });
      expect(res.status).to.equal(422);
      expect(res.body.errors.signing[0]).to.contain('provider_ose');
    });
  });

  describe('list and get', () => {
    it('lists only the account companies, with count', async () => {
      const own = await newAccountToken(stack);
      const [a, b] = [randomRuc(), randomRuc()];
      await createCompany(stack, own.token, a);
      await createCompany(stack, own.token, b);
      const res = await call(stack, 'GET', '/v1/companies', { token: own.token });
      expect(res.status).to.equal(200);
      expect(res.body.data.count).to.equal(2);
      expect(res.body.data.companies.map((c: { ruc: string }) => c.ruc)).to.have.members([a, b]);
      expect(res.body.data.companies[0]).to.have.property('tax_procedures');
    });

    it('gets a company with tax_procedures; 404 when unknown, 403 when another account holds it, 422 for a bad RUC', async () => {
      const ruc = randomRuc();
      await createCompany(stack, token, ruc);
      const got = await call(stack, 'GET', `/v1/companies/${ruc}`, { token });
      expect(got.status).to.equal(200);
      expect(got.body.data.company.tax_procedures).to.have.keys(['pse_authorization', 'ose_link']);
      expect((await call(stack, 'GET', `/v1/companies/${randomRuc()}`, { token })).status).to.equal(404);
      const other = (await newAccountToken(stack)).token;
      const foreign = await call(stack, 'GET', `/v1/companies/${ruc}`, { token: other });
      expect(foreign.status).to.equal(403);
      expect(foreign.body.message).to.contain('another account');
      const bad = await call(stack, 'GET', '/v1/companies/123', { token });
      expect(bad.status).to.equal(422);
      expect(bad.body.errors).to.have.key('ruc');
    });
  });

  describe('settings', () => {
    let ruc: string;
    beforeEach(async () => {
      ruc = randomRuc();
      await createCompany(stack, token, ruc);
    });
    const patch = (path: string, json: unknown) =>
      call(stack, 'PATCH', `/v1/companies/${ruc}/${path}`, { token, json });

    it('updates plan, sending, receipts and response modes', async () => {
      expect((await patch('plan', { plan_type: '02' })).body.data.company.plan_type).to.equal('02');
      expect((await patch('sending', { mode: 'manual' })).body.data.company.sending).to.equal('manual');
      expect((await patch('receipts', { mode: 'summary' })).body.data.company.receipts).to.equal('summary');
      expect((await patch('response', { mode: 'wait' })).body.data.company.response).to.equal('wait');
      const bad = await patch('sending', { mode: 'sometimes' });
      expect(bad.status).to.equal(422);
      expect(bad.body.errors.mode[0]).to.contain('automatic');
    });

    it("declares SUNAT's registers (padrones): the special IGV rate and the product code obligation, off by default", async () => {
      const before = await call(stack, 'GET', `/v1/companies/${ruc}`, { token });
      expect(before.body.data.company.registers).to.deep.equal({
        igv_special_rate: false,
        product_code_required: false,
      });
      const on = await patch('registers', { igv_special_rate: true });
      expect(on.status).to.equal(200);
      expect(on.body.data.company.registers).to.deep.equal({ igv_special_rate: true, product_code_required: false });
      const both = await patch('registers', { product_code_required: true });
      expect(both.body.data.company.registers).to.deep.equal({ igv_special_rate: true, product_code_required: true });
      expect((await patch('registers', { igv_special_rate: false })).body.data.company.registers).to.deep.equal({
        igv_special_rate: false,
        product_code_required: true,
      });
      for (const body of [{}, { igv_special_rate: 'yes' }, { other: true }])
        expect((await patch('registers', body)).status, JSON.stringify(body)).to.equal(422);
    });

    it('moves demo to production but never back (422)', async () => {
      const up = await patch('environment', { environment: '02' });
      expect(up.status).to.equal(200);
      expect(up.body.data.company).to.include({ environment: '02', environment_name: 'production' });
      const down = await patch('environment', { environment: '01' });
      expect(down.status).to.equal(422);
      expect(down.body.errors.environment).to.have.length(1);
    });

    it('keeps signing external tied to destination provider_ose', async () => {
      expect((await patch('signing', { signing: 'external' })).status).to.equal(422);
      const dest = await patch('destination', { destination: 'provider_ose' });
      expect(dest.status).to.equal(200);
      expect(dest.body.data.company.tax_procedures.ose_link.state).to.equal('pending');
      const signing = await patch('signing', { signing: 'external' });
      expect(signing.status).to.equal(200);
      expect(signing.body.data.company.signing).to.equal('external');
      expect(signing.body.data.company.tax_procedures.pse_authorization.state).to.equal('not_applicable');
      expect((await patch('destination', { destination: 'tax_authority' })).status).to.equal(422);
    });

    it('needs OSE credentials (public https URL) before destination own_ose', async () => {
      const early = await patch('destination', { destination: 'own_ose' });
      expect(early.status).to.equal(422);
      expect(early.body.errors.destination[0]).to.contain('OSE credentials');
      const insecure = await patch('ose-credentials', {
        url: 'http://ose.example.com/ol-ti-itcpe/billService',
        user: 'USER1',
        password: 'x',
      });
      expect(insecure.status).to.equal(422);
      expect(insecure.body.errors.url[0]).to.contain('https');
      const privateTarget = await patch('ose-credentials', {
        url: 'https://10.1.2.3/billService',
        user: 'USER1',
        password: 'x',
      });
      expect(privateTarget.status).to.equal(422);
      const stored = await patch('ose-credentials', {
        url: 'https://93.184.215.14/billService',
        user: 'USER1',
        password: 'ose-secret',
      });
      expect(stored.status).to.equal(200);
      expect(stored.body.data.company.ose_credentials).to.include({
        url: 'https://93.184.215.14/billService',
        user: 'USER1',
      });
      expect(JSON.stringify(stored.body)).not.to.contain('ose-secret');
      expect((await patch('destination', { destination: 'own_ose' })).body.data.company.destination).to.equal(
        'own_ose',
      );
    });

    it('stores GRE and SOL secrets sealed, never returning them', async () => {
      const gre = await patch('gre-credentials', { client_id: 'client-123', client_secret: 'gre-secret-value' });
      expect(gre.status).to.equal(200);
      expect(gre.body.data.company.gre_credentials.client_id).to.equal('client-123');
      expect(JSON.stringify(gre.body)).not.to.contain('gre-secret-value');
      const row = await stack.db('companies').where({ ruc }).first();
      expect(row.gre_client_secret_sealed).not.to.contain('gre-secret-value');
      expect(stack.secrets.open(row.gre_client_secret_sealed)).to.equal('gre-secret-value');
      const sol = await patch('sol-credentials', { sol_user: 'MODDATOS' });
      expect(sol.status).to.equal(422);
      expect(sol.body.errors).to.have.key('sol_password');
    });

    it('keeps a secondary SOL user beside the principal one; loading the principal again keeps it', async () => {
      const half = await patch('sol-credentials', {
        sol_user: 'MODDATOS',
        sol_password: 'moddatos',
        secondary_user: 'ENVIOS01',
      });
      expect(half.status).to.equal(422);
      const both = await patch('sol-credentials', {
        sol_user: 'MODDATOS',
        sol_password: 'moddatos',
        secondary_user: 'ENVIOS01',
        secondary_password: 'second-secret',
      });
      expect(both.status).to.equal(200);
      expect(both.body.data.company.sol_credentials).to.include({ sol_user: 'MODDATOS', secondary_user: 'ENVIOS01' });
      expect(JSON.stringify(both.body)).not.to.contain('second-secret');
      const row = await stack.db('companies').where({ ruc }).first();
      expect(stack.secrets.open(row.sol_secondary_password_sealed)).to.equal('second-secret');
      const again = await patch('sol-credentials', { sol_user: 'MODDATOS', sol_password: 'moddatos' });
      expect(again.body.data.company.sol_credentials.secondary_user).to.equal('ENVIOS01');
    });

    it('generates more signing tokens, each valid until revoked', async () => {
      const res = await call(stack, 'POST', `/v1/companies/${ruc}/token`, { token });
      expect(res.status).to.equal(201);
      expect(res.body.data.token).to.match(/^chq_sig_/);
      const company = await stack.db('companies').where({ ruc }).first();
      const tokens = await stack.db('api_tokens').where({ company_id: company.id }).whereNull('revoked_at');
      expect(tokens).to.have.length(2);
    });
  });

  describe('delete', () => {
    it('refuses with production movement (422)', async () => {
      const ruc = randomRuc();
      await createCompany(stack, token, ruc);
      await stack.db('companies').where({ ruc }).update({ production_documents: 3 });
      const res = await call(stack, 'DELETE', `/v1/companies/${ruc}`, { token });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.contain('production');
      expect(await stack.db('companies').where({ ruc }).first()).to.not.equal(undefined);
    });

    it('removes the company and revokes its signing tokens', async () => {
      const ruc = randomRuc();
      const signing = await createCompany(stack, token, ruc);
      const res = await call(stack, 'DELETE', `/v1/companies/${ruc}`, { token });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, message: `Company ${ruc} deleted; 1 signing tokens revoked` });
      expect((await call(stack, 'GET', `/v1/companies/${ruc}`, { token })).status).to.equal(404);
      const row = await stack
        .db('api_tokens')
        .where({ token_hash: hashToken(signing) })
        .first();
      expect(row.revoked_at).to.be.instanceOf(Date);
      expect((await call(stack, 'GET', '/v1/companies', { token: signing })).status).to.equal(401);
    });
  });
});
