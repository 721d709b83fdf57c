import { expect } from 'chai';
import {
  afterStep,
  afterSummary,
  DOCUMENT_STATUSES,
  hasOwnWorkflow,
  HOLD,
  initialStatus,
  isResolvedStatus,
  recordedKind,
  RELEASE,
  STATUS_CODES,
  waitingReason,
  type Answer,
  UNRESOLVED_STATUSES,
  voidStatus,
  type DocStatus,
} from '../../lifecycle/transitions';
import * as rules from '../../lifecycle/refusals';
import type { ActionSubject } from '../../lifecycle/refusals';
import { english, spanish, type Message } from '../../lifecycle/messages';

/** The refusals in the API's and the CLI's words (lifecycle/messages/ renders each code). */
const en = (m: Message | null) => (m ? english(m) : null);
const sendRefusal = (d: ActionSubject) => en(rules.sendRefusal(d));
const resendRefusal = (d: ActionSubject) => en(rules.resendRefusal(d));
const supportResendRefusal = (d: ActionSubject) => en(rules.supportResendRefusal(d));
const recheckRefusal = (d: ActionSubject) => en(rules.recheckRefusal(d));

/** The lifecycle's pure table (lifecycle/transitions.ts): every status change chasqui makes, without a database. */
describe('lifecycle: statuses and transitions (pure)', () => {
  const doc = (status: DocStatus, changes: Partial<ActionSubject> = {}): ActionSubject => ({
    id: '3f0c1f4e-8a55-4b8e-9f7e-0c7b5f1f2a10',
    filename: '20123456786-01-F001-10',
    status,
    resolved: isResolvedStatus(status),
    ticket: null,
    result: null,
    ...changes,
  });

  it('one list of statuses, each with its spec 2.5 code (09 is the spec’s rejected), three of them resolved', () => {
    expect(DOCUMENT_STATUSES).to.deep.equal([
      'queued',
      'to_send',
      'to_summarize',
      'registered',
      'sent',
      'accepted',
      'observed',
      'rejected',
    ]);
    expect(Object.keys(STATUS_CODES).sort()).to.deep.equal([...DOCUMENT_STATUSES].sort());
    expect(new Set(Object.values(STATUS_CODES)).size).to.equal(DOCUMENT_STATUSES.length);
    expect(STATUS_CODES.rejected).to.equal('09');
    expect(DOCUMENT_STATUSES.filter(isResolvedStatus)).to.deep.equal(['accepted', 'observed', 'rejected']);
    // The unresolved gauge's statuses (api/metrics.ts): the rest, in the same order.
    expect(UNRESOLVED_STATUSES).to.deep.equal(['queued', 'to_send', 'to_summarize', 'registered', 'sent']);
  });

  it("a void: pending without a carrier or behind a rejected summary, sent until its carrier's verdict, then that verdict", () => {
    const carrier = (status: DocStatus) => ({ status, resolved: isResolvedStatus(status) });
    expect(voidStatus('rc', null)).to.deep.equal({ status: 'pending', carried: false });
    expect(voidStatus('rc', carrier('rejected'))).to.deep.equal({ status: 'pending', carried: false });
    expect(voidStatus('ra', carrier('rejected'))).to.deep.equal({ status: 'rejected', carried: true });
    expect(voidStatus('rc', carrier('registered'))).to.deep.equal({ status: 'sent', carried: true });
    expect(voidStatus('ra', carrier('queued'))).to.deep.equal({ status: 'sent', carried: true });
    expect(voidStatus('rc', carrier('accepted'))).to.deep.equal({ status: 'accepted', carried: true });
  });

  it('initial status: summary receipts (03 and B-series notes) wait for the summary, manual mode waits for /send', () => {
    const modes = (sending_mode: string, receipts_mode: string) => ({ sending_mode, receipts_mode });
    expect(initialStatus(modes('automatic', 'summary'), '03', 'B001')).to.equal('to_summarize');
    expect(initialStatus(modes('automatic', 'summary'), '07', 'B001')).to.equal('to_summarize');
    expect(initialStatus(modes('automatic', 'summary'), '07', 'F001')).to.equal('queued');
    expect(initialStatus(modes('manual', 'summary'), '03', 'B001')).to.equal('to_summarize');
    expect(initialStatus(modes('manual', 'individual'), '03', 'B001')).to.equal('to_send');
    expect(initialStatus(modes('automatic', 'individual'), '01', 'F001')).to.equal('queued');
    expect(hasOwnWorkflow('to_summarize')).to.equal(false);
    expect(hasOwnWorkflow('to_send')).to.equal(true);
  });

  it('release and hold are each other’s inverse (to_send ⇄ queued)', () => {
    expect(RELEASE).to.deep.equal({ from: 'to_send', to: 'queued' });
    expect(HOLD).to.deep.equal({ from: RELEASE.to, to: RELEASE.from });
  });

  describe('after each step, by the authority’s answer (spec 3.1)', () => {
    const answer = (status: Answer['status'], reached_sunat: boolean | null = true): Answer => ({
      status,
      reached_sunat,
    });
    const cases: [Answer, 'send' | 'ticket' | 'query', DocStatus, { kind: string; status: DocStatus }][] = [
      [answer('accepted'), 'send', 'queued', { kind: 'resolved', status: 'accepted' }],
      [answer('observed'), 'query', 'sent', { kind: 'resolved', status: 'observed' }],
      [answer('rejected'), 'ticket', 'registered', { kind: 'resolved', status: 'rejected' }],
      [answer('ticket'), 'send', 'queued', { kind: 'ticket', status: 'registered' }],
      [answer('pending'), 'ticket', 'registered', { kind: 'ticket', status: 'registered' }],
      // Certainly not received: sent again, but a document once `sent` may have arrived before, so it stays sent.
      [answer('unknown', false), 'send', 'queued', { kind: 'retry', status: 'queued' }],
      [answer('unknown', false), 'send', 'sent', { kind: 'retry', status: 'sent' }],
      // A state query finding no record: never received, queued for another send.
      [answer('unknown', false), 'query', 'sent', { kind: 'retry', status: 'queued' }],
      // A ticket poll that learns nothing keeps the ticket.
      [answer('unknown', false), 'ticket', 'registered', { kind: 'ticket', status: 'registered' }],
      [answer('unknown', null), 'ticket', 'registered', { kind: 'ticket', status: 'registered' }],
      // A timeout or an unreadable answer: left chasqui, no verdict.
      [answer('unknown', null), 'send', 'queued', { kind: 'unknown', status: 'sent' }],
      [answer('unknown', true), 'query', 'sent', { kind: 'unknown', status: 'sent' }],
    ];
    for (const [given, step, from, expected] of cases) {
      it(`${step} in ${from}, answered ${given.status} (reached ${given.reached_sunat}) → ${expected.status}`, () => {
        expect(afterStep(given, step, from)).to.deep.equal(expected);
      });
    }
  });

  it('a status an earlier run recorded: a ticket is polled, no verdict is queried, anything else is sent again', () => {
    expect(recordedKind('registered')).to.equal('ticket');
    expect(recordedKind('sent')).to.equal('unknown');
    expect(recordedKind('queued')).to.equal('retry');
  });

  it('a summary’s verdict: accepted or observed passes to its receipts, rejected leaves them for the next summary', () => {
    expect(afterSummary('accepted')).to.equal('accepted');
    expect(afterSummary('observed')).to.equal('observed');
    expect(afterSummary('rejected')).to.equal('to_summarize');
  });

  it('why an unresolved document waits, as `stuck` groups it', () => {
    const started = new Date();
    expect(waitingReason({ status: 'to_send', result: null, workflow_started_at: started })).to.equal('manual');
    expect(waitingReason({ status: 'to_summarize', result: null, workflow_started_at: null })).to.equal('summary');
    expect(waitingReason({ status: 'registered', result: null, workflow_started_at: started })).to.equal('ticket');
    expect(
      waitingReason({
        status: 'sent',
        result: { origin: 'timeout', reached_sunat: null },
        workflow_started_at: started,
      }),
    ).to.equal('timeout');
    // What the step that recorded the timeout decided (the plan's predicate): no query reaches it, nothing queries it.
    const timedOut = {
      status: 'sent' as const,
      result: { origin: 'timeout', reached_sunat: null },
      workflow_started_at: started,
    };
    expect(waitingReason({ ...timedOut, queryable: true })).to.equal('timeout');
    expect(waitingReason({ ...timedOut, queryable: false })).to.equal('unqueried');
    const unreadable = { ...timedOut, result: { origin: 'system', reached_sunat: true } };
    expect(waitingReason({ ...unreadable, queryable: false }), 'no query reads it either').to.equal('unqueried');
    expect(waitingReason({ ...unreadable, queryable: true })).to.equal('unreadable');
    expect(waitingReason({ ...timedOut, queryable: null }), 'recorded before the fact was kept').to.equal('timeout');
    expect(
      waitingReason({
        status: 'sent',
        result: { origin: 'system', reached_sunat: true },
        workflow_started_at: started,
      }),
    ).to.equal('unreadable');
    expect(
      waitingReason({
        status: 'queued',
        result: { origin: 'connection', reached_sunat: false },
        workflow_started_at: started,
      }),
    ).to.equal('connection');
    expect(
      waitingReason({ status: 'queued', result: { origin: null, reached_sunat: false }, workflow_started_at: started }),
    ).to.equal('not_received');
    expect(waitingReason({ status: 'queued', result: null, workflow_started_at: null })).to.equal('not_started');
    expect(waitingReason({ status: 'queued', result: null, workflow_started_at: started })).to.equal('sending');
  });

  describe('what each action may do to a document', () => {
    const connection = { origin: 'connection', reached_sunat: false };
    const timeout = { origin: 'timeout', reached_sunat: null };

    it('send: only a document waiting in manual mode', () => {
      expect(sendRefusal(doc('to_send'))).to.equal(null);
      for (const status of DOCUMENT_STATUSES.filter((s) => s !== 'to_send')) {
        expect(sendRefusal(doc(status))).to.equal(
          `Document 20123456786-01-F001-10 is ${status}; only a document waiting in manual mode (to_send) can be sent`,
        );
      }
    });

    it('resend (API): unresolved documents that left chasqui or failed to; support: only what never arrived', () => {
      expect(resendRefusal(doc('queued', { result: connection }))).to.equal(null);
      expect(resendRefusal(doc('sent', { result: timeout }))).to.equal(null);
      expect(resendRefusal(doc('accepted'))).to.match(/already accepted; a resolved document is not sent again/);
      expect(resendRefusal(doc('to_send'))).to.match(/use POST \/v1\/cpe\/.+\/send/);
      expect(resendRefusal(doc('to_summarize'))).to.match(/daily summary/);
      expect(resendRefusal(doc('registered', { ticket: '1700000000123' }))).to.match(/ticket 1700000000123/);
      expect(resendRefusal(doc('queued'))).to.match(/being sent now/);

      expect(supportResendRefusal(doc('queued', { result: connection }))).to.equal(null);
      expect(supportResendRefusal(doc('sent', { result: timeout }))).to.equal(
        'it may have reached the authority (timeout): recheck it instead',
      );
      expect(supportResendRefusal(doc('accepted'))).to.equal(resendRefusal(doc('accepted')));
    });

    it('recheck: what left chasqui without a verdict (a timeout, a ticket)', () => {
      expect(recheckRefusal(doc('sent', { result: timeout }))).to.equal(null);
      expect(recheckRefusal(doc('registered', { ticket: '1' }))).to.equal(null);
      expect(recheckRefusal(doc('observed'))).to.equal('already observed');
      expect(recheckRefusal(doc('to_send'))).to.equal(
        'not sent yet (waiting for POST /v1/cpe/{id}/send (company in manual sending mode))',
      );
      expect(recheckRefusal(doc('to_summarize'))).to.equal(
        'not sent yet (waiting for the daily summary (receipt in summary mode))',
      );
      expect(recheckRefusal(doc('queued', { result: connection }))).to.match(/nothing to query; use resend/);
      expect(recheckRefusal(doc('queued'))).to.equal('being sent now');
      // Nothing queries it (an OSE, a guía): a recheck would learn nothing, and support's resend is not safe either.
      const ose = doc('sent', { result: timeout, queryable: false, destination: 'provider_ose' });
      expect(recheckRefusal(ose)).to.match(/no state query reaches it: check the authority's portal/);
      expect(supportResendRefusal(ose)).to.equal(recheckRefusal(ose));
      expect(spanish(rules.recheckRefusal(ose)!)).to.match(/^Puede que haya llegado a la OSE, que no ofrece consulta/);
      expect(recheckRefusal(doc('sent', { result: timeout, queryable: true }))).to.equal(null);
      // Where it went to an OSE, the Spanish refusals name the OSE, not SUNAT.
      const atOse = { destination: 'own_ose' };
      for (const refusal of [
        rules.supportResendRefusal(doc('sent', { result: timeout, ...atOse })),
        rules.resendRefusal(doc('registered', { ticket: '1', ...atOse })),
        rules.recheckRefusal(doc('queued', { result: connection, ...atOse })),
      ])
        expect(spanish(refusal!)).to.include('OSE').and.not.include('SUNAT');
      expect(spanish(rules.supportResendRefusal(doc('sent', { result: timeout }))!)).to.include('llegado a SUNAT');
      expect(
        recheckRefusal(doc('sent', { result: timeout, queryable: false, ticket: '1' })),
        'a ticket is polled',
      ).to.equal(null);
    });
  });
});
