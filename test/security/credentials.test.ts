import { expect } from 'chai';
import { DOMParser } from '@xmldom/xmldom';
import { call, newCompany, startIssuingStack, type IssuingStack } from '../issuing/support';
import { soapRequest } from '../../authority/soap';

/**
 * Credentials an account stores reach an authority's URL or envelope: the GRE client id is a segment of SUNAT's token
 * URL, an OSE user the WS-Security user name. Neither may change where the request goes or what the envelope says.
 */
describe('security: credentials that reach an authority (GRE client id, OSE user)', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({}, { worker: false });
  });
  after(() => env?.stop());

  it('PATCH …/gre-credentials refuses a client id that is not one path segment (422 naming client_id), storing nothing', async () => {
    const company = await newCompany(env.stack);
    const patch = (client_id: string) =>
      call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/gre-credentials`, {
        token: company.accountToken,
        json: { client_id, client_secret: 'gre-secret' },
      });
    // `..` would turn …/clientessol/../oauth2/token/ into …/oauth2/token/ on SUNAT's host (WHATWG URL resolution).
    expect(new URL(`https://sunat.test/v1/clientessol/${encodeURIComponent('..')}/oauth2/token/`).pathname).to.equal(
      '/v1/oauth2/token/',
    );
    for (const id of ['..', '.', '../../v1/x', 'a/b', '%2e%2e', 'id?x=1', 'id#x', ' id', '-x'.padStart(202, 'a')]) {
      const res = await patch(id);
      expect(res.status, id).to.equal(422);
      expect(Object.keys(res.body.errors), id).to.deep.equal(['client_id']);
    }
    const row = await env.stack.db('companies').where({ id: company.row.id }).first();
    expect(row.gre_client_id).to.equal(null);
    expect(row.gre_client_secret_sealed).to.equal(null);
    // SUNAT's own form (a UUID) and the simulator's names still pass.
    for (const id of ['e6c81f95-2c6d-4c2f-bf29-dd6c9e43fa80', 'client-123'])
      expect((await patch(id)).status, id).to.equal(200);
  });

  it("an OSE user with markup stays text in the SOAP envelope's user name", () => {
    const user = '</wsse:Username><wsse:Password>x</wsse:Password><wsse:Username>';
    const envelope = soapRequest({ ruc: '20100066603', solUser: user, solPassword: 'p&<>' }, 'sendBill', [
      ['fileName', '20100066603-01-F001-1.zip'],
    ]);
    const doc = new DOMParser().parseFromString(envelope, 'text/xml');
    const names = doc.getElementsByTagName('wsse:Username');
    expect(names.length).to.equal(1);
    expect(names[0].textContent).to.equal(`20100066603${user}`);
    expect(doc.getElementsByTagName('wsse:Password')[0].textContent).to.equal('p&<>');
  });
});
