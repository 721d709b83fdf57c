import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { startIssuingStack, newCompany, payload, issue, until } from '../issuing/support';
import type { IssuingStack, TestCompany } from '../issuing/support';
import { keysOf, startTestS3, type TestS3 } from '../support/s3';
import { findDocument } from '../../db/documents';
import { readAll } from '../../files/store';

/**
 * Issue 36's chaos run: the S3-compatible server is killed (SIGKILL) while invoices are being issued and delivered,
 * and started again a moment later. Every invoice answered 202 has its signed XML in the bucket, reaches its verdict
 * and has its CDR there too (the worker's reads and writes are retried by Temporal); every one answered 503 left no
 * row at all. Nothing acknowledged is lost, and nothing is acknowledged without its file.
 */
describe('files: chaos, the object store killed mid-run', function () {
  this.timeout(600_000);
  let s3: TestS3;
  let s: IssuingStack;
  let a: TestCompany;

  before(async function () {
    this.timeout(600_000);
    s3 = await startTestS3({ prefix: 'chaos' });
    // SUNAT's stand-in given time to answer on a loaded machine: this run is about the store, not the authority.
    s = await startIssuingStack({ files: s3.location, authorityTimeouts: { connectMs: 5_000, responseMs: 20_000 } });
    a = await newCompany(s.stack);
  });
  after(async () => {
    await s?.stop();
    await s3?.stop();
  });

  const object = async (key: string) =>
    readAll(
      (await s3.client.send(new GetObjectCommand({ Bucket: s3.location.bucket, Key: `chaos/${key}` }))).Body as never,
    );

  it('loses no acknowledged document and acknowledges none without its XML', async () => {
    const acknowledged: string[] = [];
    const refused: string[] = [];
    const outcomes: number[] = [];
    let killed = false;
    // Three integrators issuing at once; the store dies after the sixth answer and comes back after the fourth refusal.
    const integrator = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const body = payload('invoice-basic.json', a.ruc);
        const res = await issue(s.stack, a.token, body);
        outcomes.push(res.status);
        if (res.status === 202) acknowledged.push(res.body.external_id);
        else {
          expect(res.status, JSON.stringify(res.body)).to.equal(503);
          expect(res.headers['retry-after']).to.equal('5');
          refused.push(`${body.serie}-${body.correlativo}`);
          // Back after the fourth refusal (the integrators carry on meanwhile).
          if (refused.length === 4) await s3.server.restart();
        }
        if (!killed && outcomes.length >= 6) {
          killed = true;
          await s3.server.kill();
        }
      }
    };
    await Promise.all([integrator(8), integrator(8), integrator(8)]);
    // Issued while it was down: refused, and some got through before and after.
    expect(refused.length, outcomes.join(' ')).to.be.greaterThan(0);
    expect(acknowledged.length).to.be.greaterThan(6);

    for (const id of acknowledged) {
      const row = await until(s.stack, id, ['accepted'], 120_000);
      const xml = await object(keysOf(row).xml!);
      const cdr = await object(keysOf(row).cdr!);
      expect(keysOf(row).xml).to.contain(createHash('sha256').update(xml).digest('hex'));
      expect(keysOf(row).cdr).to.contain(createHash('sha256').update(cdr).digest('hex'));
    }
    for (const number of refused) {
      const [series, correlativo] = number.split('-');
      const rows = await s.stack.db('documents').where({ company_id: a.row.id, series, number: Number(correlativo) });
      expect(rows, `${number} was refused but has a row`).to.have.length(0);
    }
    expect((await findDocument(s.stack.db, acknowledged[0]))!.xml).to.equal(null);
  });
});
