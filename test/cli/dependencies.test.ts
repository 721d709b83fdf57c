import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import got from 'got';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../runtime/ports';
import { startTemporalDevServer, type TemporalServerHandle } from '../../runtime/temporal-server';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { SWEEPER_SCHEDULE_ID } from '../../workflows/sweeper';
import { getTestDb, testConfig, testDatabaseUrl, TEST_MASTER_KEY } from '../support/services';
import { logLines, spawnChasqui, stopChasqui, untilOutput } from '../support/chasqui-process';

/**
 * `chasqui worker` and `chasqui api` started while PostgreSQL or Temporal is unreachable (a compose file or an
 * orchestrator starting everything at once): they wait and retry with growing waits, logging each try, `/readyz` names
 * what is missing, and they carry on once it comes up. Temporal comes up on a port chosen here, after the process.
 */
describe('chasqui worker / api started before their dependencies', function () {
  this.timeout(120_000);
  let temporalPort: number;
  let temporal: TemporalServerHandle | null = null;
  let env: NodeJS.ProcessEnv;
  const taskQueue = `test-late-${randomBytes(4).toString('hex')}`;

  const startTemporal = async () => {
    const config = testConfig();
    const bin = await obtainTemporalBinary('temporal', { explicit: config.temporal.bin, cacheDir: config.cacheDir });
    temporal = await startTemporalDevServer({ bin, port: temporalPort, uiPort: null, dbFile: null });
  };
  const tries = (output: string, dependency: string) =>
    logLines(output).filter((l) => l.msg === `${dependency} unreachable; retrying`) as {
      try: number;
      retryInSeconds: number;
      reason: string;
      level: number;
    }[];

  beforeEach(async () => {
    await getTestDb(); // migrated, as `chasqui migrate` leaves it
    temporalPort = await freePort();
    env = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: await testDatabaseUrl(),
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_TASK_QUEUE: taskQueue,
      CHASQUI_MASTER_KEY: TEST_MASTER_KEY,
      CHASQUI_METRICS_PORT: '0', // not 9464: another process on the machine may hold the default
    };
  });
  afterEach(async () => {
    await temporal?.stop();
    temporal = null;
  });

  it('a worker started before Temporal logs each try with a growing wait, then connects and runs', async () => {
    const worker = await spawnChasqui(['worker'], env, 'Temporal unreachable; retrying');
    try {
      await untilOutput(worker.child, worker.output, (out) => tries(out, 'Temporal').length >= 2);
      const [first, second] = tries(worker.output(), 'Temporal');
      expect([first.try, second.try]).to.deep.equal([1, 2]);
      expect(second.retryInSeconds).to.be.greaterThan(first.retryInSeconds);
      expect(first.level).to.equal(40);
      expect(first.reason).to.be.a('string').and.not.equal('');
      expect(worker.child.exitCode, 'the worker must not exit while it waits').to.equal(null);

      await startTemporal();
      await untilOutput(worker.child, worker.output, (out) => out.includes('chasqui worker running'));
      expect(logLines(worker.output()).some((l) => l.msg === 'Temporal reachable')).to.equal(true);
      // It really works against the late server: it created its schedule there.
      const client = new Client({ connection: await Connection.connect({ address: env.TEMPORAL_ADDRESS! }) });
      try {
        const schedule = await client.schedule.getHandle(`${SWEEPER_SCHEDULE_ID}-${taskQueue}`).describe();
        expect(schedule.action.type).to.equal('startWorkflow');
      } finally {
        await client.connection.close();
      }
    } finally {
      expect(await stopChasqui(worker.child)).to.equal(0);
    }
    expect(logLines(worker.output()).map((l) => l.msg)).to.include.members(['worker stopped', 'database pool stopped']);
  });

  it('an api with PostgreSQL and Temporal unreachable listens, names what is missing in /readyz, and becomes ready as they come', async () => {
    const apiPort = await freePort();
    const closedPg = await freePort();
    const api = await spawnChasqui(
      ['api'],
      {
        ...env,
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        DATABASE_URL: `postgres://postgres:x@127.0.0.1:${closedPg}/chasqui`,
      },
      'chasqui api listening',
    );
    const readyz = () =>
      got(`http://127.0.0.1:${apiPort}/readyz`, { throwHttpErrors: false }).then((r) => ({
        status: r.statusCode,
        body: JSON.parse(r.body) as { message: string; data: Record<string, string> },
      }));
    try {
      const both = await readyz();
      expect(both.status).to.equal(503);
      expect(both.body.message).to.match(/^not ready: database: unreachable: .*; temporal: unreachable: /);
      expect(both.body.data.database).to.match(/^unreachable: /);
      expect(both.body.data.temporal).to.match(/^unreachable: /);
      await untilOutput(
        api.child,
        api.output,
        (out) => tries(out, 'PostgreSQL').length >= 1 && tries(out, 'Temporal').length >= 1,
      );
      expect(tries(api.output(), 'PostgreSQL')[0].reason).to.contain('ECONNREFUSED');
      // Ctrl-C while it waits stops it at once, saying what it stopped.
    } finally {
      expect(await stopChasqui(api.child)).to.equal(0);
    }
    expect(logLines(api.output()).map((l) => l.msg)).to.include.members([
      'api stopped',
      'temporal client stopped',
      'database pool stopped',
    ]);

    // With PostgreSQL up and Temporal late: /readyz names only Temporal until it comes, then the api is ready.
    const late = await spawnChasqui(
      ['api'],
      { ...env, PORT: String(apiPort), HOST: '127.0.0.1' },
      'chasqui api listening',
    );
    try {
      await untilOutput(late.child, late.output, (out) => tries(out, 'Temporal').length >= 1);
      const waiting = await readyz();
      expect(waiting.status).to.equal(503);
      expect(waiting.body.message).to.match(/^not ready: temporal: unreachable: /);
      expect(waiting.body.data.database).to.equal('ok');
      await startTemporal();
      await untilOutput(late.child, late.output, (out) => out.includes('chasqui api ready'));
      const ready = await readyz();
      expect(ready).to.deep.equal({
        status: 200,
        body: {
          success: true,
          message: 'ready',
          data: { database: 'ok', temporal: 'ok', migrations: 'ok', master_key: 'ok', temporal_namespace: 'ok' },
        },
      });
    } finally {
      expect(await stopChasqui(late.child)).to.equal(0);
    }
  });
});
