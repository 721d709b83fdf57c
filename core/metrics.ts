import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's one Prometheus registry (docs/operations.md lists every series and the alerts built on them).
 * Anything may record here; nothing reads a metric back to decide what to do.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Every status a document enters, by type: issued (queued/to_send/to_summarize) and resolved (accepted/observed/rejected). */
export const documentsTotal = new Counter({
  name: 'chasqui_documents_total',
  help: 'Documents that entered a status, by document type and status (issue-time statuses and verdicts)',
  labelNames: ['doc_type', 'status'] as const,
  registers: [registry],
});

export const verdictSeconds = new Histogram({
  name: 'chasqui_document_verdict_seconds',
  help: 'Time from issue to the authority verdict (accepted, observed or rejected)',
  labelNames: ['doc_type', 'status'] as const,
  // From an instant CDR to a day of reconciliation.
  buckets: [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
  registers: [registry],
});

export const authorityCalls = new Counter({
  name: 'chasqui_authority_calls_total',
  help: 'Calls to SUNAT or the OSE by operation (send, ticket, query) and classification (spec 7.4 origin; answered = a verdict or ticket without error)',
  labelNames: ['operation', 'classification'] as const,
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'chasqui_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookHistoryPruned = new Counter({
  name: 'chasqui_webhook_history_pruned_total',
  help: 'Settled webhook deliveries (with their attempts) deleted by the sweeper after CHASQUI_WEBHOOK_HISTORY_DAYS',
  registers: [registry],
});

export const refusals = new Counter({
  name: 'chasqui_refusals_total',
  help: 'Requests refused by the rate limit (429) or by the plan (402: quota, certificate)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const httpRequestSeconds = new Histogram({
  name: 'chasqui_http_request_seconds',
  help: 'API requests by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30],
  registers: [registry],
});

export const workflowStartFailures = new Counter({
  name: 'chasqui_workflow_start_failures_total',
  help: 'Document workflow starts Temporal refused or did not answer, by reason (namespace, search_attributes, unavailable, other); the document waits in PostgreSQL for the sweeper',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const fileIntegrityFailures = new Counter({
  name: 'chasqui_file_integrity_failures_total',
  help: 'Stored files (signed XML, CDR) whose bytes did not match the hash or size their row records, or that were missing, by kind and store; each is a damaged tax record to restore from a backup',
  labelNames: ['kind', 'store', 'reason'] as const,
  registers: [registry],
});

export const fileStoreErrors = new Counter({
  name: 'chasqui_file_store_errors_total',
  help: 'Object store calls that failed (unreachable, 5xx, too slow), by store and operation (put, get, head, delete, list)',
  labelNames: ['store', 'operation'] as const,
  registers: [registry],
});

/** Age buckets of the unresolved-documents gauge (upper bounds, seconds) and their labels. */
export const AGE_BUCKETS: readonly { label: string; seconds: number }[] = [
  { label: 'lt_5m', seconds: 300 },
  { label: '5m_1h', seconds: 3600 },
  { label: '1h_1d', seconds: 86_400 },
  { label: 'gt_1d', seconds: Number.POSITIVE_INFINITY },
];

/**
 * `chasqui_unresolved_documents{status,age}`, read from the database at scrape time (one grouped query over the
 * partial index of unresolved documents). Every unresolved status and age is reported, 0 when nothing is there, so
 * "nothing unresolved" is a 0 on a dashboard rather than no data. Registered by the API only, so two processes never
 * report it twice.
 */
export function registerUnresolvedGauge(
  statuses: readonly string[],
  read: () => Promise<{ status: string; age: string; count: number }[]>,
): void {
  if (registry.getSingleMetric('chasqui_unresolved_documents'))
    registry.removeSingleMetric('chasqui_unresolved_documents');
  new Gauge({
    name: 'chasqui_unresolved_documents',
    help: 'Documents without a verdict yet, by status and age since issue',
    labelNames: ['status', 'age'] as const,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const status of statuses) for (const { label } of AGE_BUCKETS) this.set({ status, age: label }, 0);
      for (const row of rows) this.set({ status: row.status, age: row.age }, row.count);
    },
  });
}

/** One company check's latest result, as the gauges read it. */
export interface CheckGaugeRow {
  ruc: string;
  check: string;
  /** 0 ok, 1 warn, 2 fail, 3 unknown. */
  value: number;
  /** The certificate check's days left (negative once expired). */
  days_left: number | null;
}

/**
 * `chasqui_company_check_status{ruc,check}` and `chasqui_certificate_expiry_days{ruc}`, read from the stored results at
 * scrape time (docs/operations.md, "Company checks"): whichever worker ran the checks, and after any restart, the API
 * shows every company. Registered by the API only, like the unresolved-documents gauge.
 */
export function registerCheckGauges(read: () => Promise<CheckGaugeRow[]>): void {
  for (const name of ['chasqui_company_check_status', 'chasqui_certificate_expiry_days']) {
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  }
  new Gauge({
    name: 'chasqui_company_check_status',
    help: 'Latest result of each company check: 0 ok, 1 warn, 2 fail, 3 unknown',
    labelNames: ['ruc', 'check'] as const,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const row of rows) this.set({ ruc: row.ruc, check: row.check }, row.value);
    },
  });
  new Gauge({
    name: 'chasqui_certificate_expiry_days',
    help: "Days until the company's signing certificate expires (negative: expired), from its latest certificate check",
    labelNames: ['ruc'] as const,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const row of rows)
        if (row.check === 'certificate' && row.days_left !== null) this.set({ ruc: row.ruc }, row.days_left);
    },
  });
}

/**
 * `chasqui_runtime_eol_days{node}`: days until the running Node line's end of life (negative once past it), counted at
 * scrape time, so a process up for months shows the date come closer (docs/operations.md, "Metrics"). Every process
 * registers its own: each may run on another Node.
 */
export function registerRuntimeEolGauge(node: string, daysLeft: () => number): void {
  if (registry.getSingleMetric('chasqui_runtime_eol_days')) registry.removeSingleMetric('chasqui_runtime_eol_days');
  new Gauge({
    name: 'chasqui_runtime_eol_days',
    help: "Days until the end of life of the process's Node.js line (negative: past it, no more security fixes)",
    labelNames: ['node'] as const,
    registers: [registry],
    collect() {
      this.set({ node }, daysLeft());
    },
  });
}

let temporalMetricsUrl: string | null = null;

/** Where the Temporal SDK's own runtime metrics are exported (a loopback port of the worker process). */
export function setTemporalMetricsUrl(url: string | null): void {
  temporalMetricsUrl = url;
}

/** chasqui's series followed by the Temporal SDK's runtime ones (worker polls, task latencies, slots). */
export async function metricsText(): Promise<string> {
  const own = await registry.metrics();
  if (!temporalMetricsUrl) return own;
  try {
    const res = await fetch(temporalMetricsUrl, { signal: AbortSignal.timeout(2_000) });
    return `${own}\n${await res.text()}`;
  } catch {
    return own;
  }
}

export const METRICS_CONTENT_TYPE = registry.contentType;

/** The heavy-work pool (heavy/pool.ts, docs/security.md "Availability"): what waits, what runs, what is refused. */
export const heavyQueued = new Gauge({
  name: 'chasqui_heavy_queued',
  help: 'Heavy tasks (PDF, PKCS#12, external XML) waiting for a thread of the pool',
  registers: [registry],
});

export const heavyRunning = new Gauge({
  name: 'chasqui_heavy_running',
  help: 'Heavy tasks running in a thread of the pool',
  registers: [registry],
});

export const heavyRefused = new Counter({
  name: 'chasqui_heavy_refused_total',
  help: "Heavy tasks refused (account: the account's queue was full, a 429; total: the pool's, a 503) or ended (timeout, memory, crashed)",
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const heavyTaskSeconds = new Histogram({
  name: 'chasqui_heavy_task_seconds',
  help: 'Time a heavy task ran in its thread, by kind (pdf, pfx, xml) and outcome (ok, error, timeout, memory, crashed)',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const printedCacheLookups = new Counter({
  name: 'chasqui_printed_cache_lookups_total',
  help: 'PDFs asked of the printed cache, by outcome (hit, miss)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/**
 * The worker's batch lane (runtime/lanes.ts): whether it is narrowed now (interactive work ran within the quiet time)
 * and the batch slots held per kind. A lane narrowed for hours means interactive work never pauses: batch work then
 * drains at its narrow width (docs/delivery.md "Two lanes").
 */
export function registerBatchLaneGauges(lane: { busy(): boolean; batchHeld(kind: 'workflow' | 'activity'): number }) {
  for (const name of ['chasqui_batch_lane_narrowed', 'chasqui_batch_lane_slots_held'])
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  new Gauge({
    name: 'chasqui_batch_lane_narrowed',
    help: 'Whether the batch lane is narrowed now because interactive work ran lately (1) or has all its slots (0)',
    registers: [registry],
    collect() {
      this.set(lane.busy() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'chasqui_batch_lane_slots_held',
    help: 'Batch-lane slots held (reserved for a poll or running a task), by kind of task',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      for (const kind of ['workflow', 'activity'] as const) this.set({ kind }, lane.batchHeld(kind));
    },
  });
}
