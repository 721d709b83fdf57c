/**
 * The company checks' statuses and which change of them is news (docs/architecture.md, "Company-check events"), as
 * pure code: db/company-checks.ts stores what these decide, activities/checks/ judge the authority's answers with them.
 * Pure: imports nothing, so db/ and activities/ may read it.
 */

/** A check's result: `unknown` when the authority could not be asked (no known status of its own). */
export const CHECK_STATUSES = ['ok', 'warn', 'fail', 'unknown'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** The statuses a check moving to is news: a `company_check_events` row, notified as `company.check`. */
export const NEWS_STATUSES: readonly CheckStatus[] = ['warn', 'fail'];

/**
 * The status a check is known by after a run's result: `unknown` (the authority could not be asked) keeps the one known
 * before, so fail → unknown → fail is one notice, not two.
 */
export function knownStatusAfter(status: CheckStatus, knownBefore: CheckStatus | null): CheckStatus | null {
  return status === 'unknown' ? knownBefore : status;
}

/** A result is news when it moves the known status to warn or fail; the same status again is not. */
export function isCheckNews(status: CheckStatus, knownBefore: CheckStatus | null): boolean {
  return NEWS_STATUSES.includes(status) && status !== knownBefore;
}

/** The authority's origins of an answer it could not give: SUNAT was not asked, whatever the credentials. */
const UNASKED_ORIGINS: readonly (string | null)[] = ['connection', 'timeout', 'system'];

/**
 * What an authority's answer says of the credentials it was asked with: `unknown` when it could not be asked (asked
 * again next run); `fail` when it refused them: with one of `refusalCodes` (SOL), or, when null, by rejecting the
 * request (a GRE token); else `ok`.
 */
export function credentialsStatus(
  answer: { origin: string | null; status: string; code: string | null },
  refusalCodes: ReadonlySet<string> | null,
): Exclude<CheckStatus, 'warn'> {
  if (UNASKED_ORIGINS.includes(answer.origin)) return 'unknown';
  const refused = refusalCodes ? refusalCodes.has(answer.code ?? '') : answer.status === 'rejected';
  return refused ? 'fail' : 'ok';
}

const DAY_MS = 86_400_000;

/**
 * A certificate's standing on `now` by the expiry check's thresholds: `fail` before its start or from its last day on,
 * `warn` within `warnDays` of its end, else `ok`. `daysLeft`: whole days until notAfter, rounded up (expiring in 10
 * days and an hour is 11).
 */
export function certificateStanding(
  notBefore: Date,
  notAfter: Date,
  warnDays: number,
  now = new Date(),
): { status: Exclude<CheckStatus, 'unknown'>; daysLeft: number; notYet: boolean } {
  const daysLeft = Math.ceil((notAfter.getTime() - now.getTime()) / DAY_MS);
  const notYet = notBefore > now;
  const status = notYet || daysLeft <= 0 ? 'fail' : daysLeft <= warnDays ? 'warn' : 'ok';
  return { status, daysLeft, notYet };
}
