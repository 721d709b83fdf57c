import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getStatus, getStatusCdr, readCdrZip, sendBill, sendSummary } from '../../authority';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { sample } from '../authority/support';
import { invoice, summary } from '../support/ubl-fixtures';
import { CREDS, RUC, sign, urls } from './support';

describe('simulator behaves like SUNAT (through the connectors, over real HTTP)', () => {
  let sim: SimulatorHandle;
  beforeEach(async () => {
    sim = await startTestSimulator({ ticketPolls: 2 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('accepts a signed sample of samples/signed-rsa-sha256 and answers 2335 for its tampered copy', async () => {
    const creds = { ruc: '12345678912', solUser: 'MODDATOS', solPassword: 'moddatos' };
    const xml = sample('signed-rsa-sha256/12345678912-01-F001-1.xml');
    const accepted = await sendBill(urls(sim).bill, creds, { filename: '12345678912-01-F001-1', xml });
    expect(accepted).to.deep.include({ status: 'accepted', code: '0', origin: null });
    expect(accepted.cdr).to.deep.include({
      referenceId: 'F001-1',
      receiverId: '12345678912',
      senderId: '20131312955',
      signed: true,
    });
    expect(accepted.cdr?.fileName).to.equal('R-12345678912-01-F001-1.xml');

    const tampered = xml.replace('12121212121', '12121212122');
    expect(tampered).to.not.equal(xml);
    const sent = await sendBill(urls(sim).bill, creds, {
      filename: '12345678912-01-FF11-1',
      xml: tampered.replace(/F001-1</g, 'FF11-1<'),
    });
    expect(sent).to.deep.include({ status: 'rejected', code: '2335', origin: 'tax_authority', action: 'correct' });
    expect(sent.errors[0]).to.match(/^\[SUNAT 2335\] El documento electrónico ingresado ha sido alterado/);
  });

  it('accepts chasqui-signed documents (string verification path) and rejects one altered after signing', async () => {
    const good = sign(invoice({ ruc: RUC, series: 'F001', number: 1 }));
    expect(await sendBill(urls(sim).bill, CREDS, good)).to.deep.include({ status: 'accepted', code: '0' });
    const altered = sign(invoice({ ruc: RUC, series: 'F001', number: 2 }));
    const result = await sendBill(urls(sim).bill, CREDS, {
      ...altered,
      xml: altered.xml.replace('Servicio de prueba', 'Servicio alterado'),
    });
    expect(result).to.deep.include({ status: 'rejected', code: '2335' });
  });

  it('checks the file name against the content (1034, 1035, 1036, 1003) and wants a signature (1059)', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 5 }));
    const cases: [string, string][] = [
      ['20999999999-01-F001-5', '1034'],
      [`${RUC}-01-F002-5`, '1035'],
      [`${RUC}-01-F001-6`, '1036'],
      [`${RUC}-03-F001-5`, '1003'],
    ];
    for (const [filename, code] of cases) {
      const creds = { ...CREDS, ruc: filename.slice(0, 11) };
      const result = await sendBill(urls(sim).bill, creds, { filename, xml: doc.xml });
      expect(result, code).to.deep.include({ code, status: 'rejected', origin: 'tax_authority' });
    }
    const unsigned = invoice({ ruc: RUC, series: 'F001', number: 7 });
    expect(await sendBill(urls(sim).bill, CREDS, unsigned)).to.deep.include({ code: '1059', status: 'rejected' });
  });

  it('refuses wrong credentials (0102) and a file of another RUC (0154); accepts users of the credentials table', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 8 }));
    expect(await sendBill(urls(sim).bill, { ...CREDS, solPassword: 'wrong' }, doc)).to.deep.include({
      code: '0102',
      status: 'rejected',
    });
    expect(await sendBill(urls(sim).bill, { ...CREDS, ruc: '20999999999' }, doc)).to.deep.include({ code: '0154' });
    const table = await startTestSimulator({ credentials: [{ ruc: RUC, user: 'FACTURA1', password: 's3cret' }] });
    try {
      expect(
        await sendBill(urls(table).bill, { ruc: RUC, solUser: 'FACTURA1', solPassword: 's3cret' }, doc),
      ).to.deep.include({ status: 'accepted' });
      expect(
        await sendBill(urls(table).bill, { ruc: RUC, solUser: 'FACTURA1', solPassword: 'other' }, doc),
      ).to.deep.include({ code: '0102' });
    } finally {
      await table.close();
    }
  });

  it('rejects a number it already accepted (1033, already reported) and one it rejected (1032)', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 9 }));
    expect((await sendBill(urls(sim).bill, CREDS, doc)).status).to.equal('accepted');
    expect(await sendBill(urls(sim).bill, CREDS, doc)).to.deep.include({
      code: '1033',
      alreadyReported: true,
      needsStatusQuery: true,
      action: 'review',
    });
    const wrong = sign(invoice({ ruc: RUC, series: 'F001', number: 10, igv: '30.00' }));
    expect((await sendBill(urls(sim).bill, CREDS, wrong)).code).to.equal('3291');
    expect(await sendBill(urls(sim).bill, CREDS, wrong)).to.deep.include({ code: '1032', alreadyReported: true });
  });

  it('checks the arithmetic: IGV against its base (3291) and the total with taxes (3279)', async () => {
    const igv = await sendBill(
      urls(sim).bill,
      CREDS,
      sign(invoice({ ruc: RUC, series: 'F001', number: 11, base: '100.00', igv: '25.00' })),
    );
    expect(igv).to.deep.include({ code: '3291', status: 'rejected' });
    const total = sign(invoice({ ruc: RUC, series: 'F001', number: 12 }));
    const broken = sign({
      ...total,
      xml: invoice({ ruc: RUC, series: 'F001', number: 12 }).xml.replace(
        '<cbc:TaxInclusiveAmount currencyID="PEN">118.00',
        '<cbc:TaxInclusiveAmount currencyID="PEN">150.00',
      ),
    });
    expect(await sendBill(urls(sim).bill, CREDS, broken)).to.deep.include({ code: '3279', status: 'rejected' });
  });

  it('summaries: a ticket stays at 98 for the configured polls, then 0 with the CDR; a second copy ends in 99 (2223)', async () => {
    const rc = sign(summary(RUC, '2026-11-21', 1));
    const sent = await sendSummary(urls(sim).bill, CREDS, rc);
    expect(sent).to.deep.include({ status: 'ticket', origin: null });
    const ticket = sent.ticket!;
    expect(ticket).to.match(/^\d{13,16}$/);
    for (let i = 0; i < 2; i++)
      expect(await getStatus(urls(sim).bill, CREDS, ticket)).to.deep.include({ status: 'pending', code: '98', ticket });
    const done = await getStatus(urls(sim).bill, CREDS, ticket);
    expect(done).to.deep.include({ status: 'accepted', code: '0', ticket });
    expect(done.cdr?.referenceId).to.equal('RC-20261121-1');

    const again = await sendSummary(urls(sim).bill, CREDS, rc);
    await getStatus(urls(sim).bill, CREDS, again.ticket!);
    await getStatus(urls(sim).bill, CREDS, again.ticket!);
    expect(await getStatus(urls(sim).bill, CREDS, again.ticket!)).to.deep.include({
      code: '2223',
      alreadyReported: true,
      status: 'unknown',
    });
    expect(await getStatus(urls(sim).bill, CREDS, '999')).to.deep.include({ code: '0127', status: 'rejected' });
  });

  it('a rejected summary ends in 99 with the rejection CDR', async () => {
    sim.addRule({
      operation: 'sendSummary',
      fault: { kind: 'reject', code: '2220', message: 'El ID debe coincidir con el nombre del archivo' },
    });
    const sent = await sendSummary(urls(sim).bill, CREDS, sign(summary(RUC, '2026-11-21', 9)));
    await getStatus(urls(sim).bill, CREDS, sent.ticket!);
    await getStatus(urls(sim).bill, CREDS, sent.ticket!);
    const done = await getStatus(urls(sim).bill, CREDS, sent.ticket!);
    expect(done).to.deep.include({
      status: 'rejected',
      code: '2220',
      origin: 'tax_authority',
      action: 'correct',
      ticket: sent.ticket,
    });
    expect(done.cdr?.responseCode).to.equal('2220');
    expect(sim.log().at(-1)).to.deep.include({ operation: 'getStatus', code: '99' });
  });

  it('survives malformed amounts and unknown paths without crashing', async () => {
    const odd = sign({
      ...invoice({ ruc: RUC, series: 'F001', number: 40 }),
      xml: invoice({ ruc: RUC, series: 'F001', number: 40 }).xml.replace(
        '<cbc:TaxableAmount currencyID="PEN">100.00',
        '<cbc:TaxableAmount currencyID="PEN">1,00.0x',
      ),
    });
    expect(await sendBill(urls(sim).bill, CREDS, odd)).to.deep.include({ status: 'accepted' });
    const { default: got } = await import('got');
    expect((await got(`${sim.url}/nowhere`, { throwHttpErrors: false })).statusCode).to.equal(404);
  });

  it('getStatusCdr finds documents received before a restart (state persisted under dataDir)', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chasqui-sim-'));
    try {
      const first = await startTestSimulator({ dataDir });
      const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 20 }));
      const sent = await sendBill(urls(first).bill, CREDS, doc);
      first.addRule({ operation: 'sendBill', number: 21, fault: { kind: 'reject', code: '2800' } });
      await first.close();

      const second = await startTestSimulator({ dataDir });
      try {
        const key = { ruc: RUC, type: '01', series: 'F001', number: 20 };
        const found = await getStatusCdr(urls(second).consult, CREDS, key);
        expect(found).to.deep.include({ status: 'accepted', code: '0', cdrZip: sent.cdrZip });
        expect(await sendBill(urls(second).bill, CREDS, doc)).to.deep.include({ code: '1033' });
        const missing = await getStatusCdr(urls(second).consult, CREDS, { ...key, number: 99 });
        expect(missing).to.deep.include({ code: '0011', reached_sunat: false, action: 'retry' });
        const ruled = await sendBill(urls(second).bill, CREDS, sign(invoice({ ruc: RUC, series: 'F001', number: 21 })));
        expect(ruled).to.deep.include({ code: '2800', status: 'rejected' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers a CDR with SUNAT structure in a zip holding dummy/ and R-<name>.xml', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 30 }));
    const result = await sendBill(urls(sim).bill, CREDS, doc);
    const read = readCdrZip(Buffer.from(result.cdrZip!, 'base64'));
    if (!read.ok) throw new Error(read.reason);
    const { unzipSync } = await import('fflate');
    expect(Object.keys(unzipSync(Buffer.from(result.cdrZip!, 'base64')))).to.deep.equal([
      'dummy/',
      `R-${doc.filename}.xml`,
    ]);
    expect(read.cdr).to.deep.include({
      responseCode: '0',
      referenceId: 'F001-30',
      senderId: '20131312955',
      receiverId: RUC,
      signed: true,
    });
    expect(read.cdr.xml).to.contain('<cbc:ID>6-20100070970</cbc:ID>');
  });
});
