import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityDeps } from './deps';
import { findCompanyById } from '../db/companies';
import type { NewDocument } from '../db/documents';
import { composeSummaries, findSummaryCompanies, findUnsettledResolvedSummaries, settleSummary, type SettledSummary, type SummaryGroup } from '../db/summaries';
import { DocumentValidationError, formatIssue, prepareDocument } from '../documents';
import { readSignedSale, receiptSummaryPayload } from '../documents/summaries/from-signed';
import { limaDate } from '../core/lima';
import { logger } from '../core/logger';
import { signGenerated, type CompanyKeys } from '../core/signing-keys';

export interface SummaryActivities {
  /** Companies (among `only`, when given) with receipts to summarise or summarised receipts to void, and today's date in Lima. */
  listSummaryCompanies(only: string[] | null): Promise<{ today: string; companyIds: string[] }>;
  /** The run's rc documents for one company (generated now, or found again when this step is retried). */
  composeCompanySummaries(companyId: string, runId: string): Promise<string[]>;
  /** Moves what a resolved rc listed to its final state (or back to the pool when the rc was rejected). */
  settleSummary(summaryId: string): Promise<SettledSummary>;
}

/**
 * The I/O of the daily summary run (workflows/daily-summary.ts). The rc is built from the stored signed receipts
 * (what was signed is what is reported), validated like any integrator's rc, signed with the key that signs the
 * company's documents, and stored together with its lines in one transaction.
 */
export function createSummaryActivities(deps: ActivityDeps, keys: CompanyKeys): SummaryActivities {
  return {
    async listSummaryCompanies(only) {
      for (const id of await findUnsettledResolvedSummaries(deps.db)) await settleSummary(deps.db, id);
      return { today: limaDate(new Date()), companyIds: await findSummaryCompanies(deps.db, only) };
    },

    async composeCompanySummaries(companyId, runId) {
      const company = await findCompanyById(deps.db, companyId);
      if (!company) return [];
      const today = limaDate(new Date());

      const build = async (group: SummaryGroup, correlativo: number): Promise<NewDocument> => {
        const lines = group.lines.map((line) => ({ sale: readSignedSale(line.document.xml), condition: line.condition }));
        const payload = receiptSummaryPayload(
          { correlativo, fechaEmision: today, fechaReferencia: group.referenceDate, issuer: lines[0].sale.issuer },
          group.currency,
          lines,
        );
        let prepared;
        try {
          prepared = prepareDocument(payload, { issuerRuc: company.ruc, today });
        } catch (err) {
          if (!(err instanceof DocumentValidationError)) throw err;
          // Nothing was stored: the receipts stay pending. A bad stored receipt needs a person, not a retry loop.
          const problems = err.issues.map(formatIssue).join('; ');
          logger.error({ companyId, runId, problems }, 'daily summary could not be built');
          throw ApplicationFailure.nonRetryable(`the daily summary of ${company.ruc} for ${group.referenceDate} is invalid: ${problems}`, 'SummaryInvalid');
        }
        return signGenerated(keys, company, prepared);
      };

      const ids = await composeSummaries(deps.db, { companyId, runId, maxLines: deps.config.summary.maxLines, today }, build);
      if (ids.length) logger.info({ companyId, ruc: company.ruc, runId, summaries: ids.length }, 'daily summaries ready');
      return ids;
    },

    async settleSummary(summaryId) {
      const settled = await settleSummary(deps.db, summaryId);
      logger.info({ summaryId, ...settled }, 'daily summary settled');
      return settled;
    },
  };
}
