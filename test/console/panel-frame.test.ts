import { expect } from 'chai';
import { COMPANY_TABS, companyPath } from '../../api/console/panel/frame';

describe('panel company pages', function () {
  it('gives every tab its own path under the company', () => {
    const paths = COMPANY_TABS.map((t) => companyPath('20100066603', t.id));
    expect(paths[0]).to.equal('/console/companies/20100066603');
    expect(new Set(paths).size).to.equal(COMPANY_TABS.length);
    expect(paths.slice(1).every((p) => /^\/console\/companies\/20100066603\/[a-z]+$/.test(p))).to.equal(true);
  });
});
