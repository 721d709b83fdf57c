import { expect } from 'chai';
import {
  DOCUMENT_STATUSES,
  firstStep,
  NO_TICKET_TO_POLL,
  recordedKind,
  resolutionFollowUp,
  stepAfterWait,
} from '../../lifecycle/transitions';

describe('lifecycle: the document workflow’s next step and a resolution’s follow-up (pure)', () => {
  it('starts by polling a ticket it holds, querying a send without verdict, else sending', () => {
    expect(firstStep('registered', '1703154974517')).to.equal('ticket');
    expect(firstStep('registered', null)).to.equal('send');
    expect(firstStep('sent', null)).to.equal('query');
    for (const status of ['queued', 'to_send'] as const) expect(firstStep(status, null)).to.equal('send');
  });

  it('after a wait: a retry sends, a ticket polls; no verdict queries, or sends when a resend was asked for', () => {
    const wait = { resendRequested: false, queryable: true, ticket: null };
    expect(stepAfterWait('retry', { ...wait, resendRequested: true })).to.equal('send');
    expect(stepAfterWait('ticket', { ...wait, resendRequested: true })).to.equal('ticket');
    expect(stepAfterWait('unknown', wait)).to.equal('query');
    expect(stepAfterWait('unknown', { ...wait, resendRequested: true })).to.equal('send');
    // An OSE (nothing to query) polls the ticket the document holds; a queryable document queries even then.
    expect(stepAfterWait('unknown', { ...wait, queryable: false, ticket: 't' })).to.equal('ticket');
    expect(stepAfterWait('unknown', { ...wait, queryable: true, ticket: 't' })).to.equal('query');
    expect(stepAfterWait('unknown', { ...wait, queryable: false })).to.equal('query');
  });

  it('a ticket poll without a ticket is a retry, as a recorded queued status reads', () => {
    expect(NO_TICKET_TO_POLL).to.deep.equal({ kind: 'retry', status: 'queued' });
    expect(recordedKind(NO_TICKET_TO_POLL.status)).to.equal(NO_TICKET_TO_POLL.kind);
    expect(DOCUMENT_STATUSES).to.include(NO_TICKET_TO_POLL.status);
  });

  it('only the call that resolved a document asks for the e-mail; the webhook is skipped, opened here or left to the workflow', () => {
    expect(resolutionFollowUp('no_webhook', true, true)).to.deep.equal({ email: true, webhook: 'none' });
    expect(resolutionFollowUp('webhook_due', true, true)).to.deep.equal({ email: true, webhook: 'open_here' });
    expect(resolutionFollowUp('webhook_due', false, false)).to.deep.equal({ email: false, webhook: 'workflow' });
    expect(resolutionFollowUp('not_resolved_here', true, true)).to.deep.equal({ email: false, webhook: 'workflow' });
  });
});
