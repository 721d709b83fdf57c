import { addDays } from '../../documents/calendar';
import { findSeriesGaps } from '../../db/company-checks';
import { result, type Check } from './context';
import { message } from '../../lifecycle/messages';

/** Numbers missing in a series issued within CHASQUI_CHECKS_GAP_DAYS. */
export const seriesGapsCheck: Check = async ({ config, db }, { company, today }) => {
  const since = addDays(today, -config.checks.gapDays);
  const gaps = await findSeriesGaps(db, company.id, since);
  const fields = { since, gaps };
  if (!gaps.length) return [result('series_gaps', 'ok', message('check.series_gaps.none', { since }), fields)];
  const missing = gaps.reduce((n, g) => n + g.missing_count, 0);
  const numbers = gaps.flatMap((g) => g.missing).slice(0, 10);
  const said = message('check.series_gaps.missing', { since, missing, series: gaps.length, numbers });
  return [result('series_gaps', 'warn', said, fields)];
};
