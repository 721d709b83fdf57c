import { expect } from 'chai';
import {
  afterAttempt,
  attemptEvent,
  awaitsFirstAttempt,
  deliversNotice,
  mayAttempt,
  waitBeforeAttempt,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_WAITS_MS,
} from '../../lifecycle/webhooks';

describe('lifecycle: a webhook delivery, as pure code', () => {
  it('an attempt delivers on a 2xx, waits for the next when it fails with attempts left, fails at the last', () => {
    expect([1, 2, 3, 4, 5].map((n) => attemptEvent(n, true))).to.deep.equal(Array(5).fill('answered'));
    expect([1, 2, 3, 4, 5].map((n) => attemptEvent(n, false))).to.deep.equal([
      'refused',
      'refused',
      'refused',
      'refused',
      'exhausted',
    ]);
    expect(afterAttempt(1, true, 0)).to.deep.equal({ status: 'delivered', nextAttemptAt: null });
    expect(afterAttempt(2, false, 1_000)).to.deep.equal({ status: 'pending', nextAttemptAt: new Date(121_000) });
    expect(afterAttempt(WEBHOOK_MAX_ATTEMPTS, false, 0)).to.deep.equal({ status: 'failed', nextAttemptAt: null });
  });

  it('a receiver delivers the notice with a 2xx answer only: not a redirect, not a 1xx, not an error', () => {
    const statuses = [100, 199, 200, 201, 204, 299, 300, 301, 304, 400, 410, 500];
    expect(statuses.filter(deliversNotice)).to.deep.equal([200, 201, 204, 299]);
  });

  it('the workflow waits 30 s, 2, 8, 30 min between attempts, and attempts only a pending delivery, five times at most', () => {
    expect([1, 2, 3, 4, 5].map(waitBeforeAttempt)).to.deep.equal([null, ...WEBHOOK_RETRY_WAITS_MS]);
    expect(mayAttempt('pending', 5)).to.equal(true);
    expect(mayAttempt('pending', 6)).to.equal(false);
    for (const ended of ['delivered', 'failed', 'cancelled'] as const) expect(mayAttempt(ended, 1)).to.equal(false);
    expect(awaitsFirstAttempt({ status: 'pending', attempts: 0 })).to.equal(true);
    expect(awaitsFirstAttempt({ status: 'pending', attempts: 1 })).to.equal(false);
  });
});
