import { expect } from 'chai';
import { issue, newCompany, payload, startIssuingStack, type IssuingStack, type TestCompany } from './support';
import { findDocument } from '../../db/documents';
import { limaDate } from '../../core/lima';

/** SUNAT's bounds are refused before signing: each with its SUNAT code and the path of what is wrong. */
describe("SUNAT's bounds before signing", function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let company: TestCompany;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({}, { worker: false });
    company = await newCompany(env.stack);
  });
  after(() => env?.stop());

  async function refused(
    changes: (doc: Record<string, any>) => void,
  ): Promise<{ code: string; path: string | null; message: string }[]> {
    const doc = payload('invoice-basic.json', company.ruc);
    changes(doc);
    const res = await issue(env.stack, company.token, doc);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    // Spec 7.4: an error that carries a code reads "[<source> <code>] <text>".
    res.body.details.forEach((d: { code: string | null }, i: number) => {
      if (d.code) expect(res.body.errors[i]).to.match(new RegExp(`^\\[(SUNAT|chasqui) ${d.code}\\] `));
    });
    return res.body.details;
  }

  it('at most 999 lines (SUNAT numbers lines with 3 digits): 1,000 is a 422 [SUNAT 2023] on items', async () => {
    const details = await refused((doc) => (doc.items = Array.from({ length: 1000 }, () => ({ ...doc.items[0] }))));
    expect(details[0]).to.include({ code: '2023', path: 'items' });
    expect(details[0].message).to.contain('999');
    const doc = payload('invoice-basic.json', company.ruc);
    doc.items = Array.from({ length: 999 }, () => ({ ...doc.items[0] }));
    expect((await issue(env.stack, company.token, doc)).status).to.equal(202);
  });

  it('13 integer digits are refused with the format code of the field', async () => {
    expect((await refused((doc) => (doc.items[0].valorUnitario = 1234567890123)))[0]).to.include({
      code: '2369',
      path: 'items[0].valorUnitario',
    });
    expect((await refused((doc) => (doc.items[0].cantidad = '1234567890123.5')))[0]).to.include({
      code: '2025',
      path: 'items[0].cantidad',
    });
    expect((await refused((doc) => (doc.items[0].valorUnitario = 1e20)))[0]).to.include({
      code: '2369',
      path: 'items[0].valorUnitario',
    });
    expect(
      (await refused((doc) => (doc.items[0].descuentos = [{ codigo: '00', monto: '1234567890123' }])))[0],
    ).to.include({ code: '2955', path: 'items[0].descuentos[0].monto' });
  });

  it('amounts chasqui computes are bounded too: 12 digits × 12 digits is a 422 on the line', async () => {
    const details = await refused((doc) =>
      Object.assign(doc.items[0], { cantidad: 999999999999, valorUnitario: 999999999999 }),
    );
    expect(details.map((d) => d.code)).to.include('2370');
    expect(details.find((d) => d.code === '2370')!.path).to.equal('items[0]');
  });

  it('more decimals than the format allows are refused', async () => {
    expect((await refused((doc) => (doc.items[0].valorUnitario = '1.12345678901')))[0]).to.include({
      code: '2369',
      path: 'items[0].valorUnitario',
    });
  });

  it('correlativo is 1–99999999: "0", "1e3", -1, 1.5 and 9 digits are refused with one message; 1000 and "1000" alike', async () => {
    for (const value of ['0', '00000000', '1e3', -1, 1.5, '123456789', 100000000, '']) {
      const details = await refused((doc) => (doc.correlativo = value));
      expect(details[0], String(value)).to.include({ code: '1001', path: 'correlativo' });
      expect(details[0].message).to.contain('1 to 99999999');
    }
  });

  it('a number is a number: 100, "100", 1e2 and "1e2" issue the same amounts; other spellings get one message', async () => {
    const totals: unknown[] = [];
    for (const value of [100, '100', 1e2, '1e2', '1.0E2']) {
      const res = await issue(env.stack, company.token, {
        ...payload('invoice-basic.json', company.ruc),
        items: [{ ...payload('invoice-basic.json', company.ruc).items[0], valorUnitario: value }],
      });
      expect(res.status, `${value}: ${JSON.stringify(res.body)}`).to.equal(202);
      totals.push((await findDocument(env.stack.db, res.body.external_id))!.totals);
    }
    expect(new Set(totals.map((t) => JSON.stringify(t))).size).to.equal(1);
    for (const value of ['0x64', '1,000', '100 soles', 'Infinity', '.5', true]) {
      const details = await refused((doc) => (doc.items[0].valorUnitario = value));
      expect(details[0], String(value)).to.include({ path: 'items[0].valorUnitario', code: '2369' });
      expect(details[0].message).to.contain('must be a number');
    }
  });

  it('text lengths as SUNAT checks them: a description over 500 characters is [SUNAT 2027], a customer name over 1500 is [SUNAT 2022]', async () => {
    expect((await refused((doc) => (doc.items[0].descripcion = 'x'.repeat(501))))[0]).to.include({
      code: '2027',
      path: 'items[0].descripcion',
    });
    expect((await refused((doc) => (doc.cliente.nombre = 'x'.repeat(1501))))[0]).to.include({
      code: '2022',
      path: 'cliente.nombre',
    });
  });

  it('a discount larger than its base names its path', async () => {
    const details = await refused((doc) => (doc.items[0].descuentos = [{ codigo: '00', monto: 500 }]));
    expect(details[0]).to.include({ code: '3290', path: 'items[0].descuentos' });
  });
});

describe("SUNAT's sending window (2108)", function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let company: TestCompany;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({ issuing: { sendingWindowDays: 3 } as never }, { worker: false });
    company = await newCompany(env.stack);
  });
  after(() => env?.stop());

  const daysAgo = (n: number) => limaDate(new Date(Date.now() - n * 86_400_000));
  const issueDated = (date: string) =>
    issue(env.stack, company.token, { ...payload('invoice-basic.json', company.ruc), fechaEmision: date });

  it('past the window: a 422 [SUNAT 2108] on fechaEmision, nothing signed', async () => {
    const res = await issueDated(daysAgo(4));
    expect(res.status).to.equal(422);
    expect(res.body.details[0]).to.include({ code: '2108', path: 'fechaEmision' });
    expect(res.body.errors[0]).to.match(/^\[SUNAT 2108\] .*up to 3 days after its issue date/);
  });

  it('on its last day (it closes within 24 hours): 202 with a warning; earlier: no warning', async () => {
    const last = await issueDated(daysAgo(3));
    expect(last.status).to.equal(202);
    expect(last.body.warnings).to.be.an('array');
    expect(last.body.warnings.join('\n')).to.match(/\[SUNAT 2108\] today is the last day .* within 24 hours/);
    const fresh = await issueDated(daysAgo(0));
    expect(fresh.status).to.equal(202);
    expect(fresh.body).to.not.have.property('warnings');
  });

  it('a date more than two days ahead is refused (2329, Factura2_0 row 14)', async () => {
    const res = await issueDated(daysAgo(-3));
    expect(res.status).to.equal(422);
    expect(res.body.details[0]).to.include({ code: '2329', path: 'fechaEmision' });
  });
});
