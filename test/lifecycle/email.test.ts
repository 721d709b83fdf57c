import { expect } from 'chai';
import {
  afterEmailAttempt,
  EMAIL_ATTEMPTABLE,
  EMAIL_RESTARTABLE,
  emailDue,
  initialEmailStatus,
  isFinalEmailAttempt,
  mayAttemptEmail,
  shownEmailStatus,
  waitBeforeEmailAttempt,
  type EmailAttemptOutcome,
} from '../../lifecycle/email';

/** The buyer's e-mail as pure code (lifecycle/email.ts): the rules the activity, the workflow and db/ carry out. */
describe("lifecycle: the buyer's e-mail, as pure code", () => {
  it('each outcome: only what may pass stays pending, and never after the last attempt; only tries count', () => {
    const outcomes: EmailAttemptOutcome[] = ['sent', 'transient', 'permanent', 'held', 'off', 'not_started'];
    expect(outcomes.map((o) => afterEmailAttempt(o, false).status)).to.deep.equal([
      'sent',
      'pending',
      'failed',
      'pending',
      'disabled',
      'failed',
    ]);
    expect(outcomes.map((o) => afterEmailAttempt(o, true).status)).to.deep.equal([
      'sent',
      'failed',
      'failed',
      'failed',
      'disabled',
      'failed',
    ]);
    expect(outcomes.filter((o) => afterEmailAttempt(o, false).counted)).to.deep.equal([
      'sent',
      'transient',
      'permanent',
    ]);
  });

  it('the workflow makes five attempts 4, 8, 16 and 32 minutes apart while the e-mail is pending, the fifth final', () => {
    expect([1, 2, 3, 4, 5].map(waitBeforeEmailAttempt)).to.deep.equal([null, 240_000, 480_000, 960_000, 1_920_000]);
    expect([1, 2, 3, 4, 5, 6].map((n) => mayAttemptEmail('pending', n))).to.deep.equal([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    for (const ended of ['sent', 'failed', 'disabled'] as const)
      expect(mayAttemptEmail(ended, 2), ended).to.equal(false);
    expect([1, 2, 3, 4, 5].filter(isFinalEmailAttempt)).to.deep.equal([5]);
  });

  it('pending at issue when the payload names an address; started only for an accepted or observed document', () => {
    expect(initialEmailStatus(['buyer@example.com'])).to.equal('pending');
    expect(initialEmailStatus([])).to.equal(null);
    expect(initialEmailStatus(undefined)).to.equal(null);
    const row = { email_to: ['buyer@example.com'], email_status: 'pending' as const };
    expect(
      (['accepted', 'observed', 'rejected', 'sent', 'queued'] as const).filter((status) =>
        emailDue({ ...row, status }),
      ),
    ).to.deep.equal(['accepted', 'observed']);
    expect(emailDue({ status: 'accepted', email_to: null, email_status: 'pending' })).to.equal(false);
    expect(emailDue({ status: 'accepted', email_to: row.email_to, email_status: 'sent' })).to.equal(false);
  });

  it('sent is final for a late attempt; sending again restarts any but a pending one; a rejected one reads disabled', () => {
    expect(EMAIL_ATTEMPTABLE).to.deep.equal(['pending', 'failed', 'disabled']);
    expect(EMAIL_RESTARTABLE).to.deep.equal(['sent', 'failed', 'disabled']);
    expect(shownEmailStatus('rejected', 'pending')).to.equal('disabled');
    expect(shownEmailStatus('rejected', 'failed')).to.equal('failed');
    expect(shownEmailStatus('accepted', 'pending')).to.equal('pending');
  });
});
