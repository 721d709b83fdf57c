/** `30m`, `2h`, `1d`, `90s` → seconds; null when it is none of those (`--older-than`, `--expires`, the console's age). */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as 's' | 'm' | 'h' | 'd'];
}
