import { expect } from 'chai';
import * as registered from '../../workflows';
import { documentWorkflow, recheckSignal, resendSignal, sendSignal } from '../../workflows/document';
import { DOCUMENT_SIGNALS, DOCUMENT_WORKFLOW } from '../../workflows/document-types';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery';
import { WEBHOOK_DELIVERY_WORKFLOW } from '../../workflows/webhook-types';
import { buyerEmailWorkflow } from '../../workflows/buyer-email';
import { BUYER_EMAIL_WORKFLOW } from '../../workflows/buyer-email-types';
import { companyChecksWorkflow } from '../../workflows/company-checks';
import { COMPANY_CHECKS_WORKFLOW } from '../../workflows/company-checks-types';
import { companyProceduresWorkflow, rerunProceduresSignal } from '../../workflows/company-procedures';
import { COMPANY_PROCEDURES_WORKFLOW, RERUN_PROCEDURES_SIGNAL } from '../../workflows/company-procedures-types';

/**
 * The clients (workflows/*-client.ts) start and signal workflows by name, importing the workflows as types only
 * (check:boundaries holds them to it): each name is the one the worker registers, and each signal the one it handles.
 */
describe('workflows: the names their clients start and signal them by', () => {
  it('each workflow type a client starts is the name the worker registers (workflows/index.ts)', () => {
    const started = {
      [DOCUMENT_WORKFLOW]: documentWorkflow,
      [WEBHOOK_DELIVERY_WORKFLOW]: webhookDeliveryWorkflow,
      [BUYER_EMAIL_WORKFLOW]: buyerEmailWorkflow,
      [COMPANY_CHECKS_WORKFLOW]: companyChecksWorkflow,
      [COMPANY_PROCEDURES_WORKFLOW]: companyProceduresWorkflow,
    };
    for (const [name, workflow] of Object.entries(started)) {
      expect(workflow.name, name).to.equal(name);
      expect((registered as Record<string, unknown>)[name], name).to.equal(workflow);
    }
  });

  it('each signal a client sends is one its workflow handles', () => {
    expect(rerunProceduresSignal.name).to.equal(RERUN_PROCEDURES_SIGNAL);
    expect([sendSignal.name, resendSignal.name, recheckSignal.name]).to.deep.equal([
      DOCUMENT_SIGNALS.send,
      DOCUMENT_SIGNALS.resend,
      DOCUMENT_SIGNALS.recheck,
    ]);
  });
});
