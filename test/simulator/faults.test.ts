import { expect } from 'chai';
import got from 'got';
import { getStatus, getStatusCdr, sendBill, sendSummary } from '../../authority';
import { type LogEntry, type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { invoice, summary } from '../support/ubl-fixtures';
import { CREDS, RUC, sign, urls } from './support';

describe('simulator fault injection through the admin API, classified by the connectors', () => {
  let sim: SimulatorHandle;
  let number = 100;
  const nextInvoice = () => sign(invoice({ ruc: RUC, series: 'F001', number: ++number }));
  const addRule = (rule: object) => got.post(`${sim.url}/__admin/rules`, { json: rule }).json<{ id: string }>();

  before(async () => {
    sim = await startTestSimulator();
  });
  afterEach(async () => {
    await got.delete(`${sim.url}/__admin/rules`);
  });
  after(async () => {
    await sim.close();
  });

  const cases: [string, object, Record<string, unknown>][] = [
    ['reset', { kind: 'reset' }, { origin: 'connection', reached_sunat: false, action: 'retry', code: 'ECONNRESET' }],
    [
      'HTTP 500 page',
      { kind: 'http500' },
      { origin: 'system', reached_sunat: true, action: 'review', code: 'UNREADABLE_ANSWER' },
    ],
    ['HTTP 200 empty', { kind: 'empty200' }, { origin: 'system', code: 'EMPTY_ANSWER' }],
    [
      'SOAP fault 0111',
      { kind: 'soapFault', code: '0111' },
      { origin: 'tax_authority', action: 'correct', status: 'rejected', code: '0111' },
    ],
    [
      'SOAP fault 0100',
      { kind: 'soapFault', code: '0100' },
      { origin: 'connection', reached_sunat: false, action: 'retry', code: '0100' },
    ],
    ['malformed CDR', { kind: 'malformedCdr' }, { origin: 'system', code: 'CDR_UNREADABLE' }],
    ['unsigned CDR', { kind: 'unsignedCdr' }, { origin: 'system', code: 'CDR_UNSIGNED' }],
    [
      'rejection 2800',
      { kind: 'reject', code: '2800', message: 'Rechazo simulado' },
      { origin: 'tax_authority', status: 'rejected', code: '2800', message: 'Rechazo simulado' },
    ],
    [
      'rejection as a fault (beta)',
      { kind: 'reject', code: '3103', asFault: true },
      { origin: 'tax_authority', status: 'rejected', code: '3103' },
    ],
    [
      // The catalog's kind (documents/sunat-codes.ts): a code under 2000 is an exception, answered as SUNAT does, a fault.
      'rejection with an exception code 0130',
      { kind: 'reject', code: '0130' },
      { origin: 'connection', reached_sunat: false, action: 'retry', code: '0130' },
    ],
    ['observation 4252', { kind: 'observe', code: '4252' }, { origin: null, status: 'observed', code: '0' }],
  ];
  for (const [label, fault, expected] of cases) {
    it(`${label} → ${String(expected.origin)}`, async () => {
      await addRule({ operation: 'sendBill', fault });
      const result = await sendBill(urls(sim).bill, CREDS, nextInvoice());
      expect(result).to.deep.include(expected);
    });
  }

  it('refuse drops new connections before reading anything (connection, retry)', async () => {
    await addRule({ fault: { kind: 'refuse' }, times: 1 });
    const result = await sendBill(urls(sim).bill, CREDS, nextInvoice());
    expect(result).to.deep.include({ origin: 'connection', reached_sunat: false, action: 'retry' });
    expect(await sendBill(urls(sim).bill, CREDS, nextInvoice())).to.deep.include({ status: 'accepted' });
  });

  it('hang beyond the client response timeout → timeout; the document is queried afterwards', async () => {
    await addRule({ operation: 'sendBill', fault: { kind: 'hang' }, times: 1 });
    const doc = nextInvoice();
    const result = await sendBill(urls(sim).bill, CREDS, doc, { timeouts: { connectMs: 1000, responseMs: 300 } });
    expect(result).to.deep.include({
      origin: 'timeout',
      reached_sunat: null,
      action: 'review',
      needsStatusQuery: true,
    });
    const [series, n] = doc.filename.split('-').slice(2);
    expect(await getStatusCdr(urls(sim).consult, CREDS, { ruc: RUC, type: '01', series, number: n })).to.deep.include({
      code: '0011',
      reached_sunat: false,
    });
  });

  it('a malformed CDR is reconciled by getStatusCdr: the simulator kept the real one', async () => {
    await addRule({ operation: 'sendBill', fault: { kind: 'malformedCdr' } });
    const doc = nextInvoice();
    expect(await sendBill(urls(sim).bill, CREDS, doc)).to.deep.include({ origin: 'system' });
    const [series, n] = doc.filename.split('-').slice(2);
    expect(await getStatusCdr(urls(sim).consult, CREDS, { ruc: RUC, type: '01', series, number: n })).to.deep.include({
      status: 'accepted',
      code: '0',
    });
  });

  it('rules match RUC, series and number, and expire after `times`', async () => {
    await addRule({
      operation: 'sendBill',
      ruc: RUC,
      series: 'F001',
      number: number + 2,
      fault: { kind: 'reject', code: '2801' },
      times: 1,
    });
    expect(await sendBill(urls(sim).bill, CREDS, nextInvoice())).to.deep.include({ status: 'accepted' });
    expect(await sendBill(urls(sim).bill, CREDS, nextInvoice())).to.deep.include({ code: '2801' });
    const rules = await got(`${sim.url}/__admin/rules`).json<unknown[]>();
    expect(rules).to.deep.equal([]);
  });

  it('ticket stuck at 98 until the rule is removed', async () => {
    const { id } = await addRule({ operation: 'getStatus', fault: { kind: 'ticketStuck' } });
    const sent = await sendSummary(urls(sim).bill, CREDS, sign(summary(RUC, '2026-11-20', 7)));
    for (let i = 0; i < 3; i++)
      expect(await getStatus(urls(sim).bill, CREDS, sent.ticket!)).to.deep.include({ status: 'pending', code: '98' });
    await got.delete(`${sim.url}/__admin/rules/${id}`);
    expect(await getStatus(urls(sim).bill, CREDS, sent.ticket!)).to.deep.include({ status: 'accepted' });
  });

  it('rejects invalid rules and logs what it received and answered', async () => {
    const bad = await got.post(`${sim.url}/__admin/rules`, {
      json: { fault: { kind: 'explode' } },
      throwHttpErrors: false,
    });
    expect(bad.statusCode).to.equal(400);
    const refuseForever = await got.post(`${sim.url}/__admin/rules`, {
      json: { fault: { kind: 'refuse' } },
      throwHttpErrors: false,
    });
    expect(refuseForever.statusCode).to.equal(400);
    await got.delete(`${sim.url}/__admin/log`);
    await addRule({ operation: 'sendBill', fault: { kind: 'soapFault', code: '0111' }, times: 1 });
    const doc = nextInvoice();
    await sendBill(urls(sim).bill, CREDS, doc);
    await sendBill(urls(sim).bill, CREDS, doc);
    const log = await got(`${sim.url}/__admin/log`).json<LogEntry[]>();
    expect(log.map((e) => [e.operation, e.name, e.httpStatus, e.code, e.fault])).to.deep.equal([
      ['sendBill', `${doc.filename}.zip`, 500, '0111', 'soapFault'],
      ['sendBill', `${doc.filename}.zip`, 200, '0', null],
    ]);
  });

  it('reset forgets documents, rules and the log', async () => {
    const doc = nextInvoice();
    await sendBill(urls(sim).bill, CREDS, doc);
    await addRule({ fault: { kind: 'http500' } });
    await got.post(`${sim.url}/__admin/reset`);
    expect(await got(`${sim.url}/__admin/rules`).json()).to.deep.equal([]);
    expect(await got(`${sim.url}/__admin/documents`).json()).to.deep.equal([]);
    expect(await sendBill(urls(sim).bill, CREDS, doc)).to.deep.include({ status: 'accepted' });
  });
});

describe('simulator request log', () => {
  it('keeps the newest logLimit entries, in order, however many requests come', async () => {
    const sim = await startTestSimulator({ logLimit: 3 });
    try {
      for (let i = 0; i < 8; i++) await got(`${sim.url}/nowhere-${i}`, { throwHttpErrors: false });
      const log = sim.log();
      expect(log.map((e) => e.path)).to.deep.equal(['/nowhere-5', '/nowhere-6', '/nowhere-7']);
      expect(log.map((e) => e.seq)).to.deep.equal([6, 7, 8]);
    } finally {
      await sim.close();
    }
  });
});
