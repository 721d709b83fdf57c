import os from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseMasterKey, SecretBox } from './secretbox';
import { endpointConfigFromEnv, type EndpointConfig } from './endpoints';
import { parseIgvRates, parseProductCodes, parseRuleDates, RuleCalendar } from '../documents/calendar';
import { bool, ConfigError, duration, int, onOff, str } from './env-values';
import { buyersConfigOf, type BuyersConfig } from './buyers-config';
import { parseFilesUrl, s3SettingsOf, type FilesLocation } from '../files/location';
import { heavySettingsOf, type HeavySettings } from './heavy-config';
import { peopleSettingsOf, type PeopleSettings } from './people-config';
import { consoleSettingsOf, type ConsoleSettings } from './console-config';
import { laneSettingsOf, type LaneSettings } from './lanes-config';

export { ConfigError } from './env-values';
export { isMailbox } from './buyers-config';

/**
 * The one place that reads the environment (each variable through env-values.ts, CHASQUI_FILES_URL through
 * files/location.ts). Every variable is documented in docs/configuration.md;
 * invalid values stop start-up with a message naming the variable.
 */
export interface Config extends HeavySettings, PeopleSettings, ConsoleSettings {
  port: number;
  host: string;
  /** Port of `chasqui worker`'s own GET /metrics (the API serves its metrics on its own port). */
  metricsPort: number;
  databaseUrl: string | null;
  /** Port of the embedded PostgreSQL that `chasqui start` runs when DATABASE_URL is unset. */
  embeddedPostgresPort: number;
  dataDir: string;
  /** Where downloaded tools (the Temporal binaries) are kept between runs and clones: CHASQUI_CACHE_DIR, else the user's cache dir. */
  cacheDir: string;
  /** The Chromium that tests drive pages with (runtime/browser.ts): CHASQUI_CHROMIUM, else PATH, the npm package. */
  chromium: string | null;
  temporal: {
    address: string | null;
    namespace: string;
    taskQueue: string;
    bin: string | null;
    /** The time-skipping test server (tests only). */
    testServerBin: string | null;
    /** Port of the dev server that `chasqui start` runs when TEMPORAL_ADDRESS is unset. */
    port: number;
    uiPort: number;
    /** The Temporal UI's address, for links support staff follow (TEMPORAL_UI_URL; npm start's own UI otherwise). */
    uiUrl: string | null;
    /** Starts carry a priority and the account's fairness key (CHASQUI_FAIRNESS, workflows/priority-types.ts). */
    fairness: boolean;
    /** Workflow tasks a worker runs at once (CHASQUI_WORKFLOW_TASK_SLOTS); a first task holds its slot during the send. */
    workflowTaskSlots: number;
    /** An account's documents past this many in 10 s start as batch, and wait while others issue (CHASQUI_ACCOUNT_BURST; 0 never). */
    accountBurst: number;
    lanes: LaneSettings;
  };
  masterKey: string | null;
  retiredMasterKeys: string[];
  bootstrapAccountToken: string | null;
  webhookAllowPrivate: boolean;
  /** How long a webhook receiver has to answer (spec 8: 10 s). */
  webhookTimeoutMs: number;
  /** PEM file of an extra CA trusted for webhook receivers besides the system's (a self-signed receiver in development). */
  webhookCaFile: string | null;
  rateLimitPerMinute: number;
  /** The same, per account: all its tokens and companies together (CHASQUI_ACCOUNT_RATE_LIMIT_PER_MINUTE; 0 off). */
  accountRateLimitPerMinute: number;
  /** The rate limit's sliding window; 60 s (spec 8) unless a test injects a shorter one. */
  rateLimitWindowSeconds?: number;
  /** RUC of the service itself, as PSE and as provider OSE, used in portal procedures. */
  providerRuc: string;
  portalUrl: string | null;
  /** SUNAT/OSE endpoints (core/endpoints.ts, resolved per company by authority/endpoints.ts); CHASQUI_AUTHORITY_URL points every service at the simulator. */
  authority: EndpointConfig;
  simulatorPort: number;
  /** `chasqui start` runs the simulator as the demo authority unless CHASQUI_SIMULATOR=false or CHASQUI_AUTHORITY_URL is set. */
  startSimulator: boolean;
  /** The simulator judges received documents with SUNAT's own XSL rules (validator/); off by default, for speed. */
  simulatorSunatRules: boolean;
  /** SUNAT's sending window (2108) as the simulator applies it: days after the issue date; 0 for fixtures with old dates. */
  simulatorSendingWindowDays: number;
  /** Where `chasqui validate` and the simulator keep SUNAT's rules compiled (outside the clone; made on first use). */
  validatorCacheDir: string;
  procedures: { retryInitialSeconds: number; retryMaxSeconds: number };
  certificateMaxBytes: number;
  /** Largest logo accepted by PUT /v1/companies/{ruc}/logo: every PDF of the company embeds it. */
  logoMaxBytes: number;
  issuing: {
    /** Thousandths of a plan 01 signature that signing with the company's own certificate consumes (1000 = one). */
    ownCertificateUnits: number;
    /** Days a plan 02 provider certificate lasts, counted from its first production signature. */
    plan02ValidityDays: number;
    /** How long a request in response mode `wait` (and the legacy endpoint) waits for the verdict. */
    waitTimeoutSeconds: number;
    /** The provider certificate that signs production documents of companies without one of their own. */
    providerPfxPath: string | null;
    providerPfxPassword: string;
    /**
     * SUNAT's sending window (error 2108): days after fechaEmision a factura, boleta or note is still received; issuing
     * later is refused before signing, and the 202 warns on its last day. 0 turns the check off.
     */
    sendingWindowDays: number;
  };
  /** Budgets of one call to SUNAT or an OSE; Temporal, not the connector, decides about retries. */
  authorityTimeouts: { connectMs: number; responseMs: number };
  /**
   * How long a first send whose state can be queried waits for its answer in the workflow's first task; past it a
   * regular activity queries, then sends again (docs/delivery.md): under Temporal's 5 s workflow-task warning.
   */
  firstSendWaitMs: number;
  /** The service's own account at its provider OSE (destination provider_ose); the company's SOL user otherwise. */
  providerOseCredentials: { user: string; password: string } | null;
  /** The daily summary run (docs/summaries.md): its hour in America/Lima and SUNAT's line limit per rc. */
  summary: { hour: number; maxLines: number };
  /**
   * SUNAT's dated rules with CHASQUI_RULE_DATES applied and the special IGV rates of CHASQUI_IGV_RATES (docs/rules.md);
   * asked with each document's issue date.
   */
  rules: RuleCalendar;
  /** Days before a rule's date from which the 202 warns about documents that would fail it (CHASQUI_RULE_WARN_DAYS). */
  ruleWarnDays: number;
  /**
   * Days a settled webhook delivery (and its attempts) is kept after it ended (CHASQUI_WEBHOOK_HISTORY_DAYS, default
   * 90); null (`0` or `forever`) keeps it for good. The document itself is never pruned (docs/webhooks.md).
   */
  webhookHistoryDays: number | null;
  /** The company checks (docs/operations.md, "Company checks"). */
  checks: {
    /** How often the schedule runs every company's checks (CHASQUI_CHECKS_EVERY, default 6 h), in milliseconds. */
    everyMs: number;
    /** Calls to SUNAT a minute, all checks of every run together (CHASQUI_CHECKS_RATE). */
    ratePerMinute: number;
    /** Companies checked at the same time within one run (CHASQUI_CHECKS_CONCURRENCY). */
    concurrency: number;
    /** A certificate expiring within this many days is a warning (CHASQUI_CERT_WARN_DAYS). */
    certWarnDays: number;
    /** How far back series_gaps looks (CHASQUI_GAP_DAYS). */
    gapDays: number;
  };
  /** The buyer's e-mail and the consultation page (docs/buyers.md). */
  buyers: BuyersConfig;
  /** Proxies in front of the API whose X-Forwarded-For is believed (CHASQUI_TRUST_PROXY; 0: the socket's address). */
  trustProxy: number;
  /** Live keys of one kind the per-address limits keep before a new one shares an overflow limit (CHASQUI_RATE_LIMIT_KEYS). */
  rateLimitKeys: number;
  /** Where signed XML and CDRs are kept (CHASQUI_FILES_URL, docs/files.md); PostgreSQL's documents row by default. */
  files: FilesLocation;
}

function ruleCalendarOf(env: NodeJS.ProcessEnv): RuleCalendar {
  const parsed = <T>(name: string, parse: (text: string) => T): T => {
    try {
      return parse(str(env, name) ?? '');
    } catch (err) {
      throw new ConfigError(`${name}: ${(err as Error).message}`);
    }
  };
  const codesFile = str(env, 'CHASQUI_PRODUCT_CODES');
  // The operator's catalog 25, read once at start: a file that cannot be read or parsed stops start-up.
  const productCodes = codesFile
    ? parsed('CHASQUI_PRODUCT_CODES', () => parseProductCodes(readFileSync(codesFile, 'utf8'), codesFile))
    : undefined;
  return new RuleCalendar(
    parsed('CHASQUI_RULE_DATES', parseRuleDates),
    parsed('CHASQUI_IGV_RATES', parseIgvRates),
    productCodes,
  );
}

/** SUNAT accepts at most 500 lines in one resumen diario (rc). */
export const SUNAT_SUMMARY_MAX_LINES = 500;

/** Where fetched Temporal servers, compiled SUNAT rules and test tools are kept: one folder shared by every clone. */
function webhookHistoryDaysOf(env: NodeJS.ProcessEnv): number | null {
  if (str(env, 'CHASQUI_WEBHOOK_HISTORY_DAYS')?.trim().toLowerCase() === 'forever') return null;
  const days = int(env, 'CHASQUI_WEBHOOK_HISTORY_DAYS', 90);
  return days === 0 ? null : days;
}

function cacheDirOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(
    str(env, 'CHASQUI_CACHE_DIR') ??
      path.join(str(env, 'XDG_CACHE_HOME') ?? path.join(str(env, 'HOME') ?? os.homedir(), '.cache'), 'chasqui'),
  );
}

/** Off (the socket's address) or the number of proxies in front: the client is that many hops from the right. */
function trustProxyOf(env: NodeJS.ProcessEnv): number {
  const raw = (str(env, 'CHASQUI_TRUST_PROXY') ?? 'off').toLowerCase();
  if (['off', 'false', '0'].includes(raw)) return 0;
  if (!/^[1-9]$/.test(raw))
    throw new ConfigError(
      `CHASQUI_TRUST_PROXY must be off or the number of proxies in front of chasqui (1 to 9), got '${env.CHASQUI_TRUST_PROXY}'`,
    );
  return Number(raw);
}

/** The limits no single variable's reader can tell alone, checked once every variable is read. */
function checkRanges(config: Config): void {
  // Every word of a demo document is the account's own: its ceiling is never above the production one (0: none).
  const { mailPerAccountHour: production, mailPerAccountHourDemo: demo } = config.buyers;
  if (production > 0 && (demo === 0 || demo > production))
    throw new ConfigError(
      `CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO must be between 1 and CHASQUI_MAIL_PER_ACCOUNT_HOUR (${production}), got ${demo}`,
    );
  if (config.checks.ratePerMinute < 1) throw new ConfigError('CHASQUI_CHECKS_RATE must be at least 1 call a minute');
  if (config.checks.concurrency < 1) throw new ConfigError('CHASQUI_CHECKS_CONCURRENCY must be at least 1');
  if (config.issuing.ownCertificateUnits > 1000) {
    throw new ConfigError(
      `CHASQUI_OWN_CERTIFICATE_UNITS is in thousandths of a signature and must be at most 1000, got ${config.issuing.ownCertificateUnits}`,
    );
  }
  if (config.summary.hour > 23)
    throw new ConfigError(`CHASQUI_SUMMARY_HOUR must be an hour of the day, 0 to 23, got ${config.summary.hour}`);
  if (config.summary.maxLines < 1 || config.summary.maxLines > SUNAT_SUMMARY_MAX_LINES) {
    throw new ConfigError(
      `CHASQUI_SUMMARY_MAX_LINES must be 1 to ${SUNAT_SUMMARY_MAX_LINES} (SUNAT's limit per daily summary), got ${config.summary.maxLines}`,
    );
  }
  if (config.buyers.smtpUrl && !config.buyers.mailFrom)
    throw new ConfigError('CHASQUI_MAIL_FROM is required with CHASQUI_SMTP_URL: the sender of the e-mails to buyers');
  if (config.masterKey) parseMasterKey(config.masterKey);
  config.retiredMasterKeys.forEach((key, i) => {
    try {
      parseMasterKey(key);
    } catch (err) {
      throw new ConfigError(`CHASQUI_MASTER_KEYS_OLD: key ${i + 1}: ${(err as Error).message}`);
    }
  });
}

/** Where Temporal is and how this service uses it (docs/configuration.md). */
function temporalConfigOf(env: NodeJS.ProcessEnv): Config['temporal'] {
  return {
    address: str(env, 'TEMPORAL_ADDRESS'),
    namespace: str(env, 'TEMPORAL_NAMESPACE') ?? 'default',
    taskQueue: str(env, 'TEMPORAL_TASK_QUEUE') ?? 'chasqui',
    bin: str(env, 'TEMPORAL_BIN'),
    testServerBin: str(env, 'TEMPORAL_TEST_SERVER_BIN'),
    port: int(env, 'TEMPORAL_PORT', 7233),
    uiPort: int(env, 'TEMPORAL_UI_PORT', 8233),
    uiUrl: str(env, 'TEMPORAL_UI_URL'),
    fairness: onOff(env, 'CHASQUI_FAIRNESS', true),
    workflowTaskSlots: int(env, 'CHASQUI_WORKFLOW_TASK_SLOTS', 40, 2), // Temporal's core polls with two pollers at least
    accountBurst: int(env, 'CHASQUI_ACCOUNT_BURST', 20, 0),
    lanes: laneSettingsOf(env),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config: Config = {
    port: int(env, 'PORT', 3000),
    metricsPort: int(env, 'CHASQUI_METRICS_PORT', 9464),
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: str(env, 'DATABASE_URL'),
    embeddedPostgresPort: int(env, 'CHASQUI_EMBEDDED_PG_PORT', 54329),
    dataDir: path.resolve(str(env, 'CHASQUI_DATA_DIR') ?? '.data'),
    cacheDir: cacheDirOf(env),
    chromium: str(env, 'CHASQUI_CHROMIUM'),
    temporal: temporalConfigOf(env),
    masterKey: str(env, 'CHASQUI_MASTER_KEY'),
    retiredMasterKeys: (str(env, 'CHASQUI_MASTER_KEYS_OLD') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    bootstrapAccountToken: str(env, 'CHASQUI_BOOTSTRAP_ACCOUNT_TOKEN'),
    webhookAllowPrivate: bool(env, 'CHASQUI_WEBHOOK_ALLOW_PRIVATE'),
    webhookTimeoutMs: int(env, 'CHASQUI_WEBHOOK_TIMEOUT_MS', 10_000),
    webhookCaFile: str(env, 'CHASQUI_WEBHOOK_CA_FILE'),
    rateLimitPerMinute: int(env, 'CHASQUI_RATE_LIMIT_PER_MINUTE', 120),
    accountRateLimitPerMinute: int(env, 'CHASQUI_ACCOUNT_RATE_LIMIT_PER_MINUTE', 600),
    providerRuc: str(env, 'CHASQUI_PROVIDER_RUC') ?? '20100066603',
    portalUrl: str(env, 'CHASQUI_PORTAL_URL'),
    authority: endpointConfigFromEnv(env),
    simulatorPort: int(env, 'SIMULATOR_PORT', 4010),
    startSimulator:
      env.CHASQUI_SIMULATOR === undefined || env.CHASQUI_SIMULATOR === '' ? true : bool(env, 'CHASQUI_SIMULATOR'),
    simulatorSunatRules: bool(env, 'CHASQUI_SIMULATOR_SUNAT_RULES'),
    simulatorSendingWindowDays: int(env, 'CHASQUI_SIMULATOR_SENDING_WINDOW_DAYS', 3),
    validatorCacheDir: path.resolve(str(env, 'CHASQUI_VALIDATOR_CACHE') ?? path.join(cacheDirOf(env), 'validator')),
    procedures: {
      retryInitialSeconds: int(env, 'CHASQUI_PROCEDURES_RETRY_INITIAL_SECONDS', 30),
      retryMaxSeconds: int(env, 'CHASQUI_PROCEDURES_RETRY_MAX_SECONDS', 3600),
    },
    certificateMaxBytes: int(env, 'CHASQUI_CERTIFICATE_MAX_BYTES', 64 * 1024),
    logoMaxBytes: int(env, 'CHASQUI_LOGO_MAX_BYTES', 256 * 1024),
    issuing: {
      ownCertificateUnits: int(env, 'CHASQUI_OWN_CERTIFICATE_UNITS', 500),
      plan02ValidityDays: int(env, 'CHASQUI_PLAN02_VALIDITY_DAYS', 365),
      waitTimeoutSeconds: int(env, 'CHASQUI_WAIT_TIMEOUT_SECONDS', 25),
      providerPfxPath: str(env, 'CHASQUI_PROVIDER_PFX'),
      providerPfxPassword: env.CHASQUI_PROVIDER_PFX_PASSWORD ?? '',
      sendingWindowDays: int(env, 'CHASQUI_SENDING_WINDOW_DAYS', 3),
    },
    authorityTimeouts: {
      connectMs: int(env, 'CHASQUI_AUTHORITY_CONNECT_TIMEOUT_MS', 5_000),
      responseMs: int(env, 'CHASQUI_AUTHORITY_RESPONSE_TIMEOUT_MS', 60_000),
    },
    firstSendWaitMs: int(env, 'CHASQUI_FIRST_SEND_WAIT_MS', 4_000),
    providerOseCredentials:
      str(env, 'PROVIDER_OSE_USER') && str(env, 'PROVIDER_OSE_PASSWORD')
        ? { user: str(env, 'PROVIDER_OSE_USER')!, password: str(env, 'PROVIDER_OSE_PASSWORD')! }
        : null,
    summary: {
      hour: int(env, 'CHASQUI_SUMMARY_HOUR', 23),
      maxLines: int(env, 'CHASQUI_SUMMARY_MAX_LINES', SUNAT_SUMMARY_MAX_LINES),
    },
    rules: ruleCalendarOf(env),
    ruleWarnDays: int(env, 'CHASQUI_RULE_WARN_DAYS', 60),
    webhookHistoryDays: webhookHistoryDaysOf(env),
    checks: {
      everyMs: duration(env, 'CHASQUI_CHECKS_EVERY', '6h'),
      ratePerMinute: int(env, 'CHASQUI_CHECKS_RATE', 30),
      concurrency: int(env, 'CHASQUI_CHECKS_CONCURRENCY', 4),
      certWarnDays: int(env, 'CHASQUI_CERT_WARN_DAYS', 30),
      gapDays: int(env, 'CHASQUI_GAP_DAYS', 45),
    },
    buyers: buyersConfigOf(env),
    trustProxy: trustProxyOf(env),
    rateLimitKeys: int(env, 'CHASQUI_RATE_LIMIT_KEYS', 10_000, 1),
    files: parseFilesUrl(str(env, 'CHASQUI_FILES_URL') ?? 'postgres:', s3SettingsOf(env)),
    ...heavySettingsOf(env),
    ...peopleSettingsOf(env),
    ...consoleSettingsOf(env),
  };
  checkRanges(config);
  return config;
}

/** The secret box for this process; production entries refuse to start without a master key. */
export function secretBoxFrom(config: Config): SecretBox {
  if (!config.masterKey)
    throw new ConfigError(
      'CHASQUI_MASTER_KEY is required (32 random bytes, base64 or hex): secrets are encrypted at rest with it',
    );
  return new SecretBox(parseMasterKey(config.masterKey), config.retiredMasterKeys.map(parseMasterKey));
}
