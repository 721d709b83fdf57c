/**
 * Every role on every tab of a company's panel pages (issues 42 and 43): a tab the role may not use answers 403 naming
 * the roles that may, to its page and to its form alike, and nothing is written; a tab it may use opens. The same
 * table the pages ask (api/console/permissions.ts) says which is which, so a tab added later is tried as well.
 */
import { expect } from 'chai';
import { ConsoleClient, addUser, peopleWorld } from '../console/people';
import { COMPANY_TABS, companyPath } from '../../api/console/panel/frame';
import { ROLE_PERMISSIONS, rolesFor } from '../../api/console/permissions';
import { takesForms } from '../../api/console/panel/routes';

describe('security: each role on each tab of the panel', function () {
  this.timeout(300_000);
  const world = peopleWorld();

  for (const role of ['administrator', 'emisor', 'contador', 'desarrollador'] as const) {
    it(`${role}: 403 naming the roles on the tabs it may not use, its pages open on the others`, async () => {
      const email = `tabs-${role}.${process.pid}@people.test`;
      const password = await addUser(world, email, role);
      const client = new ConsoleClient(world.s.stack.url);
      expect((await client.signIn(email, password)).statusCode).to.equal(303);
      const written = async () => Number((await world.s.stack.db('audit_log').count({ n: '*' }))[0].n);
      for (const tab of COMPANY_TABS) {
        const path = companyPath(world.a.ruc, tab.id);
        const allowed = ROLE_PERMISSIONS[role].includes(tab.needs);
        const page = await client.get(path);
        expect(page.statusCode, `${role} GET ${path}`).to.equal(allowed ? 200 : 403);
        if (allowed) continue;
        expect(client.text(), path).to.include(`necesita el rol ${rolesFor(tab.needs)}`);
        const before = await written();
        const posted = await client.post(path, { url: 'https://example.com/hook', name: 'intruso', accion: 'crear' });
        // A tab without a form answers its POST 404 whatever the role.
        expect(posted.statusCode, `${role} POST ${path}`).to.equal(takesForms(tab.id) ? 403 : 404);
        expect(await written(), `${role} POST ${path} wrote nothing`).to.equal(before);
      }
    });
  }
});
