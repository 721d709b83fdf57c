import type { Config } from '../../core/config';
import type { ListedDocument } from '../../db/documents';
import { documentWorkflowId } from '../../workflows/document';

/** Why an unresolved document has no verdict yet, in the words `stuck` groups by (docs/operations.md). */
export const REASONS = {
  timeout: 'timed out at the authority: waiting for reconciliation (state query every 10 min) — `recheck` queries now',
  ticket: 'received with a ticket, verdict pending (code 98): polled with growing waits — `recheck` polls now',
  connection: 'connection failures: the authority was not reached; retried with growing waits — `resend` retries now',
  not_received: 'the authority has no record of it (never received): sent again after a short wait — `resend` sends now',
  unreadable: 'the authority answered but the answer could not be processed: `recheck` queries the real state',
  not_started: 'committed but its workflow never started: the sweeper starts it within a minute',
  sending: 'being sent now (no attempt finished yet)',
  manual: 'waiting for POST /v1/cpe/{id}/send (company in manual sending mode)',
  summary: 'waiting for the daily summary (receipt in summary mode)',
} as const;

export type Reason = keyof typeof REASONS;

export function reasonOf(doc: Pick<ListedDocument, 'status' | 'result' | 'workflow_started_at'>): Reason {
  const origin = doc.result?.origin;
  if (doc.status === 'to_send') return 'manual';
  if (doc.status === 'to_summarize') return 'summary';
  if (doc.status === 'registered') return 'ticket';
  if (origin === 'timeout') return 'timeout';
  if (origin === 'system') return 'unreadable';
  if (origin === 'connection') return 'connection';
  if (doc.result?.reached_sunat === false) return 'not_received';
  if (!doc.workflow_started_at) return 'not_started';
  return 'sending';
}

/** The document's workflow in the Temporal UI, where one is known. */
export function uiLink(config: Config, externalId: string): string | null {
  const base = config.temporal.uiUrl ?? (config.temporal.address ? null : `http://127.0.0.1:${config.temporal.uiPort}`);
  return base ? `${base.replace(/\/$/, '')}/namespaces/${config.temporal.namespace}/workflows/${documentWorkflowId(externalId)}` : null;
}

/** `3h 12m`, `4m 05s`, `12s`. */
export function age(since: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000));
  if (s >= 86_400) return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** `30m`, `2h`, `1d`, `90s` → seconds; null when it is none of those. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

/** A plain table: columns padded to their widest cell. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
}

export const iso = (d: Date | null | undefined) => (d ? `${new Date(d).toISOString().slice(0, 19).replace('T', ' ')}Z` : '-');
