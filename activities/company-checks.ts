import { X509Certificate } from 'node:crypto';
import type { ActivityDeps } from './deps';
import { sendingSolUser } from './documents';
import {
  getStatusCdr,
  GreConnector,
  PgGreTokenStore,
  resolveEndpoints,
  type AuthorityResult,
  type ResolvedEndpoints,
} from '../authority';
import { logger } from '../core/logger';
import { authorityCalls } from '../core/metrics';
import { limaDate } from '../core/lima';
import { createCompanyKeys, SigningUnavailableError } from '../keys/signing-keys';
import { addDays } from '../documents/calendar';
import { datedRuleFailures } from '../validator/dated-rules';
import { findCompanyById, type CompanyRow } from '../db/companies';
import { findCertificate, type CertificateRow } from '../db/certificates';
import {
  findSeriesGaps,
  findUnresolvedWindowDocuments,
  listCheckRows,
  listUnnotifiedCheckEvents,
  markCheckEventNotified,
  recentSignedDocuments,
  saveCheckResults,
  type CheckId,
  type CheckResult,
  type CheckRow,
  type CheckStatus,
} from '../db/company-checks';
import { isApplicable, listProcedures, type ProcedureName } from '../db/procedures';
import { admitRequest } from '../db/rate-limits';
import { openCheckDelivery } from '../db/webhooks';
import { findCompanyEmailSettings } from '../db/company-email';
import { checkPublicHost } from '../core/net-guard';
import { parseSmtpUrl } from '../core/smtp-url';
import { startCheckDeliveryWorkflow } from '../workflows/webhook-client';
import { CHECK_WEBHOOK_EVENT } from '../workflows/webhook-types';
import { documentFiles } from '../files/documents';

const DAY_MS = 86_400_000;

type SolUser = NonNullable<ReturnType<typeof sendingSolUser>>;

/** The sliding log (db/rate-limits.ts) every check's SUNAT call shares, whichever run and worker makes it. */
export const CHECKS_RATE_KEY = '00000000-0000-4000-8000-0000c4ec4ec5';

/** rule_readiness: rules starting within this many days, judged on the company's documents of the last 30. */
export const RULE_HORIZON_DAYS = 60;
export const RULE_LOOKBACK_DAYS = 30;
/** Documents judged per company at most (the newest of the types the coming rules judge), so one large issuer does not hold a run. */
export const RULE_SAMPLE = 300;

/** SUNAT's answers to credentials it does not accept (catalog 0101–0104, and 0111 a user without the profile). */
const CREDENTIAL_CODES = new Set(['0101', '0102', '0103', '0104', '0111']);

export interface CompanyCheckSummary {
  companyId: string;
  ruc: string;
  statuses: Partial<Record<CheckId, CheckStatus>>;
  /** The one SUNAT call of this run for the company, if any. */
  asked: 'sol_credentials' | 'gre_credentials' | null;
  /** Changes to warn or fail notified (or stored handled, for a company without a webhook). */
  events: number;
}

export interface CompanyChecksActivities {
  /** The companies a run checks: the given ones that still exist, or every active company. */
  listCheckedCompanies(companyIds: string[] | null): Promise<string[]>;
  /**
   * Runs one company's checks, stores the results and notifies its changes; null when the company is gone;
   * `waitSeconds` (nothing done) when its SUNAT call would pass CHASQUI_CHECKS_RATE: the workflow waits and asks again.
   */
  runCompanyChecks(companyId: string): Promise<CompanyCheckSummary | { waitSeconds: number } | null>;
}

const result = (
  id: CheckId,
  status: CheckStatus,
  detail: string,
  fields: Record<string, unknown> = {},
  at = new Date(),
): CheckResult => ({
  id,
  status,
  detail,
  fields,
  checked_at: at,
});

/** The previous answer of a check that was not asked again in this run, unchanged (its checked_at says when). */
const carried = (row: CheckRow): CheckResult => result(row.check, row.status, row.detail, row.fields, row.checked_at);

/** `days_left` of a certificate: whole days until notAfter, rounded up (expiring in 10 days and an hour is 11). */
export function certificateResult(
  notBefore: Date,
  notAfter: Date,
  warnDays: number,
  origin: string,
  now = new Date(),
): CheckResult {
  const daysLeft = Math.ceil((notAfter.getTime() - now.getTime()) / DAY_MS);
  const fields = {
    origin,
    not_before: notBefore.toISOString(),
    not_after: notAfter.toISOString(),
    days_left: daysLeft,
  };
  const renew =
    origin === 'own'
      ? 'upload the renewed PFX with POST /v1/companies/{ruc}/certificate'
      : origin === 'service'
        ? "renew the service's provider certificate (CHASQUI_PROVIDER_PFX)"
        : 'assign a renewed certificate: chasqui certificates assign --company RUC --pfx FILE --password PW';
  if (notBefore > now)
    return result(
      'certificate',
      'fail',
      `the ${origin} certificate is not valid before ${fields.not_before}; nothing can be signed with it yet`,
      fields,
    );
  if (daysLeft <= 0)
    return result(
      'certificate',
      'fail',
      `the ${origin} certificate expired on ${fields.not_after}; issuing answers 402: ${renew}`,
      fields,
    );
  if (daysLeft <= warnDays)
    return result(
      'certificate',
      'warn',
      `the ${origin} certificate expires in ${daysLeft} days (${fields.not_after}): ${renew}`,
      fields,
    );
  return result(
    'certificate',
    'ok',
    `the ${origin} certificate is valid until ${fields.not_after} (${daysLeft} days)`,
    fields,
  );
}

/** The sending window of a document issued on `issueDate` closes at midnight Lima after its last day. */
export function windowClosesAt(issueDate: string, windowDays: number): Date {
  return new Date(`${addDays(issueDate, windowDays + 1)}T00:00:00-05:00`);
}

export function createCompanyCheckActivities(deps: ActivityDeps): CompanyChecksActivities {
  const { config, db, secrets } = deps;
  const keys = createCompanyKeys(deps);
  const gre = new GreConnector(new PgGreTokenStore(db, secrets));
  const callOptions = { timeouts: config.authorityTimeouts };

  async function certificateCheck(company: CompanyRow, held: CertificateRow | undefined): Promise<CheckResult> {
    if (company.signing === 'external')
      return result(
        'certificate',
        'ok',
        'the company signs its documents itself (signing external): no certificate of ours is used',
        { origin: 'external' },
      );
    if (held)
      return certificateResult(
        new Date(held.not_before),
        new Date(held.not_after),
        config.checks.certWarnDays,
        held.origin,
      );
    try {
      const key = await keys(company);
      const x509 = new X509Certificate(key.signer.certificatePem);
      return certificateResult(new Date(x509.validFrom), new Date(x509.validTo), config.checks.certWarnDays, 'service');
    } catch (err) {
      if (err instanceof SigningUnavailableError)
        return result('certificate', 'fail', err.message, { origin: 'service' });
      throw err;
    }
  }

  function endpointsOf(company: CompanyRow): ResolvedEndpoints | null {
    try {
      return resolveEndpoints(
        { environment: company.environment, destination: company.destination, oseUrl: company.ose_url },
        config.authority,
      );
    } catch {
      return null;
    }
  }

  /** What the authority's answer says of the credentials: refused → fail with SUNAT's words; unreachable → unknown. */
  function judgeAnswer(
    id: 'sol_credentials' | 'gre_credentials',
    answer: AuthorityResult,
    user: string,
    who: string,
    fix: string,
  ): CheckResult {
    const asked = { asked_at: new Date().toISOString(), user, code: answer.code };
    if (answer.origin === 'connection' || answer.origin === 'timeout' || answer.origin === 'system') {
      return result(
        id,
        'unknown',
        `SUNAT could not be asked (${answer.code}: ${answer.message}); asked again next run`,
        asked,
      );
    }
    const refused = id === 'gre_credentials' ? answer.status === 'rejected' : CREDENTIAL_CODES.has(answer.code ?? '');
    if (refused) return result(id, 'fail', `SUNAT refused ${who}: [${answer.code}] ${answer.message}. ${fix}`, asked);
    return result(id, 'ok', `SUNAT accepted ${who}`, asked);
  }

  async function askSol(company: CompanyRow, endpoints: ResolvedEndpoints, sol: SolUser): Promise<CheckResult> {
    // A number no company issues: SUNAT authenticates the caller, then answers "not found" (0011); nothing changes.
    const answer = await getStatusCdr(
      endpoints.billConsultService!,
      { ruc: company.ruc, ...sol },
      { ruc: company.ruc, type: '01', series: 'F999', number: '99999999' },
      callOptions,
    );
    authorityCalls.inc({ operation: 'check', classification: answer.origin ?? 'answered' });
    return judgeAnswer(
      'sol_credentials',
      answer,
      sol.solUser,
      `SOL user ${sol.solUser}`,
      `Load the right ones: PATCH /v1/companies/${company.ruc}/sol-credentials`,
    );
  }

  async function askGre(
    company: CompanyRow,
    endpoints: ResolvedEndpoints,
    sol: SolUser,
    clientId: string,
    secretSealed: string,
  ): Promise<CheckResult> {
    const creds = { ruc: company.ruc, ...sol, clientId, clientSecret: secrets.open(secretSealed) };
    const outcome = await gre.requestToken({ auth: endpoints.greAuth, api: endpoints.greApi }, creds, callOptions);
    const answer: AuthorityResult | null = outcome.ok ? null : outcome.result;
    authorityCalls.inc({ operation: 'check', classification: answer?.origin ?? 'answered' });
    const who = `GRE client ${clientId} with SOL user ${sol.solUser}`;
    const checked = answer
      ? judgeAnswer(
          'gre_credentials',
          answer,
          sol.solUser,
          who,
          `Load the client and secret of Menú SOL: PATCH /v1/companies/${company.ruc}/gre-credentials`,
        )
      : result('gre_credentials', 'ok', `SUNAT issued a token to ${who}`, {
          asked_at: new Date().toISOString(),
          user: sol.solUser,
          code: null,
        });
    return { ...checked, fields: { ...checked.fields, client_id: clientId } };
  }

  /**
   * The credentials checks and the one SUNAT call of this run: when both apply, the one never asked or whose credentials
   * changed since it was asked goes first, else the one asked longest ago; the other keeps its last answer.
   */
  function credentialChecks(
    company: CompanyRow,
    own: boolean,
    previous: Map<CheckId, CheckRow>,
  ): { results: CheckResult[]; due: (() => Promise<CheckResult>) | null; asked: CompanyCheckSummary['asked'] } {
    const endpoints = endpointsOf(company);
    const results: CheckResult[] = [];
    const candidates: {
      id: 'sol_credentials' | 'gre_credentials';
      ask: () => Promise<CheckResult>;
      changedAt: Date | null;
    }[] = [];
    const sol = sendingSolUser(company, company.environment, own, secrets);
    // Only SUNAT's consult service answers a harmless question; an OSE has none, SUNAT beta neither.
    if (company.destination === 'tax_authority' && endpoints?.billConsultService) {
      if (!sol) {
        const which = own
          ? 'secondary_user and secondary_password (it signs with its own certificate)'
          : 'sol_user and sol_password';
        results.push(
          result(
            'sol_credentials',
            'unknown',
            `no SOL credentials are loaded, so nothing can be sent to SUNAT: PATCH /v1/companies/${company.ruc}/sol-credentials with ${which}`,
          ),
        );
      } else {
        candidates.push({
          id: 'sol_credentials',
          ask: () => askSol(company, endpoints, sol),
          changedAt: company.sol_updated_at,
        });
      }
    }
    const { gre_client_id: clientId, gre_client_secret_sealed: secretSealed } = company;
    if (clientId && secretSealed && endpoints) {
      if (!sol) {
        results.push(
          result(
            'gre_credentials',
            'unknown',
            `the GRE client needs the company's SOL user too: PATCH /v1/companies/${company.ruc}/sol-credentials`,
          ),
        );
      } else {
        candidates.push({
          id: 'gre_credentials',
          ask: () => askGre(company, endpoints, sol, clientId, secretSealed),
          changedAt: company.gre_updated_at,
        });
      }
    }
    const askedAt = (id: CheckId) => {
      const at = previous.get(id)?.fields.asked_at;
      return typeof at === 'string' ? Date.parse(at) : null;
    };
    const stale = (c: (typeof candidates)[number]) => {
      const at = askedAt(c.id);
      return at === null || (c.changedAt !== null && new Date(c.changedAt).getTime() > at);
    };
    const chosen =
      candidates.find(stale) ?? [...candidates].sort((a, b) => (askedAt(a.id) ?? 0) - (askedAt(b.id) ?? 0))[0] ?? null;
    for (const c of candidates) {
      if (c === chosen) continue;
      const row = previous.get(c.id);
      results.push(
        row
          ? carried(row)
          : result(c.id, 'unknown', 'not asked yet: one SUNAT call per company and run, this one is asked next run'),
      );
    }
    return { results, due: chosen?.ask ?? null, asked: chosen?.id ?? null };
  }

  async function seriesGapsCheck(company: CompanyRow, today: string): Promise<CheckResult> {
    const since = addDays(today, -config.checks.gapDays);
    const gaps = await findSeriesGaps(db, company.id, since);
    const fields = { since, gaps };
    if (!gaps.length)
      return result('series_gaps', 'ok', `no numbers missing in any series issued since ${since}`, fields);
    const missing = gaps.reduce((n, g) => n + g.missing_count, 0);
    const list = gaps
      .flatMap((g) => g.missing)
      .slice(0, 10)
      .join(', ');
    return result(
      'series_gaps',
      'warn',
      `${missing} numbers missing in ${gaps.length} series since ${since} (${list}${missing > 10 ? ', …' : ''}): ask the integrator why their system skipped them: SUNAT expects each series numbered without gaps`,
      fields,
    );
  }

  async function sendingWindowCheck(company: CompanyRow, now: Date): Promise<CheckResult> {
    const days = config.issuing.sendingWindowDays;
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
      return result(
        'sending_window',
        'fail',
        `${closed.length} documents without a verdict are past SUNAT's ${days}-day sending window (${numbers(closed)}): SUNAT refuses them (2108); issue them again with today's date`,
        fields,
      );
    }
    if (closing.length) {
      return result(
        'sending_window',
        'warn',
        `${closing.length} documents without a verdict have their sending window closing within 24 h (${numbers(closing)}): send them now (POST /v1/cpe/{id}/send, or chasqui support resend)`,
        fields,
      );
    }
    return result(
      'sending_window',
      'ok',
      'no document without a verdict has its sending window closing within 24 h',
      fields,
    );
  }

  async function ruleReadinessCheck(company: CompanyRow, today: string): Promise<CheckResult> {
    const rules = config.rules.upcoming(today, RULE_HORIZON_DAYS);
    const since = addDays(today, -RULE_LOOKBACK_DAYS);
    // One read of the documents the coming rules judge; each document judged once per date rules start on.
    const files = documentFiles(config);
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
      return result(
        'rule_readiness',
        'ok',
        rules.length
          ? `the documents of the last ${RULE_LOOKBACK_DAYS} days pass the ${rules.length} rules starting within ${RULE_HORIZON_DAYS} days`
          : `no SUNAT rule starts within ${RULE_HORIZON_DAYS} days`,
        fields,
      );
    }
    const said = failing
      .map(
        (r) =>
          `${r.would_fail} of ${r.documents_checked} would fail ${r.rule} from ${r.effective} (SUNAT ${[...new Set(r.examples.map((e) => e.code))].join('/')})`,
      )
      .join('; ');
    return result(
      'rule_readiness',
      'warn',
      `${said}: the integrator changes its payloads before that date (the numbers and messages are in this check's rules[].examples)`,
      fields,
    );
  }

  /**
   * A company's own SMTP server as the buyer's e-mail would use it: a setting stored before issue 32 with anything but
   * scheme, user, password, host and port is not used (the e-mail fails), and a host that stopped being public neither.
   * Only for companies with their own server (or that had one: the row then says it is gone).
   */
  async function emailServerCheck(company: CompanyRow, had: boolean): Promise<CheckResult[]> {
    const sealed = (await findCompanyEmailSettings(db, company.id))?.smtp_url_sealed ?? null;
    if (!sealed)
      return had ? [result('email_server', 'ok', "no own SMTP server: buyers' e-mails go through chasqui's")] : [];
    const parsed = parseSmtpUrl(deps.secrets.open(sealed));
    const fix = `store it again with PATCH /v1/companies/${company.ruc}/email (smtp://user:password@host:port)`;
    if (!parsed.ok)
      return [
        result(
          'email_server',
          'fail',
          `the company's SMTP setting is not used, so its buyers get no e-mail: it ${parsed.message}; ${fix}`,
        ),
      ];
    const { host, port } = parsed.server;
    const target = await checkPublicHost(host, { allowPrivate: config.webhookAllowPrivate, lookup: deps.lookup });
    if (!target.ok)
      return [result('email_server', 'fail', `the company's SMTP server ${target.message}; ${fix}`, { host, port })];
    return [result('email_server', 'ok', `the company's SMTP server ${host}:${port} is a public host`, { host, port })];
  }

  async function procedureChecks(company: CompanyRow, own: boolean): Promise<CheckResult[]> {
    // SUNAT beta checks neither: a demo company needs no procedure to send there.
    if (company.environment !== '02') return [];
    const rows = new Map((await listProcedures(db, [company.id])).map((p) => [p.procedure, p]));
    const names: ProcedureName[] = ['ose_link', 'pse_authorization'];
    return names
      .filter((name) => isApplicable(name, company, own))
      .map((name) => {
        const row = rows.get(name);
        const what =
          name === 'ose_link'
            ? `the link to the provider OSE (RUC ${config.providerRuc})`
            : `the authorisation of the service as PSE (RUC ${config.providerRuc})`;
        const fields = {
          state: row?.state ?? 'pending',
          attempts: row?.attempts ?? 0,
          last_error: row?.last_error ?? null,
          done_at: row?.done_at ?? null,
        };
        if (row?.state === 'done') return result(name, 'ok', `${what} is done at SUNAT's portal`, fields);
        if (row?.state === 'failed')
          return result(
            name,
            'fail',
            `${what} failed: ${row.last_error ?? 'no reason recorded'}; load working SOL credentials (PATCH /v1/companies/${company.ruc}/sol-credentials) to retry`,
            fields,
          );
        const fix = company.sol_user
          ? 'chasqui runs it at the portal and retries by itself'
          : `it needs the principal SOL user: PATCH /v1/companies/${company.ruc}/sol-credentials`;
        return result(name, 'warn', `${what} is not done yet (${fields.state}): ${fix}`, fields);
      });
  }

  /** Starts the delivery of every change of the company not yet started; without a webhook, stores it handled. */
  async function notifyChanges(company: CompanyRow): Promise<number> {
    const events = await listUnnotifiedCheckEvents(db, company.id);
    for (const event of events) {
      if (company.webhook_url) {
        const delivery = await openCheckDelivery(db, event, CHECK_WEBHOOK_EVENT);
        await startCheckDeliveryWorkflow(deps.temporal, config.temporal.taskQueue, event.id, delivery.id);
      }
      await markCheckEventNotified(db, event.id);
    }
    return events.length;
  }

  return {
    async listCheckedCompanies(companyIds) {
      const q = db('companies').where({ active: true }).orderBy('created_at').pluck('id');
      if (companyIds) q.whereIn('id', companyIds);
      return q;
    },

    async runCompanyChecks(companyId) {
      const company = await findCompanyById(db, companyId);
      if (!company) return null;
      const previous = new Map((await listCheckRows(db, [company.id])).map((row) => [row.check, row]));
      const held = company.certificate_id ? await findCertificate(db, company.certificate_id) : undefined;
      // Spec 1: a company signing with its own certificate sends with its secondary SOL user.
      const own = held?.origin === 'own';
      const credentials = credentialChecks(company, own, previous);
      if (credentials.due) {
        // The budget is taken before anything else: a company that must wait is run whole after the wait.
        const admitted = await admitRequest(db, CHECKS_RATE_KEY, config.checks.ratePerMinute, 60);
        if (!admitted.admitted) return { waitSeconds: admitted.resetSeconds };
      }
      const now = new Date();
      const today = limaDate(now);
      const results: CheckResult[] = [await certificateCheck(company, held), ...credentials.results];
      if (credentials.due) results.push(await credentials.due());
      results.push(await seriesGapsCheck(company, today));
      if (config.issuing.sendingWindowDays > 0) results.push(await sendingWindowCheck(company, now));
      results.push(await ruleReadinessCheck(company, today), ...(await procedureChecks(company, own)));
      results.push(...(await emailServerCheck(company, previous.has('email_server'))));
      await saveCheckResults(db, company.id, results);
      const events = await notifyChanges(company);
      const statuses = Object.fromEntries(results.map((r) => [r.id, r.status]));
      logger.info({ ruc: company.ruc, statuses, asked: credentials.asked, events }, 'company checks recorded');
      return { companyId: company.id, ruc: company.ruc, statuses, asked: credentials.asked, events };
    },
  };
}
