import { expect } from 'chai';
import { mayDo, rolesFor, ROLE_PERMISSIONS, type Permission, type Role } from '../../api/console/permissions';

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

  const user = (role: Role, companyIds: string[] | null = null) => ({
    kind: 'user' as const,
    name: 'ana@cuenta.pe',
    accountId: 'a',
    userId: 'u',
    role,
    companyIds,
  });
  const every: Permission[] = [...new Set(Object.values(ROLE_PERMISSIONS).flat())];

  it("gives a user exactly its role's permissions, in every company when it is not limited", () => {
    for (const role of Object.keys(ROLE_PERMISSIONS) as Role[])
      for (const permission of every) {
        const may = ROLE_PERMISSIONS[role].includes(permission);
        expect(mayDo(user(role), permission), `${role} ${permission}`).to.equal(may);
        expect(mayDo(user(role), permission, 'c1'), `${role} ${permission} in c1`).to.equal(may);
      }
  });

  it('limits a role to its companies: nothing elsewhere, and no account-wide power', () => {
    const limited = user('administrator', ['c1']);
    expect(mayDo(limited, 'company.credentials', 'c1')).to.equal(true);
    expect(mayDo(limited, 'company.credentials', 'c2')).to.equal(false);
    expect(mayDo(limited, 'documents.read', 'c2')).to.equal(false);
    expect(mayDo(limited, 'companies.create')).to.equal(false);
    expect(mayDo(user('administrator'), 'companies.create')).to.equal(true);
    expect(mayDo(limited, 'audit.read'), 'its own companies’ rows').to.equal(true);
  });
});
