import got from 'got';

/** Prometheus text of `url`/metrics → the value of one series (0 when absent). */
export async function metric(url: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await got(`${url}/metrics`).text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [series, value] = line.split(' ');
    if (wanted.every((w) => series.includes(w))) return Number(value);
  }
  return 0;
}
