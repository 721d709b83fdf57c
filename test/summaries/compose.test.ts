import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startTestStack, type TestStack } from '../support/stack';
import { fixture } from '../support/documents';
import { summaryFixtures } from './support';
import { createAccount } from '../../db/accounts';
import type { DocumentRow } from '../../db/documents';
import { groupCandidates } from '../../db/summaries';
import { prepareDocument } from '../../documents';
import { readSignedSale, receiptSummaryPayload } from '../../documents/summaries/from-signed';
import { createSummaryActivities } from '../../activities/summaries';
import { createCompanyKeys } from '../../keys/signing-keys';
import { ensureSchedules } from '../../runtime/services';
import { DAILY_SUMMARY_SCHEDULE_ID } from '../../workflows/daily-summary';
import { loadConfig } from '../../core/config';
import { limaDate } from '../../core/lima';
import { addDays } from '../../documents/calendar';

const prepared = (name: string) => prepareDocument(fixture(name));

describe('daily summary composition', function () {
  describe('an rc line read back from a signed document', () => {
    it('carries the receipt’s customer, buckets and taxes as signed', () => {
      expect(readSignedSale(prepared('receipt-icbper.json').xml)).to.deep.include({
        docType: '03',
        serieNumero: 'B001-4',
        currency: 'PEN',
        customer: { tipoDoc: '1', numDoc: '45678912', nombre: 'María Quispe Huamán' },
        igvRate: 18,
        reference: null,
        totals: { gravadas: '42.57', igv: '7.67', icbper: '1.00' },
      });
      // Free lines are their own bucket, by kind (summary-v2); their notional IGV is reported apart, not charged.
      expect(readSignedSale(prepared('receipt-free-transfer.json').xml).totals).to.deep.equal({
        gravadas: '50.00',
        igv: '9.00',
        gratuitasGravadas: '10.00',
        igvGratuitas: '1.80',
      });
      expect(readSignedSale(prepared('receipt-usd.json').xml)).to.deep.include({
        currency: 'USD',
        totals: { exoneradas: '250.00' },
      });
    });

    it('gives notes the receipt they modify (credit and debit notes)', () => {
      expect(readSignedSale(prepared('credit-note-boleta.json').xml)).to.deep.include({
        docType: '07',
        reference: { tipoDoc: '03', serieNumero: 'B001-1' },
      });
      expect(readSignedSale(prepared('debit-note-boleta.json').xml)).to.deep.include({
        docType: '08',
        totals: { gravadas: '10.00', igv: '1.80' },
      });
    });

    it('builds an rc whose line totals equal what each receipt charged', () => {
      const docs = ['receipt-basic.json', 'receipt-icbper.json', 'receipt-anonymous.json'].map(prepared);
      const sales = docs.map((d) => readSignedSale(d.xml));
      const rc = prepareDocument(
        receiptSummaryPayload(
          { correlativo: 7, fechaEmision: '2024-03-16', fechaReferencia: '2024-03-15', issuer: sales[0].issuer },
          'PEN',
          sales.map((sale) => ({ sale, condition: '1' as const })),
        ),
        { today: '2024-03-16' },
      );
      expect(rc.filename).to.equal('20123456786-RC-20240316-7');
      const totals = [...rc.xml.matchAll(/<sac:TotalAmount currencyID="PEN">([\d.]+)<\/sac:TotalAmount>/g)].map(
        (m) => m[1],
      );
      expect(totals).to.deep.equal(docs.map((d) => d.totals!.PayableAmount));
    });
  });

  it('groups by issue date and currency and splits at the line limit', () => {
    const doc = (issue_date: string, currency: string) => ({
      document: { issue_date, currency } as DocumentRow,
      condition: '1' as const,
    });
    const groups = groupCandidates(
      [...Array(7).fill(doc('2024-03-15', 'PEN')), doc('2024-03-15', 'USD'), doc('2024-03-14', 'PEN')],
      3,
    );
    expect(groups.map((g) => [g.referenceDate, g.currency, g.lines.length])).to.deep.equal([
      ['2024-03-15', 'PEN', 3],
      ['2024-03-15', 'PEN', 3],
      ['2024-03-15', 'PEN', 1],
      ['2024-03-15', 'USD', 1],
      ['2024-03-14', 'PEN', 1],
    ]);
  });

  describe('against PostgreSQL', () => {
    let stack: TestStack;
    let accountId: string;
    const { company, issued } = summaryFixtures(
      () => stack,
      () => accountId,
    );
    const activities = () => createSummaryActivities(stack, createCompanyKeys(stack));

    before(async function () {
      this.timeout(120_000);
      stack = await startTestStack({ config: { summary: { hour: 23, maxLines: 2 } } });
      accountId = (await createAccount(stack.db, { name: 'compose', quotaUnits: 0 })).account.id;
    });
    after(() => stack?.stop());

    it('a retried compose step finds its own summaries again instead of generating more', async () => {
      const owner = await company();
      for (const n of [1, 2, 3]) await issued(owner, 'receipt-basic.json', n);
      const first = await activities().composeCompanySummaries(owner.id, 'run-retried');
      expect(first).to.have.length(2);
      expect(await activities().composeCompanySummaries(owner.id, 'run-retried')).to.deep.equal(first);
      expect(await stack.db('documents').where({ company_id: owner.id, doc_type: 'rc' })).to.have.length(2);
    });

    it('two runs composing at once never list a receipt twice', async () => {
      const owner = await company();
      const ids = await Promise.all(
        [1, 2, 3, 4, 5].map(async (n) => (await issued(owner, 'receipt-basic.json', n)).id),
      );
      const runs = await Promise.all(
        ['a', 'b', 'c'].map((r) =>
          activities().composeCompanySummaries(owner.id, `run-${r}-${randomBytes(2).toString('hex')}`),
        ),
      );
      expect(runs.filter((r) => r.length > 0)).to.have.length(1);
      const lines = await stack.db('summary_lines').whereIn('document_id', ids);
      expect(lines.map((l) => l.document_id).sort()).to.deep.equal([...ids].sort());
      // rc numbers of the day are consecutive and unique.
      const numbers = (
        await stack.db('documents').where({ company_id: owner.id, doc_type: 'rc' }).orderBy('number')
      ).map((d) => Number(d.number));
      expect(numbers).to.deep.equal([1, 2, 3]);
    });

    it('a receipt the rc rules refuse is left out with the reason; the rest of the day goes out', async () => {
      const owner = await company();
      const good = await issued(owner, 'receipt-basic.json', 1);
      const note = await issued(owner, 'credit-note-boleta.json', 1);
      // A stored B note that (against the rules) names an invoice as the document it modifies.
      const tampered = note.xml!.replace(/(<cac:InvoiceDocumentReference>.*?<cbc:DocumentTypeCode[^>]*>)03</, '$101<');
      await stack.db('documents').where({ id: note.id }).update({ xml: tampered, issue_date: good.issue_date });
      const ids = await activities().composeCompanySummaries(owner.id, 'run-refusal');
      expect(ids).to.have.length(1);
      const lines = await stack.db('summary_lines').where({ summary_id: ids[0] });
      expect(lines.map((l) => l.document_id)).to.deep.equal([good.id]);
      const left = (await stack.db('documents').where({ id: note.id }).first())!;
      expect(left.status).to.equal('to_summarize');
      expect(left.result).to.include({ origin: 'validation', action: 'review', code: '2399', reached_sunat: false });
      expect(left.result.errors[0]).to.match(/^\[SUNAT 2399\]/);
    });

    it('writes the rate on every line, and the summary 2.0 shape for receipts dated from summary-v2 (CHASQUI_RULE_DATES)', async () => {
      /** The rc the compose step builds for one free-transfer receipt issued today, under a worker with these dates. */
      const composed = async (dates: string) => {
        const owner = await company();
        await issued(owner, 'receipt-free-transfer.json', 1);
        const config = loadConfig({ CHASQUI_RULE_DATES: dates });
        const [id] = await createSummaryActivities(
          { ...stack, config: { ...stack.config, rules: config.rules } },
          createCompanyKeys(stack),
        ).composeCompanySummaries(owner.id, `run-v2-${randomBytes(2).toString('hex')}`);
        return (await stack.db('documents').where({ id }).first()).xml as string;
      };
      const today = limaDate(new Date());
      const before = await composed(`summary-v2=${addDays(today, 1)}`);
      expect(before).to.include('<cbc:Percent>18.00</cbc:Percent>');
      expect([...before.matchAll(/<cbc:InstructionID>(\d+)</g)].map((m) => m[1])).to.deep.equal(['01', '05']);
      expect(before).to.not.include('<cbc:ID>9996</cbc:ID>');
      const after = await composed(`summary-v2=${today}`);
      expect(after).to.include('<cbc:Percent>18.00</cbc:Percent>');
      expect([...after.matchAll(/<cbc:InstructionID>(\d+)</g)].map((m) => m[1])).to.deep.equal(['01', '06']);
      expect(after).to.match(
        /<cbc:TaxAmount currencyID="PEN">1\.80<\/cbc:TaxAmount><cac:TaxCategory><cac:TaxScheme><cbc:ID>9996</,
      );
      expect(after).to.include('<cbc:RegistrationName>María Quispe Huamán</cbc:RegistrationName>');
    });

    it('the schedule runs every day at the configured hour, Lima time, and follows a changed hour', async () => {
      const id = `${DAILY_SUMMARY_SCHEDULE_ID}-${stack.config.temporal.taskQueue}`;
      const describe = () => stack.temporal.schedule.getHandle(id).describe();
      await ensureSchedules(stack.temporal, stack.config);
      let spec = (await describe()).spec;
      expect(spec.timezone).to.equal('America/Lima');
      expect(spec.calendars?.[0]).to.deep.include({ hour: [{ start: 23, end: 23, step: 1 }] });
      await ensureSchedules(stack.temporal, { ...stack.config, summary: { hour: 21, maxLines: 2 } });
      spec = (await describe()).spec;
      expect(spec.calendars?.[0]).to.deep.include({ hour: [{ start: 21, end: 21, step: 1 }] });
    });
  });
});
