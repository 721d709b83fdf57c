import { expect } from 'chai';
import { limaMonthStart, onboardingChecklist, readyFor, type OnboardingFacts } from '../../api/companies/onboarding';
import { presentCompany } from '../../api/companies/present';
import type { CompanyRow } from '../../db/companies';
import type { CertificateRow } from '../../db/certificates';
import type { ProcedureRow } from '../../db/procedures';

/** A new demo company as POST /v1/companies leaves it: plan 01, SUNAT, the provider signs, nothing loaded. */
function company(changes: Partial<CompanyRow> = {}): CompanyRow {
  const now = new Date('2026-12-01T15:00:00Z');
  return {
    id: '00000000-0000-4000-8000-000000000001',
    account_id: '00000000-0000-4000-8000-000000000002',
    ruc: '20100066603',
    business_name: 'Empresa S.A.C.',
    plan_type: '01',
    environment: '01',
    sending_mode: 'automatic',
    receipts_mode: 'individual',
    response_mode: 'no_wait',
    destination: 'tax_authority',
    signing: 'provider',
    certificate_id: null,
    sol_user: null,
    sol_password_sealed: null,
    sol_updated_at: null,
    sol_secondary_user: null,
    sol_secondary_password_sealed: null,
    ose_url: null,
    ose_user: null,
    ose_password_sealed: null,
    ose_updated_at: null,
    gre_client_id: null,
    gre_client_secret_sealed: null,
    gre_updated_at: null,
    webhook_url: null,
    webhook_secret_sealed: null,
    webhook_updated_at: null,
    production_documents: 0,
    register_igv_special_rate: false,
    register_product_code: false,
    active: true,
    created_at: now,
    updated_at: now,
    ...changes,
  };
}

const ownCertificate = { origin: 'own', not_before: new Date(), not_after: new Date() } as CertificateRow;
const procedure = (name: ProcedureRow['procedure'], state: ProcedureRow['state']) =>
  ({ procedure: name, state, attempts: 1 }) as ProcedureRow;

function facts(
  row: CompanyRow,
  more: Partial<Omit<OnboardingFacts, 'record'>> & { certificate?: CertificateRow; procedures?: ProcedureRow[] } = {},
): OnboardingFacts {
  return {
    record: presentCompany(row, more.certificate, more.procedures ?? []),
    checks: more.checks ?? [],
    email: more.email ?? null,
    issuesGuides: more.issuesGuides ?? false,
    quotaLeft: more.quotaLeft ?? '0',
  };
}

const states = (f: OnboardingFacts) =>
  Object.fromEntries(onboardingChecklist(f).map((i) => [i.id, `${i.level}:${i.state}`]));

describe('onboarding checklist', () => {
  it('a new plan 01 company on SUNAT: may issue its first document, lacks SOL, the PSE authorisation and quota for production', () => {
    const items = onboardingChecklist(facts(company()));
    expect(states(facts(company()))).to.deep.equal({
      certificate: 'recommended:done',
      sol_credentials: 'production:missing',
      pse_authorization: 'production:missing',
      quota: 'production:missing',
      webhook: 'recommended:missing',
      email: 'recommended:missing',
    });
    expect(readyFor(items, ['first'])).to.equal(true);
    expect(readyFor(items, ['first', 'production'])).to.equal(false);
  });

  it('ticks each item from the facts the API shows: SOL loaded, the procedure done, quota, webhook, e-mail', () => {
    const row = company({ sol_user: 'VENTAS01', sol_password_sealed: 'x', webhook_url: 'https://h.pe/x' });
    const f = facts(row, {
      procedures: [procedure('pse_authorization', 'done')],
      quotaLeft: '12.500',
      email: { from_address: 'ventas@empresa.pe', smtp_url_sealed: null },
    });
    const items = onboardingChecklist(f);
    expect(items.every((i) => i.state === 'done')).to.equal(true);
    expect(readyFor(items, ['first', 'production', 'recommended'])).to.equal(true);
  });

  it('a running procedure waits; one the portal refused, and SOL credentials SUNAT refused, fail', () => {
    const row = company({ sol_user: 'VENTAS01', sol_password_sealed: 'x' });
    expect(states(facts(row, { procedures: [procedure('pse_authorization', 'running')] })).pse_authorization).to.equal(
      'production:waiting',
    );
    const refused = facts(row, {
      procedures: [procedure('pse_authorization', 'failed')],
      checks: [{ check: 'sol_credentials', status: 'fail' }],
    });
    expect(states(refused)).to.include({
      pse_authorization: 'production:failing',
      sol_credentials: 'production:failing',
    });
  });

  it('plan 02 needs its certificate before the first document; an own certificate needs the secondary SOL user and no PSE authorisation', () => {
    const plan02 = company({ plan_type: '02' });
    expect(states(facts(plan02)).certificate).to.equal('first:missing');
    expect(states(facts(plan02)).quota).to.equal(undefined);
    const own = facts(company({ plan_type: '02', certificate_id: 'c' }), { certificate: ownCertificate });
    expect(states(own)).to.include({ certificate: 'first:done', sol_secondary: 'production:missing' });
    expect(states(own).pse_authorization).to.equal(undefined);
    const expired = facts(company({ plan_type: '02', certificate_id: 'c' }), {
      certificate: ownCertificate,
      checks: [{ check: 'certificate', status: 'fail' }],
    });
    expect(states(expired).certificate).to.equal('first:failing');
  });

  it('the OSE: an own one by its credentials, the provider’s by the portal link; externally signed documents need no certificate or quota', () => {
    const own = company({ destination: 'own_ose', ose_user: 'u', ose_url: 'https://ose.pe' });
    expect(states(facts(own)).ose).to.equal('first:done');
    const provider = company({ destination: 'provider_ose', signing: 'external' });
    const f = facts(provider, { procedures: [procedure('ose_link', 'pending')] });
    expect(states(f)).to.include({ ose: 'production:missing', sol_credentials: 'production:missing' });
    expect(states(f).certificate).to.equal(undefined);
    expect(states(f).quota).to.equal(undefined);
  });

  it('GRE credentials only once the company issues guides (or has loaded them)', () => {
    expect(states(facts(company())).gre_credentials).to.equal(undefined);
    expect(states(facts(company(), { issuesGuides: true })).gre_credentials).to.equal('production:missing');
    const loaded = company({ gre_client_id: 'abc', gre_client_secret_sealed: 'x' });
    expect(states(facts(loaded)).gre_credentials).to.equal('production:done');
  });

  it('the month starts at midnight in Lima, also while it is still the last day of the month before in UTC terms', () => {
    expect(limaMonthStart(new Date('2026-12-01T04:59:59Z')).toISOString()).to.equal('2026-11-01T05:00:00.000Z');
    expect(limaMonthStart(new Date('2026-12-01T05:00:00Z')).toISOString()).to.equal('2026-12-01T05:00:00.000Z');
  });
});
