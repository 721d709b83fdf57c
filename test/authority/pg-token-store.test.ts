import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { GreConnector } from '../../authority/gre/connector';
import { PgGreTokenStore } from '../../authority/gre/pg-token-store';
import { generateMasterKey, parseMasterKey, SecretBox } from '../../core/secretbox';
import { startTestSimulator } from '../support/simulator';
import { despatch } from '../support/ubl-fixtures';
import { getTestDb } from '../support/services';
import { sign, urls } from '../simulator/support';

describe('GRE token store in PostgreSQL', () => {
  const box = new SecretBox(parseMasterKey(generateMasterKey()));
  const clientId = `client-${randomBytes(4).toString('hex')}`;

  it('keeps tokens sealed, replaces them, and discards only the token that was refused', async () => {
    const db = await getTestDb();
    const store = new PgGreTokenStore(db, box);
    const expiresAt = Date.now() + 3_600_000;
    expect(await store.get(clientId, '20123456789')).to.equal(null);
    await store.put(clientId, '20123456789', { accessToken: 'first-token', expiresAt });
    const raw = await db('gre_tokens').where({ client_id: clientId }).first();
    expect(raw.access_token_sealed).to.match(/^v1:/).and.not.contain('first-token');
    expect(await store.get(clientId, '20123456789')).to.deep.equal({ accessToken: 'first-token', expiresAt });

    await store.put(clientId, '20123456789', { accessToken: 'second-token', expiresAt: expiresAt + 1000 });
    await store.discard(clientId, '20123456789', 'first-token');
    expect((await store.get(clientId, '20123456789'))?.accessToken).to.equal('second-token');
    await store.discard(clientId, '20123456789', 'second-token');
    expect(await store.get(clientId, '20123456789')).to.equal(null);

    await store.put(clientId, '20123456789', { accessToken: 'third-token', expiresAt });
    const otherKey = new PgGreTokenStore(db, new SecretBox(parseMasterKey(generateMasterKey())));
    expect(await otherKey.get(clientId, '20123456789')).to.equal(null);
  });

  it('lets two connectors in different "workers" share one token through the database', async () => {
    const db = await getTestDb();
    const sim = await startTestSimulator();
    try {
      const creds = {
        ruc: '20123456789',
        solUser: 'MODDATOS',
        solPassword: 'moddatos',
        clientId: `${clientId}-shared`,
        clientSecret: 's',
      };
      const a = new GreConnector(new PgGreTokenStore(db, box));
      const b = new GreConnector(new PgGreTokenStore(db, box));
      expect((await a.sendGre(urls(sim).gre, creds, sign(despatch(creds.ruc, 'T001', 1)))).status).to.equal('ticket');
      expect((await b.sendGre(urls(sim).gre, creds, sign(despatch(creds.ruc, 'T001', 2)))).status).to.equal('ticket');
      expect(sim.log().filter((e) => e.operation === 'greToken')).to.have.length(1);
    } finally {
      await sim.close();
    }
  });
});
