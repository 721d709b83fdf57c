/**
 * `npm run bench:webhooks`: webhook attempts per second and their latency, each one complete (read the delivery, the
 * company's current URL and secret and the document; check the target; build, sign and POST the body over https to a
 * local receiver; record the attempt), on embedded PostgreSQL. Concurrency stands for worker activity slots.
 */
import { performance } from 'node:perf_hooks';
import { createWebhookActivities } from '../activities/webhooks';
import { secretBoxFrom } from '../core/config';
import { getTestDb, stopTestServices, testConfig } from '../test/support/services';
import { companyWithWebhook, localTlsCertificate, resolvedDocument, startReceiver } from '../test/webhooks/support';

async function main(): Promise<void> {
  const db = await getTestDb();
  const tls = localTlsCertificate();
  const receiver = await startReceiver(tls);
  const config = { ...testConfig(), webhookAllowPrivate: true, webhookCaFile: tls.certFile };
  const secrets = secretBoxFrom(config);
  const activities = createWebhookActivities({ config, db, secrets });
  const { company } = await companyWithWebhook(db, secrets, receiver.url);
  try {
    for (const [total, concurrency] of [
      [300, 1],
      [1000, 16],
    ]) {
      const ids: string[] = [];
      for (let i = 0; i < total; i++)
        ids.push((await activities.openWebhookDelivery((await resolvedDocument(db, company, i + 1)).id))!.deliveryId);
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < ids.length) {
            const id = ids[next++];
            const t = performance.now();
            const outcome = await activities.attemptWebhookDelivery(id, 1);
            if (outcome.status !== 'delivered') throw new Error(`attempt failed: ${outcome.error}`);
            latencies.push(performance.now() - t);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
      console.log(
        `webhook attempt n=${total} c=${concurrency}  ${(total / seconds).toFixed(0).padStart(5)} attempts/s  p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms  p99 ${pct(0.99)} ms`,
      );
    }
  } finally {
    await receiver.close();
    await stopTestServices();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
