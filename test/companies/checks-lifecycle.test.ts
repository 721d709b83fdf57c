import { expect } from 'chai';
import { credentialsStatus, isCheckNews, knownStatusAfter, type CheckStatus } from '../../lifecycle/checks';

/** lifecycle/checks.ts alone: which result is news, and what an authority's answer says of credentials. */
describe('company checks: the lifecycle table', () => {
  const STATUSES: CheckStatus[] = ['ok', 'warn', 'fail', 'unknown'];

  it('keeps the known status through unknown, and news is a move of it to warn or fail', () => {
    for (const before of [null, 'ok', 'warn', 'fail'] as const)
      expect(knownStatusAfter('unknown', before), String(before)).to.equal(before);
    const news = STATUSES.flatMap((status) =>
      ([null, 'ok', 'warn', 'fail'] as const).filter((b) => isCheckNews(status, b)).map((b) => `${b} → ${status}`),
    );
    expect(news).to.deep.equal(['null → warn', 'ok → warn', 'fail → warn', 'null → fail', 'ok → fail', 'warn → fail']);
  });

  it('judges credentials: unknown when SUNAT could not be asked, fail on a refusal code or a rejected token', () => {
    const codes = new Set(['0102']);
    const answer = (origin: string | null, status: string, code: string | null) => ({ origin, status, code });
    expect(credentialsStatus(answer('timeout', 'unknown', 'ETIMEDOUT'), codes)).to.equal('unknown');
    expect(credentialsStatus(answer('connection', 'unknown', 'ECONNREFUSED'), null)).to.equal('unknown');
    expect(credentialsStatus(answer('tax_authority', 'rejected', '0102'), codes)).to.equal('fail');
    expect(credentialsStatus(answer('tax_authority', 'rejected', '0011'), codes)).to.equal('ok');
    expect(credentialsStatus(answer('tax_authority', 'rejected', '401'), null)).to.equal('fail');
    expect(credentialsStatus(answer('tax_authority', 'accepted', null), null)).to.equal('ok');
  });
});
