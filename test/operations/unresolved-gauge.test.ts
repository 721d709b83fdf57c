import { expect } from 'chai';
import { AGE_BUCKETS, registerUnresolvedGauge, registry } from '../../core/metrics';

/** The samples of chasqui_unresolved_documents in the Prometheus text, keyed `status/age`. */
async function samples(): Promise<Record<string, number>> {
  const text = await registry.getSingleMetricAsString('chasqui_unresolved_documents');
  return Object.fromEntries(
    [...text.matchAll(/^chasqui_unresolved_documents\{status="(\w+)",age="(\w+)"\} (\d+)$/gm)].map(
      ([, status, age, value]) => [`${status}/${age}`, Number(value)],
    ),
  );
}

describe('chasqui_unresolved_documents', () => {
  const statuses = ['queued', 'sent'];

  it('reports 0 for every unresolved status and age when nothing is unresolved', async () => {
    registerUnresolvedGauge(statuses, async () => []);
    const expected = Object.fromEntries(statuses.flatMap((s) => AGE_BUCKETS.map((b) => [`${s}/${b.label}`, 0])));
    expect(await samples()).to.deep.equal(expected);
  });

  it('reports what the database counts, and 0 again once it is resolved', async () => {
    let rows = [{ status: 'sent', age: '1h_1d', count: 3 }];
    registerUnresolvedGauge(statuses, async () => rows);
    const first = await samples();
    expect(first['sent/1h_1d']).to.equal(3);
    expect(Object.values(first).reduce((a, b) => a + b, 0)).to.equal(3);
    rows = [];
    expect((await samples())['sent/1h_1d']).to.equal(0);
  });
});
