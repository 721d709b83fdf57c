/** bench:cost's load: invoices of one company posted at BENCH_CONCURRENCY, and the waits until they are resolved. */
import { type Receiver } from '../test/webhooks/support';
import { CONCURRENCY, LINES } from './cost-options';
import type { Shape } from './cost-shapes';
import { invoicePayload, post } from './payloads';
import { randomRuc } from '../test/companies/helpers';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BenchCompany {
  ruc: string;
  token: string;
  id: string;
  /** Next correlativo; documents issued so far are next - 1. */
  next: number;
  /** Documents issued before the webhook was configured (not notified). */
  beforeWebhook: number;
}

/** A new demo company of the account whose token is `accountToken`, with its signing token. */
export async function newBenchCompany(shape: Shape, accountToken: string, name: string): Promise<BenchCompany> {
  const ruc = randomRuc();
  const created = await post(`${shape.apiUrl}/v1/companies`, accountToken, {
    ruc,
    business_name: name,
    plan_type: '01',
    environment: '01',
  });
  if (created.status !== 201) throw new Error(`company: ${created.status} ${JSON.stringify(created.body)}`);
  const { rows } = await shape.db.query('select id from companies where ruc = $1', [ruc]);
  return { ruc, token: created.body.data.token, id: rows[0].id, next: 1, beforeWebhook: 0 };
}

/** Issues `count` invoices at CONCURRENCY and waits until all are resolved (and notified, with a receiver). */
export async function issueAndResolve(
  shape: Shape,
  company: BenchCompany,
  count: number,
  receiver: Receiver | null,
): Promise<{ latencies: number[]; issuedSeconds: number }> {
  const issued = await issue(shape, company, count);
  await untilResolved(shape, company, receiver);
  return issued;
}

/** Issues `count` invoices at CONCURRENCY: the answers' latencies and how long issuing took. */
export async function issue(
  shape: Shape,
  company: BenchCompany,
  count: number,
): Promise<{ latencies: number[]; issuedSeconds: number }> {
  const latencies: number[] = [];
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left--;
        const t0 = performance.now();
        const res = await post(
          `${shape.apiUrl}/v1/cpe`,
          company.token,
          invoicePayload(LINES, { ruc: company.ruc, correlativo: String(company.next++) }),
        );
        if (res.status !== 202) throw new Error(`POST /v1/cpe answered ${res.status}: ${JSON.stringify(res.body)}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, issuedSeconds: (performance.now() - started) / 1000 };
}

export async function untilResolved(shape: Shape, company: BenchCompany, receiver: Receiver | null): Promise<void> {
  const expected = company.next - 1;
  const deadline = Date.now() + 900_000;
  for (;;) {
    const { rows } = await shape.db.query(
      'select count(*)::int as n from documents where company_id = $1 and resolved',
      [company.id],
    );
    const notified = receiver ? receiver.requests.length : Infinity;
    if (rows[0].n >= expected && notified >= expected - company.beforeWebhook) break;
    if (Date.now() > deadline)
      throw new Error(`only ${rows[0].n} of ${expected} resolved (${notified} notified) after 15 minutes`);
    await sleep(1000);
  }
}

/**
 * Waits until no document or webhook workflow is still running: a document counts as resolved when its row says so,
 * but its workflow still records the delivery and closes after that, and that work is the document's too.
 */
export async function quiesce(shape: Shape): Promise<void> {
  const client = await shape.temporal();
  const query = `ExecutionStatus = "Running" AND WorkflowType IN ("documentWorkflow", "webhookDeliveryWorkflow")`;
  const deadline = Date.now() + 300_000;
  while ((await client.workflow.count(query)).count > 0) {
    if (Date.now() > deadline)
      throw new Error('document and webhook workflows still running 5 minutes after their documents resolved');
    await sleep(500);
  }
}
