import { addDays } from '../../documents/calendar';
import { findSeriesGaps } from '../../db/company-checks';
import { result, type Check } from './context';

/** Numbers missing in a series issued within CHASQUI_CHECKS_GAP_DAYS. */
export const seriesGapsCheck: Check = async ({ config, db }, { company, today }) => {
  const since = addDays(today, -config.checks.gapDays);
  const gaps = await findSeriesGaps(db, company.id, since);
  const fields = { since, gaps };
  if (!gaps.length)
    return [result('series_gaps', 'ok', `no numbers missing in any series issued since ${since}`, fields)];
  const missing = gaps.reduce((n, g) => n + g.missing_count, 0);
  const list = gaps
    .flatMap((g) => g.missing)
    .slice(0, 10)
    .join(', ');
  return [
    result(
      'series_gaps',
      'warn',
      `${missing} numbers missing in ${gaps.length} series since ${since} (${list}${missing > 10 ? ', …' : ''}): ask the integrator why their system skipped them: SUNAT expects each series numbered without gaps`,
      fields,
    ),
  ];
};
