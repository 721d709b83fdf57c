import type { ActivityDeps } from './deps';
import { findCompanyById } from '../db/companies';
import {
  composeSummaries,
  findSummaryCompanies,
  findUnsettledResolvedSummaries,
  settleSummary,
  type BuiltSummary,
  type SettledSummary,
  type SummaryGroup,
} from '../db/summaries';
import { DocumentValidationError, formatIssue, prepareDocument } from '../documents';
import { readSignedSale, receiptSummaryPayload } from '../documents/summaries/from-signed';
import { limaDate } from '../core/lima';
import { logger } from '../core/logger';
import { signGenerated, type CompanyKeys } from '../keys/signing-keys';

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

      /** The rc of a group; lines SUNAT's rc rules refuse are taken out (and reported) until the rest is valid. */
      const build = async (group: SummaryGroup, correlativo: number): Promise<BuiltSummary> => {
        const { files } = deps;
        let lines = await Promise.all(
          group.lines.map(async (candidate) => ({
            candidate,
            sale: readSignedSale(await files.xmlOf(candidate.document)),
            condition: candidate.condition,
          })),
        );
        const refused: BuiltSummary['refused'] = [];
        while (lines.length) {
          const header = {
            correlativo,
            fechaEmision: today,
            fechaReferencia: group.referenceDate,
            issuer: lines[0].sale.issuer,
          };
          try {
            const prepared = prepareDocument(receiptSummaryPayload(header, group.currency, lines), {
              issuerRuc: company.ruc,
              today,
              calendar: deps.config.rules,
            });
            // The rc's XML before its row, like every document's (files/): placed inside the run's transaction.
            return { document: await files.placeDocument(await signGenerated(keys, company, prepared)), refused };
          } catch (err) {
            if (!(err instanceof DocumentValidationError)) throw err;
            const byLine = new Map<number, string[]>();
            for (const found of err.issues) {
              const index = /^items\[(\d+)\]/.exec(found.path ?? '');
              // A problem of the summary itself (not of one line) refuses every line.
              for (const i of index ? [Number(index[1])] : lines.map((_, n) => n))
                byLine.set(i, [...(byLine.get(i) ?? []), formatIssue(found)]);
            }
            logger.error(
              { companyId, runId, refused: [...byLine.keys()].map((i) => lines[i].candidate.document.id) },
              'receipts left out of the daily summary',
            );
            for (const [i, problems] of byLine) refused.push({ candidate: lines[i].candidate, problems });
            lines = lines.filter((_, i) => !byLine.has(i));
          }
        }
        return { document: null, refused };
      };

      const ids = await composeSummaries(
        deps.db,
        { companyId, runId, maxLines: deps.config.summary.maxLines, today },
        build,
      );
      if (ids.length)
        logger.info({ companyId, ruc: company.ruc, runId, summaries: ids.length }, 'daily summaries ready');
      return ids;
    },

    async settleSummary(summaryId) {
      const settled = await settleSummary(deps.db, summaryId);
      logger.info({ summaryId, ...settled }, 'daily summary settled');
      return settled;
    },
  };
}
