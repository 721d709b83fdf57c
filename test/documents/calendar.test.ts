import { expect } from 'chai';
import { DEFAULT_CALENDAR, parseRuleDates, RuleCalendar, RuleDatesError, RULES } from '../../documents/calendar';
import { ConfigError, loadConfig } from '../../core/config';

describe('rule calendar', () => {
  it('judges a rule by the issue date: the day before its date is the old rule, the day itself the new one', () => {
    expect(DEFAULT_CALENDAR.inForce('gre-loading-date', '2026-05-31')).to.equal(false);
    expect(DEFAULT_CALENDAR.inForce('gre-loading-date', '2026-06-01')).to.equal(true);
    expect(DEFAULT_CALENDAR.inForce('product-code-required', '2026-12-31')).to.equal(false);
    expect(DEFAULT_CALENDAR.inForce('product-code-required', '2027-01-01')).to.equal(true);
    expect(DEFAULT_CALENDAR.status('mype-rate-end', '2027-06-30')).to.equal('upcoming');
  });

  it('moves a date with an override and leaves the others', () => {
    const moved = new RuleCalendar(parseRuleDates('product-code-required=2026-12-01, mype-rate-2027=2026-11-01'));
    expect(moved.inForce('product-code-required', '2026-12-01')).to.equal(true);
    expect(moved.inForce('product-code-required', '2026-11-30')).to.equal(false);
    expect(moved.effective('mype-rate-2027')).to.equal('2026-11-01');
    expect(moved.effective('summary-v2')).to.equal('2027-01-01');
    expect(DEFAULT_CALENDAR.effective('product-code-required')).to.equal('2027-01-01');
  });

  it('lists upcoming rules within a horizon, per document type', () => {
    const ids = DEFAULT_CALENDAR.upcoming('2026-11-26', 60, '01').map((r) => r.id);
    expect(ids).to.include.members(['product-code-required', 'mype-rate-2027']);
    expect(ids).to.not.include('summary-v2');
    expect(ids).to.not.include('mype-rate-end');
  });

  it('refuses an unknown id or a bad date, naming it', () => {
    expect(() => parseRuleDates('product-code=2027-01-01')).to.throw(RuleDatesError, "unknown rule 'product-code'");
    expect(() => parseRuleDates('summary-v2=2027-02-30')).to.throw(
      RuleDatesError,
      "rule 'summary-v2' needs a date YYYY-MM-DD, got '2027-02-30'",
    );
    expect(() => parseRuleDates('summary-v2')).to.throw(RuleDatesError, "got ''");
  });

  it('stops start-up on a bad CHASQUI_RULE_DATES and applies a good one', () => {
    expect(() => loadConfig({ CHASQUI_RULE_DATES: 'nope=2027-01-01' })).to.throw(
      ConfigError,
      "CHASQUI_RULE_DATES: unknown rule 'nope'",
    );
    expect(
      loadConfig({ CHASQUI_RULE_DATES: 'gre-loading-date=2026-07-01' }).rules.effective('gre-loading-date'),
    ).to.equal('2026-07-01');
    expect(
      loadConfig({})
        .rules.list()
        .map((r) => r.id),
    ).to.have.members(RULES.map((r) => r.id));
  });
});
