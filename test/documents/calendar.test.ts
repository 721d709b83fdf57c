import { expect } from 'chai';
import {
  DEFAULT_CALENDAR,
  IgvRatesError,
  parseIgvRates,
  parseRuleDates,
  RuleCalendar,
  RuleDatesError,
  RULES,
} from '../../documents/calendar';
import { ConfigError, loadConfig } from '../../core/config';

describe('rule calendar', () => {
  it('judges a rule by the issue date: the day before its date is the old rule, the day itself the new one', () => {
    expect(DEFAULT_CALENDAR.inForce('gre-loading-date', '2026-05-31')).to.equal(false);
    expect(DEFAULT_CALENDAR.inForce('gre-loading-date', '2026-06-01')).to.equal(true);
    expect(DEFAULT_CALENDAR.inForce('product-code-valid', '2026-12-31')).to.equal(false);
    expect(DEFAULT_CALENDAR.inForce('product-code-valid', '2027-01-01')).to.equal(true);
    expect(DEFAULT_CALENDAR.status('mype-rate-end', '2027-06-30')).to.equal('upcoming');
  });

  it('moves a date with an override and leaves the others', () => {
    const moved = new RuleCalendar(parseRuleDates('product-code-valid=2026-12-01, mype-rate-2027=2026-11-01'));
    expect(moved.inForce('product-code-valid', '2026-12-01')).to.equal(true);
    expect(moved.inForce('product-code-valid', '2026-11-30')).to.equal(false);
    expect(moved.effective('mype-rate-2027')).to.equal('2026-11-01');
    expect(moved.effective('summary-v2')).to.equal('2027-01-01');
    expect(DEFAULT_CALENDAR.effective('product-code-valid')).to.equal('2027-01-01');
  });

  it('lists upcoming rules within a horizon, per document type', () => {
    const ids = DEFAULT_CALENDAR.upcoming('2026-11-26', 60, '01').map((r) => r.id);
    expect(ids).to.include.members(['product-code-valid', 'mype-rate-2027']);
    expect(ids).to.not.include('summary-v2');
    expect(ids).to.not.include('mype-rate-end');
  });

  it('refuses an unknown id or a bad date, naming it', () => {
    expect(() => parseRuleDates('product-code=2027-01-01')).to.throw(RuleDatesError, "unknown rule 'product-code'");
    expect(() => parseRuleDates('summary-v2=2027-02-30')).to.throw(
      RuleDatesError,
      "rule 'summary-v2' needs a date YYYY-MM-DD or off, got '2027-02-30'",
    );
    expect(() => parseRuleDates('summary-v2')).to.throw(RuleDatesError, "got ''");
    expect(() => parseRuleDates('gre-loading-date=2026-13-01')).to.throw(
      RuleDatesError,
      "rule 'gre-loading-date' needs a date YYYY-MM-DD, got '2026-13-01'",
    );
    // The old name of the product code rule says what it became, not just "unknown".
    expect(() => parseRuleDates('product-code-required=2027-07-01')).to.throw(
      RuleDatesError,
      "rule 'product-code-required' is now 'product-code-valid'",
    );
  });

  it('switches a reported rule off (id=off), never a sure one', () => {
    const off = new RuleCalendar(parseRuleDates('product-code-valid=off,summary-v2=2027-03-01'));
    expect(off.rule('product-code-valid').off).to.equal(true);
    expect(off.inForce('product-code-valid', '2030-01-01')).to.equal(false);
    expect(off.status('product-code-valid', '2030-01-01')).to.equal('off');
    expect(off.upcoming('2026-12-01', 60).map((r) => r.id)).to.not.include('product-code-valid');
    expect(off.effective('summary-v2')).to.equal('2027-03-01');
    for (const sure of RULES.filter((r) => r.confidence === 'sure'))
      expect(() => parseRuleDates(`${sure.id}=off`), sure.id).to.throw(
        RuleDatesError,
        `rule '${sure.id}' is read in SUNAT's own files or the law (confidence sure): move its date instead`,
      );
    expect(() => loadConfig({ CHASQUI_RULE_DATES: 'gre-loading-date=off' })).to.throw(
      ConfigError,
      'CHASQUI_RULE_DATES',
    );
    expect(loadConfig({ CHASQUI_RULE_DATES: 'mype-rate-2027=off' }).rules.igvRates('2027-06-01').special).to.equal(
      10.5,
    );
  });

  it('has the IGV rates by date as data: 18, and the special rate 10, 10.5, 15 (reported), none', () => {
    const at = (date: string, calendar = DEFAULT_CALENDAR) => {
      const { general, special } = calendar.igvRates(date);
      return [general, special];
    };
    expect(at('2025-12-31')).to.deep.equal([18, 10]);
    expect(at('2026-01-01')).to.deep.equal([18, 10.5]);
    expect(at('2026-12-31')).to.deep.equal([18, 10.5]);
    expect(at('2027-01-01')).to.deep.equal([18, 15]);
    expect(at('2028-01-01')).to.deep.equal([18, null]);
    expect(DEFAULT_CALENDAR.rule('mype-rate-2027').confidence).to.equal('reported');
    expect(DEFAULT_CALENDAR.rule('mype-rate-2026').confidence).to.equal('sure');
    // Values from CHASQUI_IGV_RATES, dates from CHASQUI_RULE_DATES.
    const config = loadConfig({
      CHASQUI_IGV_RATES: 'mype-rate-2027=14, mype-rate-end=12',
      CHASQUI_RULE_DATES: 'mype-rate-end=2029-01-01',
    });
    expect(at('2027-01-01', config.rules)).to.deep.equal([18, 14]);
    expect(at('2028-06-01', config.rules)).to.deep.equal([18, 14]);
    expect(at('2029-01-01', config.rules)).to.deep.equal([18, 12]);
    expect(at('2026-01-01', new RuleCalendar({}, parseIgvRates('mype-rate-2026=none')))).to.deep.equal([18, null]);
    // The steps follow one another: 2027's brought before 2026's date is still the later law.
    const early = new RuleCalendar(parseRuleDates('mype-rate-2027=2000-01-01'));
    expect(at('2024-03-15', early)).to.deep.equal([18, 15]);
    expect(at('2027-01-04', early)).to.deep.equal([18, 15]);
  });

  it('stops start-up on a bad CHASQUI_IGV_RATES, naming the key or the value', () => {
    expect(() => parseIgvRates('general=17')).to.throw(IgvRatesError, "unknown rate 'general'");
    expect(() => parseIgvRates('mype-rate-2027=15%')).to.throw(IgvRatesError, "rate 'mype-rate-2027' needs a percent");
    expect(() => parseIgvRates('mype-rate-2027=0')).to.throw(IgvRatesError, "got '0'");
    expect(() => parseIgvRates('mype-rate-2027=10.555')).to.throw(IgvRatesError, "got '10.555'");
    expect(() => loadConfig({ CHASQUI_IGV_RATES: 'mype-rate-2027' })).to.throw(
      ConfigError,
      "CHASQUI_IGV_RATES: rate 'mype-rate-2027' needs a percent such as 10.5 (two decimals at most) or none, got ''",
    );
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
