import { expect } from 'chai';
import { createHttpPortal } from '../../authority/portal-client';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';

describe("companies' portal client against the simulator's portal (contract check)", () => {
  let sim: SimulatorHandle;
  before(async () => {
    sim = await startTestSimulator({ credentials: [{ ruc: '20123456789', user: 'PRINCIPAL', password: 'clave1' }] });
  });
  after(async () => {
    await sim.close();
  });

  it('logs in, authorises the PSE and links the OSE, idempotently', async () => {
    const portal = createHttpPortal(sim.url);
    const login = await portal.login({ ruc: '20123456789', user: 'PRINCIPAL', password: 'clave1' });
    if (!login.ok) throw new Error(login.message);
    const pse = await portal.authorizePse(login.value, '20100066603');
    expect(pse).to.deep.include({ ok: true });
    expect(pse.ok && pse.value.alreadyDone).to.equal(false);
    const again = await portal.authorizePse(login.value, '20100066603');
    expect(again.ok && again.value).to.deep.equal(pse.ok && { ...pse.value, alreadyDone: true });
    const ose = await portal.linkOse(login.value, '20100066603');
    expect(ose.ok && ose.value.alreadyDone).to.equal(false);
  });

  it('maps wrong credentials, injected 500s and resets to its failure kinds', async () => {
    const portal = createHttpPortal(sim.url);
    expect(await portal.login({ ruc: '20123456789', user: 'PRINCIPAL', password: 'wrong' })).to.deep.include({
      ok: false,
      failure: 'invalid_credentials',
      retryable: false,
    });
    sim.addRule({ operation: 'portal', fault: { kind: 'http500' }, times: 1 });
    expect(await portal.login({ ruc: '20123456789', user: 'PRINCIPAL', password: 'clave1' })).to.deep.include({
      ok: false,
      failure: 'unexpected',
      retryable: true,
    });
    sim.addRule({ operation: 'portal', fault: { kind: 'reset' }, times: 1 });
    expect(await portal.login({ ruc: '20123456789', user: 'PRINCIPAL', password: 'clave1' })).to.deep.include({
      ok: false,
      failure: 'connection',
      retryable: true,
    });
  });
});
