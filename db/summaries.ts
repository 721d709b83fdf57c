/**
 * Daily summaries (docs/summaries.md): which receipts and voids a run owes, the rc documents it composes with their
 * lines, and what an rc's verdict does to them. The void requests themselves are db/voids.ts's.
 */
import type { Knex } from 'knex';
import type { Db } from './knex';
import { emailDue } from '../lifecycle/email';
import {
  findDocument,
  insertDocument,
  recordOutcome,
  type DocumentResult,
  type DocumentRow,
  type NewDocument,
} from './documents';
import type { ConditionCode } from '../documents/summaries/from-signed';
import { afterSummary, AWAITING_SUMMARY, isObserved, VALID_VERDICT_STATUSES } from '../lifecycle/transitions';

export interface SummaryCandidate {
  document: DocumentRow;
  condition: ConditionCode;
}

/** One rc to generate: candidates of one issue date and currency, at most the line limit. */
export interface SummaryGroup {
  referenceDate: string;
  currency: string;
  lines: SummaryCandidate[];
}

/** What `build` made of a group: the signed rc of the lines it could list (null if none), and the lines it could not, with why. */
export interface BuiltSummary {
  document: NewDocument | null;
  refused: { candidate: SummaryCandidate; problems: string[] }[];
}

/** Lines of summaries that are out or done (a rejected summary's lines no longer count). */
function liveLine(db: Db | Knex.Transaction, condition: ConditionCode) {
  return db('summary_lines as l')
    .whereRaw('l.document_id = d.id')
    .where('l.condition_code', condition)
    .whereNot('l.state', 'rejected');
}

/** A summary of this run already failed with it: it waits for the next run (a run never loops on a rejection). */
function rejectedInRun(db: Db | Knex.Transaction, runId: string, condition: ConditionCode) {
  return db('summary_lines as l')
    .join('summaries as s', 's.document_id', 'l.summary_id')
    .whereRaw('l.document_id = d.id')
    .where({ 'l.condition_code': condition, 'l.state': 'rejected', 's.run_id': runId });
}

/** Receipts a summary must add (condition 1); with a run id, not those a summary of that run already failed with. */
function pendingAdds(db: Db | Knex.Transaction, runId: string | null) {
  const q = db('documents as d')
    .where('d.status', AWAITING_SUMMARY)
    // Receipts, and notes of the B series (notes of invoices are sent on their own).
    .where((q) =>
      q.where('d.doc_type', '03').orWhere((n) => n.whereIn('d.doc_type', ['07', '08']).where('d.series', 'like', 'B%')),
    )
    .whereNotExists(liveLine(db, '1'));
  return runId ? q.whereNotExists(rejectedInRun(db, runId, '1')) : q;
}

/** Summarised receipts whose void a summary must carry (condition 3). */
function pendingVoids(db: Db | Knex.Transaction, runId: string | null) {
  const q = db('documents as d')
    .join('document_voids as v', 'v.document_id', 'd.id')
    .where('v.via', 'rc')
    .whereIn('d.status', VALID_VERDICT_STATUSES)
    .whereNotExists(liveLine(db, '3'));
  return runId ? q.whereNotExists(rejectedInRun(db, runId, '3')) : q;
}

/**
 * Companies the daily run has work for (among `only`, when given): receipts waiting for a summary, or voids of
 * summarised receipts. Companies that sign externally are left out: chasqui holds no key to sign their summary.
 */
export async function findSummaryCompanies(db: Db, only: string[] | null = null): Promise<string[]> {
  const query = db
    .select('d.company_id')
    .from(pendingAdds(db, null).select('d.company_id').union(pendingVoids(db, null).select('d.company_id')).as('d'))
    .join('companies as c', 'c.id', 'd.company_id')
    .whereNot('c.signing', 'external')
    .where('c.active', true)
    .distinct()
    .orderBy('d.company_id');
  const rows = await (only ? query.whereIn('d.company_id', only) : query);
  return rows.map((r: { company_id: string }) => r.company_id);
}

/** Summaries a run generated that have not been settled yet (a retried step finds them instead of generating more). */
export async function openSummariesOfRun(db: Db | Knex.Transaction, runId: string): Promise<string[]> {
  const rows = await db('summaries')
    .where({ run_id: runId })
    .whereNull('settled_at')
    .orderBy('created_at')
    .select('document_id');
  return rows.map((r: { document_id: string }) => r.document_id);
}

/**
 * Summaries resolved but never settled: their run ended before it could (terminated, reset, failed). Settling is
 * idempotent, so the next run settles them whoever owned them.
 */
export async function findUnsettledResolvedSummaries(db: Db): Promise<string[]> {
  const rows = await db('summaries as s')
    .join('documents as d', 'd.id', 's.document_id')
    .whereNull('s.settled_at')
    .where('d.resolved', true)
    .select('s.document_id');
  return rows.map((r: { document_id: string }) => r.document_id);
}

/**
 * Next free correlativo of a summary type (`RC-20240315`) for a company's RUC: after every one issued, by the run or
 * by the integrator, from any account holding the RUC (one number is one document per RUC). The advisory lock, held
 * until the transaction ends, keeps two accounts of one RUC from picking the same number at once.
 */
export async function nextSequence(trx: Knex.Transaction, companyId: string, series: string): Promise<number> {
  const company = await trx('companies').where({ id: companyId }).first('ruc', 'environment');
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
    `${company.ruc}/${company.environment}/${series}`,
  ]);
  const row = await trx('documents')
    .where({ ruc: company.ruc, environment: company.environment, series })
    .max<{ max: string | null }>('number as max')
    .first();
  return Number(row?.max ?? 0) + 1;
}

/** Splits candidates into rc groups: one issue date and one currency each, at most `maxLines` lines. */
export function groupCandidates(candidates: SummaryCandidate[], maxLines: number): SummaryGroup[] {
  const byKey = new Map<string, SummaryCandidate[]>();
  for (const c of candidates) {
    const key = `${c.document.issue_date} ${c.document.currency ?? 'PEN'}`;
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  const groups: SummaryGroup[] = [];
  for (const lines of byKey.values()) {
    for (let i = 0; i < lines.length; i += maxLines) {
      groups.push({
        referenceDate: lines[0].document.issue_date,
        currency: lines[0].document.currency ?? 'PEN',
        lines: lines.slice(i, i + maxLines),
      });
    }
  }
  return groups;
}

/**
 * Generates a run's summaries for one company in ONE transaction (the company row locked, so two runs never claim the
 * same receipt): picks what is pending, groups it, asks `build` for each signed rc (given its correlativo), stores
 * the rc document (its workflow is started by the run, hence `workflow_started_at`), its summary row and its lines.
 * Lines `build` refused stay pending with the problem in their `result` (one bad receipt never holds back the rest).
 * If the run already has open summaries (a retried step) they are returned and nothing new is generated.
 */
export async function composeSummaries(
  db: Db,
  input: {
    companyId: string;
    runId: string;
    maxLines: number;
    /** Generation date (Lima): the rc's IssueDate and series. */ today: string;
  },
  build: (group: SummaryGroup, correlativo: number) => Promise<BuiltSummary>,
): Promise<string[]> {
  return db.transaction(async (trx) => {
    await trx('companies').where({ id: input.companyId }).forUpdate().first('id');
    const open = await openSummariesOfRun(trx, input.runId);
    if (open.length) return open;

    const order = ['d.issue_date', 'd.doc_type', 'd.series', 'd.number'];
    const adds: DocumentRow[] = await pendingAdds(trx, input.runId)
      .where('d.company_id', input.companyId)
      .orderBy(order)
      .select('d.*');
    const voids: DocumentRow[] = await pendingVoids(trx, input.runId)
      .where('d.company_id', input.companyId)
      .orderBy(order)
      .select('d.*');
    const groups = groupCandidates(
      [
        ...adds.map((document) => ({ document, condition: '1' as const })),
        ...voids.map((document) => ({ document, condition: '3' as const })),
      ],
      input.maxLines,
    );

    const created: string[] = [];
    let sequence = await nextSequence(trx, input.companyId, `RC-${input.today.replace(/-/g, '')}`);
    for (const group of groups) {
      const built = await build(group, sequence);
      for (const { candidate, problems } of built.refused) await recordRefusal(trx, candidate, problems);
      if (!built.document) continue;
      sequence++;
      const rc = await insertDocument(trx, built.document);
      await trx('documents').where({ id: rc.id }).update({ workflow_started_at: trx.fn.now() });
      await trx('summaries').insert({
        document_id: rc.id,
        company_id: input.companyId,
        run_id: input.runId,
        reference_date: group.referenceDate,
      });
      const refused = new Set(built.refused.map((r) => r.candidate));
      await trx('summary_lines').insert(
        group.lines
          .filter((line) => !refused.has(line))
          .map((line, i) => ({
            summary_id: rc.id,
            document_id: line.document.id,
            line_no: i + 1,
            condition_code: line.condition,
          })),
      );
      created.push(rc.id);
    }
    return created;
  });
}

/** A receipt (or void) no summary can list as stored: it stays pending and says why, for support to act on. */
async function recordRefusal(trx: Knex.Transaction, candidate: SummaryCandidate, problems: string[]): Promise<void> {
  const result: DocumentResult = {
    code: /^\[\S+ (\S+)\]/.exec(problems[0] ?? '')?.[1] ?? null,
    message: `It could not be listed in a daily summary and stays pending: ${problems.join('; ')}`,
    errors: problems,
    origin: 'validation',
    origin_description: 'chasqui could not build the daily summary line of this document; it was not sent.',
    action: 'review',
    reached_sunat: false,
  };
  if (candidate.condition === '1')
    await trx('documents')
      .where({ id: candidate.document.id, status: AWAITING_SUMMARY })
      .update({ result: JSON.stringify(result), updated_at: trx.fn.now() });
  else
    await trx('document_voids')
      .where({ document_id: candidate.document.id })
      .update({ result: JSON.stringify(result) });
}

export interface SettledSummary {
  status: DocumentRow['status'];
  added: number;
  voided: number;
  /** Receipts this settlement accepted whose buyer is e-mailed (absent in results recorded by older workers). */
  emails?: string[];
}

/** The receipt's own `result` after its summary resolved: the summary's verdict, naming the summary. */
function receiptResult(rc: DocumentRow, verdict: string): DocumentResult {
  const base: DocumentResult = rc.result ?? {
    code: null,
    message: '',
    errors: [],
    origin: null,
    origin_description: null,
    action: null,
    reached_sunat: null,
  };
  return {
    ...base,
    message: `Daily summary ${rc.filename} (external_id ${rc.id}) ${verdict}${base.message ? `: ${base.message}` : ''}`,
  };
}

/**
 * Applies a resolved rc's verdict to what it listed. Accepted or observed: every added receipt is resolved the same
 * way through `recordOutcome` (its `cpe.resolved` event, hence its webhook) and its void lines are done. Rejected:
 * added receipts stay `to_summarize` with a result naming the failed summary and why, and pending voids keep
 * waiting; both go into the next run. Safe to run again: resolved receipts are not touched twice.
 */
export async function settleSummary(db: Db, summaryId: string): Promise<SettledSummary> {
  const rc = (await db('documents').where({ id: summaryId }).first()) as DocumentRow | undefined;
  if (!rc || !rc.resolved) throw new Error(`summary ${summaryId} is not resolved yet`);
  const lines: { document_id: string; condition_code: ConditionCode }[] = await db('summary_lines')
    .where({ summary_id: summaryId })
    .orderBy('line_no');
  const adds = lines.filter((l) => l.condition_code === '1').map((l) => l.document_id);
  const voids = lines.filter((l) => l.condition_code === '3').map((l) => l.document_id);

  const emails: string[] = [];
  if (afterSummary(rc.status) === AWAITING_SUMMARY) {
    await db.transaction(async (trx) => {
      const failed = receiptResult(rc, 'was rejected; this document goes into the next daily summary');
      if (adds.length)
        await trx('documents')
          .whereIn('id', adds)
          .where({ status: AWAITING_SUMMARY })
          .update({ result: JSON.stringify(failed), updated_at: trx.fn.now() });
      if (voids.length)
        await trx('document_voids')
          .whereIn('document_id', voids)
          .update({ result: JSON.stringify(failed) });
      await trx('summary_lines').where({ summary_id: summaryId }).update({ state: 'rejected' });
      await trx('summaries')
        .where({ document_id: summaryId })
        .whereNull('settled_at')
        .update({ settled_at: trx.fn.now() });
    });
  } else {
    const result = receiptResult(rc, isObserved(rc.status) ? 'was accepted with observations' : 'was accepted');
    for (const id of adds) {
      const stored = await recordOutcome(db, id, {
        status: afterSummary(rc.status),
        result,
        ticket: rc.ticket,
        sent: true,
      });
      if (emailDue(stored)) emails.push(id);
    }
    await db.transaction(async (trx) => {
      if (voids.length)
        await trx('document_voids')
          .whereIn('document_id', voids)
          .update({ result: JSON.stringify(receiptResult(rc, 'voided it')) });
      await trx('summary_lines').where({ summary_id: summaryId }).update({ state: rc.status });
      await trx('summaries')
        .where({ document_id: summaryId })
        .whereNull('settled_at')
        .update({ settled_at: trx.fn.now() });
    });
  }
  return { status: rc.status, added: adds.length, voided: voids.length, ...(emails.length ? { emails } : {}) };
}
