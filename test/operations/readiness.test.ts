import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import got from 'got';
import { msToTs } from '@temporalio/common/lib/time';
import { Client } from '@temporalio/client';
import { freePort } from '../../runtime/ports';
import { connectTemporal } from '../../runtime/services';
import { checkAtStart } from '../../runtime/start-checks';
import { readiness } from '../../api/health';
import { migrate, migrationConfig } from '../../db/knex';
import { masterKeyProblem } from '../../db/sealed-secrets';
import { parseMasterKey, SecretBox, generateMasterKey } from '../../core/secretbox';
import { registry } from '../../core/metrics';
import { createSweeperActivities } from '../../activities/sweeper';
import { freshTestDatabase, testConfig, testTemporalAddress } from '../support/services';
import { startIssuingStack, newCompany, payload, issue, until, type IssuingStack } from '../issuing/support';
import { startWorker } from '../../runtime/services';
import { logLines, spawnChasqui, stopChasqui, untilOutput } from '../support/chasqui-process';

/** A namespace of its own on the run's dev server, created without chasqui's search attributes. */
async function bareNamespace(client: Client): Promise<string> {
  const namespace = `bare-${randomBytes(4).toString('hex')}`;
  await client.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  // The frontend learns of a new namespace from a cache refreshed every few seconds.
  for (const deadline = Date.now() + 30_000; ;) {
    try {
      await client.workflowService.describeNamespace({ namespace });
      return namespace;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function failuresCounted(reason: string): Promise<number> {
  const metric = await registry.getSingleMetric('chasqui_workflow_start_failures_total')!.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

const box = (...keys: string[]) => new SecretBox(parseMasterKey(keys[0]), keys.slice(1).map(parseMasterKey));

/**
 * Readiness tells the truth (issue 29): a namespace without chasqui's search attributes, a database behind the code's
 * migrations and a master key that cannot open the stored secrets are each named by /readyz with the fix, said once
 * by the worker at start, and documents issued meanwhile start once the cause is fixed.
 */
describe('readiness: namespace, migrations, master key', function () {
  this.timeout(120_000);
  let admin: Client;

  before(async () => {
    admin = await connectTemporal(testConfig(), await testTemporalAddress());
  });
  after(() => admin?.connection.close());

  describe('a namespace without the search attributes', () => {
    let namespace: string;
    let issuing: IssuingStack;

    before(async () => {
      namespace = await bareNamespace(admin);
      const base = testConfig();
      issuing = await startIssuingStack(
        { temporal: { ...base.temporal, namespace, taskQueue: `test-${randomBytes(4).toString('hex')}` } },
        { worker: false },
      );
    });
    after(() => issuing?.stop());

    it('accepts documents, answers 503 naming the attributes and the fix, counts the failed starts, and starts them once registered', async () => {
      const { stack } = issuing;
      const company = await newCompany(stack, { quota: 10 });
      const res = await issue(stack, company.token, payload('invoice-basic.json', company.ruc));
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const id = res.body.external_id as string;
      await stack.workflowStarts.idle();

      const ready = await got(`${stack.url}/readyz`, { throwHttpErrors: false });
      expect(ready.statusCode).to.equal(503);
      const body = JSON.parse(ready.body) as { message: string; data: Record<string, string> };
      expect(body.data.temporal_namespace).to.contain(`Temporal namespace ${namespace} lacks search attributes`);
      for (const name of ['Ruc (Keyword)', 'DocNumber (Keyword)', 'IssueDate (Datetime)'])
        expect(body.data.temporal_namespace).to.contain(name);
      expect(body.data.temporal_namespace).to.contain(
        `temporal operator search-attribute create --namespace ${namespace} --name IssueDate --type Datetime`,
      );
      expect(body.message).to.match(/^not ready: temporal_namespace: /);
      expect({
        database: body.data.database,
        temporal: body.data.temporal,
        master_key: body.data.master_key,
      }).to.deep.equal({ database: 'ok', temporal: 'ok', master_key: 'ok' });

      // The sweeper (past the API's grace period) cannot start it either: one line, counted by reason.
      await stack
        .db('documents')
        .where({ id })
        .update({ created_at: stack.db.raw("now() - interval '1 minute'") });
      const sweeper = createSweeperActivities({
        config: stack.config,
        db: stack.db,
        files: stack.files,
        secrets: stack.secrets,
        temporal: stack.temporal,
      });
      const before = await failuresCounted('search_attributes');
      expect(await sweeper.startUnstartedDocuments()).to.equal(0);
      expect(await failuresCounted('search_attributes')).to.be.greaterThan(before);
      expect((await stack.db('documents').where({ id }).first()).workflow_started_at).to.equal(null);

      // The worker's start registers them on a dev server; then the document starts and reaches its verdict.
      await checkAtStart({ db: stack.db, temporal: stack.temporal, secrets: stack.secrets, namespace });
      const fixed = await got(`${stack.url}/readyz`, { throwHttpErrors: false });
      expect(fixed.statusCode, fixed.body).to.equal(200);
      const worker = await startWorker(stack.config, await testTemporalAddress(), stack.db, stack.files, stack.secrets);
      try {
        expect(await sweeper.startUnstartedDocuments()).to.be.at.least(1);
        expect((await until(stack, id, ['accepted'])).status).to.equal('accepted');
      } finally {
        await worker.stop();
      }
    });

    it('names a search attribute registered with another type', async () => {
      const typed = await bareNamespace(admin);
      await admin.connection.operatorService.addSearchAttributes({
        namespace: typed,
        searchAttributes: { DocNumber: 1 /* Text */ },
      });
      await checkAtStart({ db: issuing.stack.db, temporal: admin, secrets: issuing.stack.secrets, namespace: typed });
      const checks = await readiness({
        db: issuing.stack.db,
        temporal: admin,
        secrets: issuing.stack.secrets,
        namespace: typed,
      });
      expect(checks.temporal_namespace).to.contain('has DocNumber as Text (chasqui needs Keyword)');
      expect(checks.temporal_namespace).to.contain(
        `temporal operator search-attribute remove --namespace ${typed} --name DocNumber`,
      );
      // The others were registered; only the mistyped one is left.
      expect(checks.temporal_namespace).not.to.contain('lacks');
    });

    it('names a namespace that does not exist', async () => {
      const checks = await readiness({
        db: issuing.stack.db,
        temporal: admin,
        secrets: issuing.stack.secrets,
        namespace: 'no-such-namespace',
      });
      expect(checks.temporal_namespace).to.match(
        /^Temporal namespace no-such-namespace does not exist; fix: docker compose run --rm temporal-namespace/,
      );
    });
  });

  describe('the database and the master key', () => {
    it('names the migrations a database lacks and `chasqui migrate`, and is ready once migrated', async () => {
      const { db } = await freshTestDatabase();
      try {
        const [latest] = (await db.migrate.list(migrationConfig))[0].slice(-1) as { name: string }[];
        await db.migrate.down(migrationConfig);
        const checks = await readiness({
          db,
          temporal: admin,
          secrets: box(generateMasterKey()),
          namespace: 'default',
        });
        expect(checks.migrations).to.equal(
          `the database is behind this code's migrations: 1 pending (${latest.name.replace(/\.ts$/, '')}); fix: run chasqui migrate`,
        );
        await migrate(db);
        expect(
          (await readiness({ db, temporal: admin, secrets: box(generateMasterKey()), namespace: 'default' }))
            .migrations,
        ).to.equal('ok');
      } finally {
        await db.destroy();
      }
    });

    it('refuses a key that cannot open the stored secrets, by the check value or, before there is one, by a stored secret', async () => {
      const { db } = await freshTestDatabase();
      const [a, b] = [generateMasterKey(), generateMasterKey()];
      try {
        // Secrets stored before the check existed (an upgrade): a wrong key is refused and does not record itself.
        await db('gre_tokens').insert({
          client_id: 'c',
          ruc: '20100066603',
          access_token_sealed: box(a).seal('token'),
          expires_at: new Date(),
        });
        const wrong = await masterKeyProblem(db, box(b));
        expect(wrong).to.equal(
          `the master key cannot open the stored secrets: they are sealed with key ${box(a).keyId}, this process has ${box(b).keyId}; ` +
            'fix: set CHASQUI_MASTER_KEY to the key that sealed them (or add it to CHASQUI_MASTER_KEYS_OLD) and restart',
        );
        expect(await db('master_key_check').count<{ count: string }[]>('*')).to.deep.equal([{ count: '0' }]);
        // The right key writes the check value; from then on it alone decides.
        expect(await masterKeyProblem(db, box(a))).to.equal(null);
        await db('gre_tokens').del();
        expect(await masterKeyProblem(db, box(b))).to.contain(`sealed with key ${box(a).keyId}`);
        expect((await readiness({ db, temporal: admin, secrets: box(b), namespace: 'default' })).master_key).to.contain(
          'cannot open the stored secrets',
        );
        // A ring holding the old key opens it.
        expect(await masterKeyProblem(db, box(b, a))).to.equal(null);
      } finally {
        await db.destroy();
      }
    });

    it('chasqui worker says each problem once at start, in one line with its fix, and its /readyz names them', async () => {
      const { db, url } = await freshTestDatabase();
      const [a, b] = [generateMasterKey(), generateMasterKey()];
      await db('gre_tokens').insert({
        client_id: 'c',
        ruc: '20100066603',
        access_token_sealed: box(a).seal('token'),
        expires_at: new Date(),
      });
      await db.migrate.down(migrationConfig);
      await db.destroy();
      const namespace = await bareNamespace(admin);
      const metricsPort = await freePort();
      const worker = await spawnChasqui(
        ['worker'],
        {
          ...process.env,
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          DATABASE_URL: url,
          TEMPORAL_ADDRESS: await testTemporalAddress(),
          TEMPORAL_NAMESPACE: namespace,
          TEMPORAL_TASK_QUEUE: `test-${randomBytes(4).toString('hex')}`,
          CHASQUI_MASTER_KEY: b,
          CHASQUI_METRICS_PORT: String(metricsPort),
          HOST: '127.0.0.1',
        },
        'chasqui worker running',
      );
      try {
        const lines = logLines(worker.output());
        const said = (check: string) => lines.filter((l) => l.check === check);
        expect(said('migrations')).to.have.length(1);
        expect(said('migrations')[0].msg).to.match(/1 pending .*; fix: run chasqui migrate$/);
        expect(said('migrations')[0].level).to.equal(50);
        // The check value's table is the missing migration: the key is judged by a stored secret.
        expect(said('master_key')).to.have.length(1);
        expect(said('master_key')[0].msg).to.contain(
          `sealed with key ${box(a).keyId}, this process has ${box(b).keyId}`,
        );
        expect(
          lines.some(
            (l) =>
              l.msg === 'registered the missing search attributes on the Temporal dev server' &&
              l.namespace === namespace,
          ),
        ).to.equal(true);
        expect(said('temporal_namespace')).to.have.length(0);
        const ready = await got(`http://127.0.0.1:${metricsPort}/readyz`, { throwHttpErrors: false });
        expect(ready.statusCode).to.equal(503);
        const data = (JSON.parse(ready.body) as { data: Record<string, string> }).data;
        expect(data.migrations).to.contain('chasqui migrate');
        expect(data.master_key).to.contain('cannot open the stored secrets');
        expect(data.temporal_namespace).to.equal('ok');
      } finally {
        expect(await stopChasqui(worker.child)).to.equal(0);
      }
      await untilOutput(worker.child, worker.output, (out) => out.includes('database pool stopped'));
    });
  });
});
