/**
 * Every workflow the chasqui worker runs, one module per capability. Deterministic code only: workflows carry ids
 * and small state, never XML, keys or passwords; activities (activities/) do the I/O.
 */
export { documentWorkflow } from './document';
export { companyProceduresWorkflow } from './company-procedures';
export { documentSweeperWorkflow } from './sweeper';
export { dailySummaryWorkflow, companySummaryWorkflow } from './daily-summary';
export { webhookDeliveryWorkflow } from './webhook-delivery';
export { companyChecksWorkflow } from './company-checks';
export { buyerEmailWorkflow } from './buyer-email';
