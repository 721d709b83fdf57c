/** `3h 12m`, `4m 05s`, `12s`. */
export function age(since: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000));
  if (s >= 86_400) return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** A plain table: columns padded to their widest cell. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const iso = (d: Date | null | undefined) =>
  d ? `${new Date(d).toISOString().slice(0, 19).replace('T', ' ')}Z` : '-';
