/** SUNAT's calendar is Peru's: dates of documents and summaries are America/Lima dates (UTC−5, no daylight saving). */
export const LIMA_TIME_ZONE = 'America/Lima';

const LIMA_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: LIMA_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** `YYYY-MM-DD` of an instant in Lima. */
export function limaDate(at: Date): string {
  return LIMA_DATE.format(at);
}
