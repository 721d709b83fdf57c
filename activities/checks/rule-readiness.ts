import { addDays } from '../../documents/calendar';
import { datedRuleFailures } from '../../validator/dated-rules';
import { recentSignedDocuments } from '../../db/company-checks';
import { message } from '../../lifecycle/messages';
import { result, type Check } from './context';

/** rule_readiness: rules starting within this many days, judged on the company's documents of the last 30. */
export const RULE_HORIZON_DAYS = 60;
export const RULE_LOOKBACK_DAYS = 30;
/** Documents judged per company at most (the newest of the types the coming rules judge), so one large issuer does not hold a run. */
export const RULE_SAMPLE = 300;

/** How the company's recent documents fare under the SUNAT rules starting within RULE_HORIZON_DAYS. */
export const ruleReadinessCheck: Check = async ({ config, db, files }, { company, today }) => {
  const rules = config.rules.upcoming(today, RULE_HORIZON_DAYS);
  const since = addDays(today, -RULE_LOOKBACK_DAYS);
  // One read of the documents the coming rules judge; each document judged once per date rules start on.
  const docs = rules.length
    ? await Promise.all(
        (
          await recentSignedDocuments(
            db,
            company.id,
            [...new Set(rules.flatMap((r) => r.docTypes))],
            since,
            RULE_SAMPLE,
          )
        ).map(async (doc) => ({ ...doc, xml: await files.xmlOf(doc) })),
      )
    : [];
  const failures = new Map<string, ReturnType<typeof datedRuleFailures>>();
  const failuresAt = (docIndex: number, at: string) => {
    const key = `${docIndex}@${at}`;
    // The stored signed XML judged as if issued on that day.
    if (!failures.has(key)) failures.set(key, datedRuleFailures(docs[docIndex].xml, config.rules, { at }));
    return failures.get(key)!;
  };
  const judged = rules.map((rule) => {
    const failing: { number: string; code: string; message: string }[] = [];
    let checked = 0;
    docs.forEach((doc, i) => {
      if (!rule.docTypes.includes(doc.doc_type as never)) return;
      checked++;
      const failure = failuresAt(i, rule.effective).find((f) => f.rule === rule.id);
      if (failure)
        failing.push({ number: `${doc.series}-${doc.number}`, code: failure.code, message: failure.message });
    });
    return {
      rule: rule.id,
      effective: rule.effective,
      codes: rule.codes,
      summary: rule.summary,
      documents_checked: checked,
      would_fail: failing.length,
      examples: failing.slice(0, 5),
    };
  });
  const fields = { since, horizon_days: RULE_HORIZON_DAYS, rules: judged };
  const failing = judged.filter((r) => r.would_fail > 0);
  if (!failing.length) {
    const said = message('check.rules.pass', {
      days: RULE_LOOKBACK_DAYS,
      rules: rules.length,
      horizon: RULE_HORIZON_DAYS,
    });
    return [result('rule_readiness', 'ok', said, fields)];
  }
  const said = message('check.rules.would_fail', {
    failing: failing.map((r) => ({
      would_fail: r.would_fail,
      checked: r.documents_checked,
      rule: r.rule,
      effective: r.effective,
      codes: [...new Set(r.examples.map((e) => e.code))],
    })),
  });
  return [result('rule_readiness', 'warn', said, fields)];
};
