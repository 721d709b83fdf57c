import { addDays } from '../../documents/calendar';
import { limaDate } from '../../core/lima';
import { findUnresolvedWindowDocuments } from '../../db/company-checks';
import { DAY_MS, result, type Check } from './context';
import { message } from '../../lifecycle/messages';

/** The sending window of a document issued on `issueDate` closes at midnight Lima after its last day. */
export function windowClosesAt(issueDate: string, windowDays: number): Date {
  return new Date(`${addDays(issueDate, windowDays + 1)}T00:00:00-05:00`);
}

/** Documents without a verdict whose SUNAT sending window (2108) closes within 24 h or has closed; none without one. */
export const sendingWindowCheck: Check = async ({ config, db }, { company, now }) => {
  const days = config.issuing.sendingWindowDays;
  if (days <= 0) return [];
  const since = addDays(limaDate(now), -days - 30);
  const docs = await findUnresolvedWindowDocuments(db, company.id, since);
  const judged = docs.map((d) => ({
    number: `${d.series}-${d.number}`,
    doc_type: d.doc_type,
    status: d.status,
    issue_date: d.issue_date,
    closes_at: windowClosesAt(d.issue_date, days),
  }));
  const closed = judged.filter((d) => d.closes_at <= now);
  const closing = judged.filter((d) => d.closes_at > now && d.closes_at.getTime() - now.getTime() <= DAY_MS);
  const show = (list: typeof judged) => list.map((d) => ({ ...d, closes_at: d.closes_at.toISOString() }));
  const fields = { window_days: days, closed: show(closed), closing: show(closing) };
  const numbers = (list: typeof judged) =>
    list
      .slice(0, 10)
      .map((d) => d.number)
      .join(', ') + (list.length > 10 ? ', …' : '');
  if (closed.length) {
    const said = message('check.sending_window.closed', { count: closed.length, days, numbers: numbers(closed) });
    return [result('sending_window', 'fail', said, fields)];
  }
  if (closing.length) {
    const said = message('check.sending_window.closing', { count: closing.length, numbers: numbers(closing) });
    return [result('sending_window', 'warn', said, fields)];
  }
  return [result('sending_window', 'ok', message('check.sending_window.open'), fields)];
};
