// Longer than 400 lines: one suite whose steps run in order on one running shape (crashes, scaling, the restore
// drill), each leaving the shape the next one starts from; split, each file would start the whole shape again.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ProductionShape, identityOf, type ShapeProcess } from '../support/production-shape';
import { keysOf } from '../support/s3';
import { call, companyBody, randomRuc, type ApiResponse } from '../companies/helpers';
import { payload } from '../issuing/support';
import { localTlsCertificate, startReceiver, type Receiver } from '../webhooks/support';

/**
 * `npm run test:production` (not part of `npm test`: it builds Temporal's server the first time): docker-compose.yml's
 * shape run for real — Temporal server on PostgreSQL set up by deploy/temporal/*.sh, `chasqui api`, `chasqui worker`
 * and `chasqui simulator` as separate processes, signed XML and CDRs in a real S3-compatible server (compose's `s3`
 * service, CHASQUI_FILES_URL=s3://…) — then crashed: the worker and the Temporal server get kill -9
 * mid-run, and a second worker and api join. Nothing may be lost, and each resolution is notified once.
 */
describe('production shape (Temporal server on PostgreSQL, separate api and worker, files in S3)', function () {
  this.timeout(600_000);
  let shape: ProductionShape;
  let receiver: Receiver;
  let db: PgClient;
  let worker: ShapeProcess;
  const say = (line: string) => console.log(`    [production] ${line}`);

  before(async function () {
    this.timeout(1_800_000); // the first run builds the server (about 7 minutes on two idle cores)
    const tls = localTlsCertificate();
    receiver = await startReceiver(tls);
    // The fixtures carry 2024 dates: SUNAT's sending window is off here, as in every suite but its own (bounds.test.ts).
    shape = await ProductionShape.start({
      say,
      files: 's3',
      env: {
        CHASQUI_WEBHOOK_ALLOW_PRIVATE: 'true',
        CHASQUI_WEBHOOK_CA_FILE: tls.certFile,
        CHASQUI_SENDING_WINDOW_DAYS: '0',
      },
    });
    await shape.startApi();
    worker = await shape.startWorker();
    say(`api ${shape.apiUrls[0]}, worker pid ${worker.pid}, run folder ${shape.runDir}`);
    db = new PgClient({ connectionString: shape.pgUrl() });
    await db.connect();
  });
  after(async function () {
    this.timeout(120_000);
    await db?.end();
    await receiver?.close();
    await shape?.stop();
  });

  const api = (i = 0) => ({ url: shape.apiUrls[i] });

  /** A demo company of the bootstrap account, notified by webhook at the local https receiver. */
  async function company(): Promise<{ ruc: string; token: string }> {
    const ruc = randomRuc();
    // The simulator's SOL user and a GRE API client, so guías (REST + OAuth) are delivered too.
    const created = await call(api(), 'POST', '/v1/companies', {
      token: shape.accountToken,
      json: companyBody(ruc, { sol_user: 'MODDATOS', sol_password: 'moddatos' }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const gre = await call(api(), 'PATCH', `/v1/companies/${ruc}/gre-credentials`, {
      token: shape.accountToken,
      json: { client_id: 'chasqui-gre', client_secret: 'gre-secret-value' },
    });
    expect(gre.status, JSON.stringify(gre.body)).to.equal(200);
    const hook = await call(api(), 'PATCH', `/v1/companies/${ruc}/webhook`, {
      token: shape.accountToken,
      json: { url: receiver.url },
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
    return { ruc, token: created.body.data.token };
  }

  /** Polls GET /v1/cpe/{id} (the integrator's view) until every document is resolved. */
  async function verdicts(token: string, ids: string[], ms = 300_000): Promise<Map<string, any>> {
    const done = new Map<string, any>();
    const deadline = Date.now() + ms;
    while (done.size < ids.length) {
      for (const id of ids.filter((i) => !done.has(i))) {
        const res = await call(api(), 'GET', `/v1/cpe/${id}`, { token });
        if (res.status === 200 && res.body.data.document.resolved) done.set(id, res.body.data.document);
      }
      if (done.size === ids.length) break;
      if (Date.now() > deadline) {
        const open = ids.filter((i) => !done.has(i));
        throw new Error(
          `${open.length} of ${ids.length} documents unresolved after ${ms / 1000} s: ${open.slice(0, 5).join(', ')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    return done;
  }

  /** Webhook notices received per document: delivery ids (X-Entrega) and raw POSTs. */
  function notices(): Map<string, { deliveries: Set<string>; posts: number }> {
    const byDocument = new Map<string, { deliveries: Set<string>; posts: number }>();
    for (const request of receiver.requests) {
      const id = JSON.parse(request.body).document.external_id as string;
      const entry = byDocument.get(id) ?? { deliveries: new Set<string>(), posts: 0 };
      entry.deliveries.add(String(request.headers['x-entrega']));
      entry.posts++;
      byDocument.set(id, entry);
    }
    return byDocument;
  }

  async function noticesFor(
    ids: string[],
    ms = 180_000,
  ): Promise<Map<string, { deliveries: Set<string>; posts: number }>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const seen = notices();
      const missing = ids.filter((id) => !seen.has(id));
      if (!missing.length) return seen;
      if (Date.now() > deadline)
        throw new Error(`no webhook for ${missing.length} of ${ids.length} resolved documents after ${ms / 1000} s`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function unresolved(ruc: string): Promise<number> {
    const { rows } = await db.query(
      'select count(*)::int as n from documents d join companies c on c.id = d.company_id where c.ruc = $1 and not d.resolved',
      [ruc],
    );
    return rows[0].n;
  }

  async function issueMany(
    apis: number[],
    token: string,
    ruc: string,
    count: number,
    concurrency: number,
  ): Promise<string[]> {
    const ids: string[] = [];
    const failures: ApiResponse[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const n = next++;
          const res = await call(api(apis[n % apis.length]), 'POST', '/v1/cpe', {
            token,
            json: payload('invoice-basic.json', ruc),
          });
          if (res.status === 202) ids.push(res.body.external_id);
          else failures.push(res);
        }
      }),
    );
    expect(failures.map((f) => `${f.status} ${JSON.stringify(f.body)}`)).to.deep.equal([]);
    return ids;
  }

  it('runs the deploy scripts compose runs, and again on a set-up cluster (idempotent)', async () => {
    const schema = await shape.script('setup-postgres.sh', {
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: String(shape.pgPort),
      POSTGRES_USER: 'postgres',
      POSTGRES_PWD: 'chasqui',
      TEMPORAL_SCHEMA_DIR: `${shape.serverDir}/schema`,
    });
    expect(schema).to.contain('temporal schema ready');
    const namespace = await shape.script('create-namespace.sh', {
      TEMPORAL_ADDRESS: shape.temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
    });
    expect(namespace).to.match(/namespace default ready with search attributes Ruc DocType DocStatus/);
  });

  it('fails with a clear message, in bounded time, when PostgreSQL is not there', async () => {
    const started = Date.now();
    const failure = await shape
      .script('setup-postgres.sh', {
        POSTGRES_SEEDS: '127.0.0.1',
        DB_PORT: '1',
        POSTGRES_USER: 'postgres',
        POSTGRES_PWD: 'x',
        DEPLOY_WAIT_SECONDS: '3',
        RETRY_INTERVAL: '1',
      })
      .then(
        () => null,
        (err: Error) => err,
      );
    expect(failure?.message).to.contain(
      'gave up after 3s waiting for PostgreSQL at 127.0.0.1:1 to create database temporal',
    );
    expect(Date.now() - started).to.be.below(30_000);
  });

  it('issues a document of each kind through `chasqui api` and `chasqui worker` to a verdict, each notified once', async () => {
    const { ruc, token } = await company();
    const kinds = [
      'invoice-basic.json',
      'receipt-basic.json',
      'credit-note-01.json',
      'debit-note-01.json',
      'gre-09-venta-privado.json',
      'gre-31-basico.json',
      'rr-retention.json',
      'rr-perception.json',
    ];
    const ids: string[] = [];
    for (const kind of kinds) {
      const res = await call(api(), 'POST', '/v1/cpe', { token, json: payload(kind, ruc) });
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).to.equal(202);
      ids.push(res.body.external_id);
    }
    const done = await verdicts(token, ids);
    const statuses = ids.map((id, i) => `${kinds[i]} ${done.get(id).status}`);
    expect(statuses).to.deep.equal(kinds.map((k) => `${k} accepted`));
    const seen = await noticesFor(ids);
    for (const id of ids) expect(seen.get(id)!.deliveries.size, id).to.equal(1);
  });

  it('loses nothing when the worker and then the Temporal server are killed -9 mid-run; one webhook per resolution', async () => {
    const { ruc, token } = await company();
    const ids = await issueMany([0], token, ruc, 15, 4);
    // Documents in flight: the worker dies, more are issued while its replacement starts.
    const [, duringWorker] = await Promise.all([
      (async () => {
        const open = await unresolved(ruc);
        await shape.kill(worker);
        say(`killed -9 worker ${worker.pid} with ${ids.length} documents issued, ${open} not yet resolved`);
        worker = await shape.startWorker();
        say(`worker ${worker.pid} started`);
      })(),
      issueMany([0], token, ruc, 10, 2),
    ]);
    ids.push(...duringWorker);
    // Then the Temporal server dies under the replacement worker; the API keeps answering 202 (the documents wait in
    // PostgreSQL for their workflow starts).
    const open = await unresolved(ruc);
    await shape.kill(shape.temporalProcess!);
    say(`killed -9 the Temporal server with ${ids.length} documents issued, ${open} not yet resolved`);
    ids.push(...(await issueMany([0], token, ruc, 10, 2)));
    say('10 documents issued while Temporal was down');
    await shape.startTemporal();
    say('Temporal server restarted on the same database');
    if (!shape.alive('worker').includes(worker)) {
      // compose restarts a worker that exits (restart: unless-stopped); the test does the same, and says so.
      say(`worker ${worker.pid} exited while Temporal was down; starting another, as compose's restart policy would`);
      worker = await shape.startWorker();
    }
    ids.push(...(await issueMany([0], token, ruc, 10, 4)));

    const done = await verdicts(token, ids);
    expect(
      [...done.values()].filter((d) => d.status !== 'accepted').map((d) => `${d.external_id} ${d.status}`),
    ).to.deep.equal([]);
    // Nothing lost, nothing doubled: the company has exactly the documents the API answered 202 for.
    const { rows } = await db.query(
      'select count(*)::int as n, count(*) filter (where resolved)::int as resolved from documents d join companies c on c.id = d.company_id where c.ruc = $1',
      [ruc],
    );
    expect(rows[0]).to.deep.equal({ n: ids.length, resolved: ids.length });
    const seen = await noticesFor(ids);
    const notOnce = ids
      .filter((id) => seen.get(id)!.deliveries.size !== 1)
      .map((id) => `${id}: ${seen.get(id)!.deliveries.size} deliveries`);
    expect(notOnce).to.deep.equal([]);
    const posts = ids.reduce((sum, id) => sum + seen.get(id)!.posts, 0);
    say(
      `${ids.length} documents, ${ids.length} deliveries, ${posts} webhook POSTs (a retry of the same delivery keeps its X-Entrega)`,
    );
  });

  it('a second worker and a second api share the load; rate limit and idempotency are shared in PostgreSQL', async () => {
    await shape.startApi();
    const second = await shape.startWorker();
    const pollers = await shape.pollerIdentities();
    expect(pollers).to.include.members([identityOf(worker), identityOf(second)]);

    const { ruc, token } = await company();
    const ids = await issueMany([0, 1], token, ruc, 60, 8);
    const done = await verdicts(token, ids);
    expect([...done.values()].every((d) => d.status === 'accepted')).to.equal(true);
    // Which worker ran each document's workflow tasks and activities, from Temporal's own histories.
    const temporal = await shape.temporalClient();
    const identities = new Map<string, number>();
    for await (const execution of temporal.workflow.list({ query: `Ruc = "${ruc}"` })) {
      const history = await temporal.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      for (const event of history.events ?? []) {
        const identity =
          event.workflowTaskCompletedEventAttributes?.identity ?? event.activityTaskStartedEventAttributes?.identity;
        if (identity) identities.set(identity, (identities.get(identity) ?? 0) + 1);
      }
    }
    say(`tasks by worker: ${[...identities].map(([who, n]) => `${who} ${n}`).join(', ')}`);
    expect(identities.get(identityOf(worker)) ?? 0).to.be.above(0);
    expect(identities.get(identityOf(second)) ?? 0).to.be.above(0);
    const seen = await noticesFor(ids);
    expect(ids.filter((id) => seen.get(id)!.deliveries.size !== 1)).to.deep.equal([]);

    // Idempotency: the same key sent to both APIs at once makes one document. A company of its own: the first one's
    // token has spent its requests of the minute on 60 documents and their polling, more of it the slower they resolve.
    const once = await company();
    const body = payload('invoice-basic.json', once.ruc);
    const headers = { 'Idempotency-Key': `prod-${Date.now()}` };
    const [a, b] = await Promise.all(
      [0, 1].map((i) => call(api(i), 'POST', '/v1/cpe', { token: once.token, json: body, headers })),
    );
    expect([a.status, b.status]).to.deep.equal([202, 202]);
    expect(a.body.external_id).to.equal(b.body.external_id);
    const { rows } = await db.query(
      'select count(*)::int as n from documents d join companies c on c.id = d.company_id where c.ruc = $1 and d.series = $2 and d.number = $3',
      [once.ruc, body.serie, Number(body.correlativo)],
    );
    expect(rows[0].n).to.equal(1);

    // Rate limit: one token's 120 requests a minute are counted once across both APIs (a fixed window of the
    // database clock; started early in a minute so the burst stays inside one window).
    const fresh = await company();
    for (;;) {
      const { rows: clock } = await db.query('select extract(second from now())::int as s');
      if (clock[0].s < 30) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        call(api(i % 2), 'GET', '/v1/cpe/00000000-0000-0000-0000-000000000000', { token: fresh.token }),
      ),
    );
    const limited = answers.filter((r) => r.status === 429);
    expect(limited).to.have.length(10);
    expect(answers.filter((r) => r.status === 404)).to.have.length(120);
  });

  it("restore drill: both databases and the bucket back to one backup; what was acknowledged before it resolves, a lost document posted again is accepted with SUNAT's CDR, nothing registered twice", async () => {
    const { ruc, token } = await company();
    // Resolved before the backup, and acknowledged before it but without a verdict at it (the worker is down).
    const resolvedBefore = await issueMany([0], token, ruc, 2, 2);
    await verdicts(token, resolvedBefore);
    await shape.stopRoles(['worker']);
    const openAtBackup = await issueMany([0], token, ruc, 2, 2);
    expect(await unresolved(ruc)).to.equal(2);

    // The backup: every service stopped, then a filesystem-level copy of the one PostgreSQL (chasqui's database and
    // Temporal's two, taken at the same instant). Compose's commands (pg_dump, Temporal's first) are in docs/operations.md.
    const backup = path.join(shape.runDir, 'backup');
    const backupTakenAt = await backUpDatabase(backup);
    say('database backup taken; services started again');

    // The bucket's backup is taken after the database's, with chasqui running: objects are written before the rows
    // that name them and never changed, so a bucket copied later holds every object the database backup names (and
    // some no row of it names: orphans, which the sweeper removes). A document issued between the two shows it.
    const between = await issueMany([0], token, ruc, 1, 1);
    const bucketBackup = path.join(shape.runDir, 'backup-s3');
    await shape.withS3Stopped((dataDir) => execFileSync('cp', ['-a', dataDir, bucketBackup]));
    say("bucket backup taken (a copy of the S3 server's volume), after the database backup");

    // After the backup: the open documents reach SUNAT, and two more are issued and accepted. Then the bad day.
    const lostBodies = [payload('invoice-basic.json', ruc), payload('invoice-basic.json', ruc)];
    const lost: ApiResponse[] = [];
    for (const json of lostBodies) lost.push(await call(api(), 'POST', '/v1/cpe', { token, json }));
    expect(lost.map((r) => r.status)).to.deep.equal([202, 202]);
    const lostIds = lost.map((r) => r.body.external_id as string);
    const lostDone = await verdicts(token, [...openAtBackup, ...lostIds]);
    expect([...lostDone.values()].map((d) => d.status)).to.deep.equal(['accepted', 'accepted', 'accepted', 'accepted']);

    // The restore, as docs/operations.md says: services stopped, both databases back, deploy/restore/after-restore.sql,
    // services started.
    await restoreBackups(backup, bucketBackup, backupTakenAt);
    say('both databases and the bucket restored to their backups; services started again');

    // Every file the restored database names is in the restored bucket; no row keeps its bytes (all went to S3).
    const { rows: files } = await db.query(
      `select ruc, doc_type, to_char(issue_date, 'YYYY-MM-DD') as issue_date, xml_sha256, cdr_sha256,
              xml is not null or cdr_zip is not null as in_row from documents`,
    );
    const named = files.flatMap((f) => Object.values(keysOf(f))).filter((k): k is string => !!k);
    const stored = await bucketKeys();
    expect(files.filter((f) => f.in_row)).to.deep.equal([]);
    expect(named.filter((k) => !stored.has(k))).to.deep.equal([]);
    const orphans = [...stored].filter((k) => !named.includes(k));
    say(`${files.length} documents, ${named.length} files named, all in the bucket; ${orphans.length} orphans`);
    expect(orphans.length).to.be.at.least(between.length);
    for (const id of between) expect((await call(api(), 'GET', `/v1/cpe/${id}`, { token })).status, id).to.equal(404);

    // Everything acknowledged before the backup reaches its verdict: accepted, with SUNAT's CDR.
    const done = await verdicts(token, [...resolvedBefore, ...openAtBackup]);
    for (const id of [...resolvedBefore, ...openAtBackup]) {
      expect(done.get(id), id).to.include({ status: 'accepted' });
      expect(done.get(id).links.cdr, id).to.be.a('string');
      // Read back through the store, hash-checked: the XML and SUNAT's CDR.
      for (const file of ['xml', 'cdr'])
        expect((await call(api(), 'GET', `/v1/cpe/${id}/${file}`, { token })).status, `${id} ${file}`).to.equal(200);
    }
    // Lost with the restore: chasqui no longer knows them.
    for (const id of lostIds) expect((await call(api(), 'GET', `/v1/cpe/${id}`, { token })).status, id).to.equal(404);

    // The integrator posts the lost ones again, same payload: the same signed content (hash), the same number.
    const again: ApiResponse[] = [];
    for (const json of lostBodies) again.push(await call(api(), 'POST', '/v1/cpe', { token, json }));
    expect(again.map((r) => r.status)).to.deep.equal([202, 202]);
    expect(again.map((r) => r.body.hash)).to.deep.equal(lost.map((r) => r.body.hash));
    expect(again.map((r) => r.body.filename)).to.deep.equal(lost.map((r) => r.body.filename));
    // They come back accepted with SUNAT's CDR: SUNAT's "already registered" (1033), then its CDR for the number,
    // answered between the backup and the restore.
    const reposted = await verdicts(
      token,
      again.map((r) => r.body.external_id),
    );
    for (const d of reposted.values()) {
      expect(d, d.filename).to.include({ status: 'accepted' });
      expect(d.links.cdr, d.filename).to.be.a('string');
    }

    // SUNAT registered each number once: one send accepted per document; the open ones were asked for, not sent again.
    const log = (await (await fetch(`${shape.simulatorUrl}/__admin/log`)).json()) as {
      operation: string;
      name: string | null;
      code: string | null;
    }[];
    const sends = (filename: string) =>
      log.filter((e) => e.operation === 'sendBill' && !!e.name?.startsWith(filename)).map((e) => e.code);
    for (const d of [...openAtBackup].map((id) => done.get(id)))
      expect(sends(d.filename), d.filename).to.deep.equal(['0']);
    for (const r of lost) expect(sends(r.body.filename), r.body.filename).to.deep.equal(['0', '1033']);
  });

  /** Every service but the worker stopped, a filesystem-level copy of PostgreSQL's data, services started again;
   * returns the instant the copy was taken. */
  async function backUpDatabase(backup: string): Promise<Date> {
    let backupTakenAt = new Date();
    await reconnectAround(async () => {
      await shape.stopRoles(['api', 'temporal']);
      await shape.withPostgresStopped((dataDir) => {
        backupTakenAt = new Date();
        execFileSync('cp', ['-a', dataDir, backup]);
      });
      await startAll();
    });
    return backupTakenAt;
  }

  /** Services stopped, both databases and the bucket back to their copies, deploy/restore/after-restore.sql run,
   * services started again. */
  async function restoreBackups(backup: string, bucketBackup: string, backupTakenAt: Date): Promise<void> {
    await reconnectAround(async () => {
      await shape.stopRoles(['api', 'worker', 'temporal']);
      await shape.withPostgresStopped((dataDir) => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        execFileSync('cp', ['-a', backup, dataDir]);
      });
      await shape.withS3Stopped((dataDir) => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        execFileSync('cp', ['-a', bucketBackup, dataDir]);
      });
      const afterRestore = new PgClient({ connectionString: shape.pgUrl() });
      await afterRestore.connect();
      // As `psql -v backup_taken_at=… -f deploy/restore/after-restore.sql` runs it.
      const sql = fs.readFileSync(path.join(__dirname, '../../deploy/restore/after-restore.sql'), 'utf8');
      await afterRestore.query(sql.replace(":'backup_taken_at'", `'${backupTakenAt.toISOString()}'`));
      await afterRestore.end();
      await startAll();
    });
  }

  /** Every object key in chasqui's bucket prefix, relative to the prefix (as the documents' rows name them). */
  async function bucketKeys(): Promise<Set<string>> {
    const s3 = shape.s3!;
    const stored = new Set<string>();
    let continuation: string | undefined;
    do {
      const page = await s3.client.send(
        new ListObjectsV2Command({
          Bucket: s3.location.bucket,
          Prefix: `${s3.location.prefix}/`,
          ContinuationToken: continuation,
        }),
      );
      for (const object of page.Contents ?? []) stored.add(object.Key!.slice(s3.location.prefix.length + 1));
      continuation = page.NextContinuationToken;
    } while (continuation);
    return stored;
  }

  /** Closes the suite's database connection while PostgreSQL is stopped, and opens it again after. */
  async function reconnectAround(work: () => Promise<void>): Promise<void> {
    await db.end();
    await work();
    db = new PgClient({ connectionString: shape.pgUrl() });
    await db.connect();
  }

  /** Temporal, a worker and an api, as compose starts them after a restart. */
  async function startAll(): Promise<void> {
    await shape.startTemporal();
    worker = await shape.startWorker();
    await shape.startApi();
  }
});
