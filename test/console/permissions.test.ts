import { expect } from 'chai';
import { mayDo, rolesFor } from '../../api/console/permissions';

describe('console permissions', function () {
  const account = { kind: 'account' as const, name: 'Cuenta', accountId: 'a', apiTokenId: 't' };
  const support = { kind: 'support' as const, name: 'Soporte', supportTokenId: 's' };

  it("opens everything to the account token's holder, and only reading to support staff", () => {
    expect(mayDo(account, 'company.credentials')).to.equal(true);
    expect(mayDo(account, 'companies.delete')).to.equal(true);
    expect(mayDo(support, 'documents.read')).to.equal(true);
    expect(mayDo(support, 'company.credentials')).to.equal(false);
    expect(mayDo(support, 'documents.issue')).to.equal(false);
  });

  it('names the roles that may do something', () => {
    expect(rolesFor('users.manage')).to.equal('propietario');
    expect(rolesFor('documents.export')).to.equal('propietario, administrador o contador');
  });
});
