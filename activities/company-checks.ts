/**
 * The company checks' activities: the runner that checks one company (one module per check in activities/checks/),
 * stores the results and notifies their changes. docs/operations.md, "Company checks".
 */
import type { ActivityDeps } from './deps';
import { logger } from '../core/logger';
import { limaDate } from '../core/lima';
import { findCompanyById, type CompanyRow } from '../db/companies';
import { findCertificate } from '../db/certificates';
import {
  listCheckRows,
  listUnnotifiedCheckEvents,
  markCheckEventNotified,
  saveCheckResults,
  type CheckId,
  type CheckResult,
  type CheckStatus,
} from '../db/company-checks';
import { admitRequest } from '../db/rate-limits';
import { openCheckDelivery } from '../db/webhooks';
import { startCheckDeliveryWorkflow } from '../workflows/webhook-client';
import { taskPriority } from '../workflows/priority-types';
import { CHECK_WEBHOOK_EVENT } from '../workflows/webhook-types';
import { createCheckContext, type Check, type CheckContext, type CheckedCompany } from './checks/context';
import { certificateCheck } from './checks/certificate';
import { planCredentialChecks, type CredentialCheckId, type CredentialPlan } from './checks/credentials';
import { seriesGapsCheck } from './checks/series-gaps';
import { sendingWindowCheck } from './checks/sending-window';
import { ruleReadinessCheck } from './checks/rule-readiness';
import { procedureChecks } from './checks/procedures';
import { emailServerCheck } from './checks/email-server';

/** The sliding log (db/rate-limits.ts) every check's SUNAT call shares, whichever run and worker makes it. */
export const CHECKS_RATE_KEY = '00000000-0000-4000-8000-0000c4ec4ec5';

export interface CompanyCheckSummary {
  companyId: string;
  ruc: string;
  statuses: Partial<Record<CheckId, CheckStatus>>;
  /** The one SUNAT call of this run for the company, if any. */
  asked: CredentialCheckId | null;
  /** Changes to warn or fail notified (or stored handled, for a company without a webhook). */
  events: number;
}

export interface CompanyChecksActivities {
  /** The companies a run checks: the given ones that still exist, or every active company. */
  listCheckedCompanies(companyIds: string[] | null): Promise<string[]>;
  /**
   * Runs one company's checks, stores the results and notifies its changes; null when the company is gone;
   * `waitSeconds` (nothing done) when its SUNAT call would pass CHASQUI_CHECKS_RATE: the workflow waits and asks again.
   */
  runCompanyChecks(companyId: string): Promise<CompanyCheckSummary | { waitSeconds: number } | null>;
}

/** The credentials checks in the run's order: those known without SUNAT, then the one asked (if any). */
const credentialChecks =
  (plan: CredentialPlan): Check =>
  async () => [...plan.results, ...(plan.due ? [await plan.due()] : [])];

/** Every check in the order a run stores them (and so the order of their events). */
const checksInOrder = (credentials: CredentialPlan): Check[] => [
  certificateCheck,
  credentialChecks(credentials),
  seriesGapsCheck,
  sendingWindowCheck,
  ruleReadinessCheck,
  procedureChecks,
  emailServerCheck,
];

/** Starts the delivery of every change of the company not yet started; without a webhook, stores it handled. */
async function notifyChanges({ db, temporal, config }: CheckContext, company: CompanyRow): Promise<number> {
  const events = await listUnnotifiedCheckEvents(db, company.id);
  for (const event of events) {
    if (company.webhook_url) {
      const delivery = await openCheckDelivery(db, event, CHECK_WEBHOOK_EVENT);
      await startCheckDeliveryWorkflow(
        temporal,
        config.temporal.taskQueue,
        event.id,
        delivery.id,
        taskPriority(config.temporal, 'interactive', company.account_id),
      );
    }
    await markCheckEventNotified(db, event.id);
  }
  return events.length;
}

export function createCompanyCheckActivities(deps: ActivityDeps): CompanyChecksActivities {
  const ctx = createCheckContext(deps);
  const { config, db } = ctx;

  return {
    async listCheckedCompanies(companyIds) {
      const q = db('companies').where({ active: true }).orderBy('created_at').pluck('id');
      if (companyIds) q.whereIn('id', companyIds);
      return q;
    },

    async runCompanyChecks(companyId) {
      const company = await findCompanyById(db, companyId);
      if (!company) return null;
      const previous = new Map((await listCheckRows(db, [company.id])).map((row) => [row.check, row]));
      const held = company.certificate_id ? await findCertificate(db, company.certificate_id) : undefined;
      const own = held?.origin === 'own';
      const credentials = planCredentialChecks(ctx, { company, own, previous });
      if (credentials.due) {
        // The budget is taken before anything else: a company that must wait is run whole after the wait.
        const admitted = await admitRequest(db, CHECKS_RATE_KEY, config.checks.ratePerMinute, 60);
        if (!admitted.admitted) return { waitSeconds: admitted.resetSeconds };
      }
      const now = new Date();
      const subject: CheckedCompany = { company, held, own, previous, now, today: limaDate(now) };
      const results: CheckResult[] = [];
      for (const check of checksInOrder(credentials)) results.push(...(await check(ctx, subject)));
      await saveCheckResults(db, company.id, results);
      const events = await notifyChanges(ctx, company);
      const statuses = Object.fromEntries(results.map((r) => [r.id, r.status]));
      logger.info({ ruc: company.ruc, statuses, asked: credentials.asked, events }, 'company checks recorded');
      return { companyId: company.id, ruc: company.ruc, statuses, asked: credentials.asked, events };
    },
  };
}
