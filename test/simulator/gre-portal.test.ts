import { expect } from 'chai';
import got from 'got';
import { GreConnector, MemoryGreTokenStore } from '../../authority';
import { type LogEntry, type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { despatch } from '../support/ubl-fixtures';
import { RUC, sign, urls } from './support';

const GRE_CREDS = {
  ruc: RUC,
  solUser: 'MODDATOS',
  solPassword: 'moddatos',
  clientId: 'test-client',
  clientSecret: 'test-secret',
};

describe('GRE connector against the simulator', () => {
  let sim: SimulatorHandle;
  let number = 0;
  const guide = () => sign(despatch(RUC, 'T001', ++number));
  const tokenRequests = () => sim.log().filter((e: LogEntry) => e.operation === 'greToken').length;

  beforeEach(async () => {
    sim = await startTestSimulator({ ticketPolls: 1 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('sends with hashZip, gets a ticket, polls 98 then the CDR', async () => {
    const gre = new GreConnector(new MemoryGreTokenStore());
    const sent = await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    expect(sent).to.deep.include({ status: 'ticket', origin: null });
    expect(sent.ticket).to.match(/^[0-9a-f-]{36}$/);
    expect(await gre.getGreStatus(urls(sim).gre, GRE_CREDS, sent.ticket!)).to.deep.include({
      status: 'pending',
      code: '98',
    });
    const done = await gre.getGreStatus(urls(sim).gre, GRE_CREDS, sent.ticket!);
    expect(done).to.deep.include({ status: 'accepted', code: '0', ticket: sent.ticket });
    expect(done.cdr?.referenceId).to.equal(`T001-${number}`);
  });

  it('two connector instances sharing a store use one token', async () => {
    const store = new MemoryGreTokenStore();
    const a = new GreConnector(store);
    const b = new GreConnector(store);
    const [x, y] = await Promise.all([
      a.sendGre(urls(sim).gre, GRE_CREDS, guide()),
      a.sendGre(urls(sim).gre, GRE_CREDS, guide()),
    ]);
    const z = await b.sendGre(urls(sim).gre, GRE_CREDS, guide());
    expect([x.status, y.status, z.status]).to.deep.equal(['ticket', 'ticket', 'ticket']);
    expect(tokenRequests()).to.equal(1);
  });

  it('refreshes the token before it expires (600 s margin)', async () => {
    let now = Date.now();
    const gre = new GreConnector(new MemoryGreTokenStore(), { now: () => now });
    await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    now += 3600_000 - 600_000 - 1000;
    await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    expect(tokenRequests()).to.equal(1);
    now += 2000;
    await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    expect(tokenRequests()).to.equal(2);
  });

  it('on a 401 discards the token, fetches another and sends once more', async () => {
    const store = new MemoryGreTokenStore();
    const gre = new GreConnector(store);
    await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    const before = await store.get(GRE_CREDS.clientId, RUC);
    sim.addRule({ operation: 'greSend', fault: { kind: 'greHttp', status: 401 }, times: 1 });
    expect(await gre.sendGre(urls(sim).gre, GRE_CREDS, guide())).to.deep.include({ status: 'ticket' });
    expect(tokenRequests()).to.equal(2);
    expect((await store.get(GRE_CREDS.clientId, RUC))?.accessToken).to.not.equal(before?.accessToken);
    sim.addRule({ operation: 'greSend', fault: { kind: 'greHttp', status: 401 } });
    expect(await gre.sendGre(urls(sim).gre, GRE_CREDS, guide())).to.deep.include({
      status: 'rejected',
      code: '401',
      origin: 'tax_authority',
    });
  });

  it('GRE 422 is a rejection, 500 a system failure, refused credentials a rejection, and a rejected guide ends in 99', async () => {
    const gre = new GreConnector(new MemoryGreTokenStore());
    sim.addRule({
      operation: 'greSend',
      fault: { kind: 'greHttp', status: 422, code: '2560', message: 'Transportista igual al remitente' },
      times: 1,
    });
    const rejected = await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    expect(rejected).to.deep.include({ status: 'rejected', code: '2560', origin: 'tax_authority' });
    expect(rejected.errors).to.deep.equal(['[SUNAT 2560] Transportista igual al remitente']);
    sim.addRule({ operation: 'greSend', fault: { kind: 'greHttp', status: 500 }, times: 1 });
    expect(await gre.sendGre(urls(sim).gre, GRE_CREDS, guide())).to.deep.include({
      origin: 'system',
      action: 'review',
    });
    const denied = await new GreConnector(new MemoryGreTokenStore()).sendGre(
      urls(sim).gre,
      { ...GRE_CREDS, solPassword: 'bad' },
      guide(),
    );
    expect(denied).to.deep.include({ status: 'rejected', origin: 'tax_authority', action: 'correct' });
    sim.addRule({ operation: 'greSend', fault: { kind: 'reject', code: '2561' }, times: 1 });
    const sent = await gre.sendGre(urls(sim).gre, GRE_CREDS, guide());
    await gre.getGreStatus(urls(sim).gre, GRE_CREDS, sent.ticket!);
    expect(await gre.getGreStatus(urls(sim).gre, GRE_CREDS, sent.ticket!)).to.deep.include({
      status: 'rejected',
      code: '2561',
    });
  });

  it('a token request that cannot connect leaves the guide unsent (connection, retry)', async () => {
    sim.addRule({ operation: 'greToken', fault: { kind: 'reset' }, times: 1 });
    const result = await new GreConnector(new MemoryGreTokenStore()).sendGre(urls(sim).gre, GRE_CREDS, guide());
    expect(result).to.deep.include({ origin: 'connection', reached_sunat: false, action: 'retry' });
  });
});

describe('simulator SUNAT portal endpoints (company procedures)', () => {
  let sim: SimulatorHandle;
  before(async () => {
    sim = await startTestSimulator({ credentials: [{ ruc: RUC, user: 'PRINCIPAL', password: 'clave1' }] });
  });
  after(async () => {
    await sim.close();
  });
  const post = (path: string, json: object, token?: string) =>
    got.post(`${sim.url}${path}`, {
      json,
      throwHttpErrors: false,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('logs in, authorises a PSE and links an OSE once, and reports both', async () => {
    const bad = await post('/portal/v1/login', { ruc: RUC, usuario: 'PRINCIPAL', clave: 'nope' });
    expect(bad.statusCode).to.equal(401);
    expect(JSON.parse(bad.body)).to.have.keys('cod', 'msg');
    const login = await post('/portal/v1/login', { ruc: RUC, usuario: 'PRINCIPAL', clave: 'clave1' });
    expect(login.statusCode).to.equal(200);
    const { token, expires_in } = JSON.parse(login.body) as { token: string; expires_in: number };
    expect(expires_in).to.equal(3600);

    const pse = await post('/portal/v1/pse/autorizaciones', { ruc_pse: '20999999991' }, token);
    expect(pse.statusCode).to.equal(201);
    const created = JSON.parse(pse.body);
    expect(created).to.have.keys('id', 'estado', 'fecha');
    expect(created.estado).to.equal('AUTORIZADO');
    const again = await post('/portal/v1/pse/autorizaciones', { ruc_pse: '20999999991' }, token);
    expect([again.statusCode, JSON.parse(again.body)]).to.deep.equal([200, created]);

    const ose = await post('/portal/v1/ose/vinculaciones', { ruc_ose: '20999999992' }, token);
    expect([ose.statusCode, JSON.parse(ose.body).estado]).to.deep.equal([201, 'VINCULADO']);
    expect((await post('/portal/v1/ose/vinculaciones', { ruc_ose: '20999999992' }, token)).statusCode).to.equal(200);

    const estado = await got(`${sim.url}/portal/v1/estado`, { headers: { authorization: `Bearer ${token}` } }).json<
      Record<string, unknown[]>
    >();
    expect(estado).to.deep.equal({
      pse: [{ ...created, ruc_pse: '20999999991' }],
      ose: [{ ...JSON.parse(ose.body), ruc_ose: '20999999992' }],
    });
    expect((await post('/portal/v1/pse/autorizaciones', { ruc_pse: '20999999991' })).statusCode).to.equal(401);
  });

  it('accepts MODDATOS/moddatos for any RUC, and faults apply to portal paths', async () => {
    expect(
      (await post('/portal/v1/login', { ruc: '20111111111', usuario: 'MODDATOS', clave: 'moddatos' })).statusCode,
    ).to.equal(200);
    sim.addRule({ operation: 'portal', fault: { kind: 'http500' }, times: 1 });
    expect((await post('/portal/v1/login', { ruc: RUC, usuario: 'PRINCIPAL', clave: 'clave1' })).statusCode).to.equal(
      500,
    );
    sim.addRule({ operation: 'portal', fault: { kind: 'reset' }, times: 1 });
    const reset = await post('/portal/v1/login', { ruc: RUC, usuario: 'PRINCIPAL', clave: 'clave1' }).catch(
      (err: { code?: string }) => err.code,
    );
    expect(reset).to.equal('ECONNRESET');
  });
});
