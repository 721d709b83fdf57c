import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import { NODE_LINES } from '../../runtime/node-releases';
import { checkRuntimeCommand, daysUntil, lineOf, runtimeSupport } from '../../runtime/node-support';
import { reportRuntimeSupport } from '../../runtime/start-checks';
import { registry } from '../../core/metrics';
import { freePort } from '../../runtime/ports';
import { logLines, spawnChasqui, stopChasqui } from '../support/chasqui-process';

const ROOT = path.resolve(__dirname, '../..');
const day = (date: string) => new Date(`${date}T12:00:00Z`);
const HOW = '(docs/dependencies.md, "How to upgrade")';

/** `npm run check:runtime` as the script runs it, on the Node running this suite. */
function checkRuntime(args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'runtime/node-support.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('Node runtime support: the release table and the end-of-life check', () => {
  describe('the table (runtime/node-releases.ts)', () => {
    it('has every line from 18 to 28, once, in order', () => {
      expect(NODE_LINES.map((row) => row.line)).to.deep.equal([18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28]);
    });

    it("orders each line's dates: alpha, start, LTS, maintenance, end of life", () => {
      for (const row of NODE_LINES) {
        const dates = [row.alpha, row.start, row.lts, row.maintenance, row.end].filter((d) => d !== undefined);
        for (const date of dates)
          expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10), `Node ${row.line}`).to.equal(date);
        expect(dates, `Node ${row.line}`).to.deep.equal([...dates].sort());
        expect(new Set(dates).size, `Node ${row.line}`).to.equal(dates.length);
      }
    });

    it('makes even lines LTS, odd lines up to 25 never, and every line from 27 on LTS without maintenance', () => {
      for (const row of NODE_LINES) {
        const lts = row.line % 2 === 0 || row.line >= 27;
        expect(row.lts !== undefined, `Node ${row.line} LTS`).to.equal(lts);
        expect(row.maintenance !== undefined, `Node ${row.line} maintenance`).to.equal(row.line <= 26);
        expect(row.alpha !== undefined, `Node ${row.line} alpha`).to.equal(row.line >= 27);
      }
    });

    it('ends each LTS line after the next LTS line has started, so there is always one to move to', () => {
      const lts = NODE_LINES.filter((row) => row.lts);
      for (const [older, newer] of lts.slice(0, -1).map((row, i) => [row, lts[i + 1]]))
        expect(newer.lts! < older.end, `Node ${newer.line} LTS before Node ${older.line} ends`).to.equal(true);
    });
  });

  describe('the verdict', () => {
    it('fails a line past its end of life, naming the line, the date and the lines to move to', () => {
      expect(runtimeSupport('v20.19.5', day('2026-12-07'))).to.deep.equal({
        status: 'eol',
        line: 20,
        end: '2026-04-30',
        daysLeft: -221,
        message: `Node 20 (v20.19.5) reached its end of life on 2026-04-30, 221 days ago: it gets no security fixes; run chasqui on Node 24 or 26 ${HOW}`,
      });
      expect(runtimeSupport('v20.19.5', day('2026-04-30')).status, 'on the day itself').to.equal('eol');
    });

    it('warns within 90 days of the end of life, and not on the 91st day before it', () => {
      const near = runtimeSupport('v22.12.0', day('2027-02-01'));
      expect(near).to.include({ status: 'warn', daysLeft: 88, end: '2027-04-30' });
      expect(near.message).to.equal(
        `Node 22 (v22.12.0) reaches its end of life on 2027-04-30, in 88 days: move chasqui to Node 24 or 26 before then ${HOW}`,
      );
      expect(runtimeSupport('v22.12.0', day('2027-01-30'))).to.include({ status: 'warn', daysLeft: 90 });
      expect(runtimeSupport('v22.12.0', day('2027-01-29'))).to.include({ status: 'supported', daysLeft: 91 });
      expect(runtimeSupport('v20.1.0', day('2026-04-29'))).to.include({ status: 'warn', daysLeft: 1 });
    });

    it('passes a supported LTS line', () => {
      expect(runtimeSupport('v24.11.1', day('2026-12-07'))).to.deep.equal({
        status: 'supported',
        line: 24,
        end: '2028-04-30',
        daysLeft: 510,
        message: 'Node 24 (v24.11.1) is supported until 2028-04-30 (510 days)',
      });
      expect(runtimeSupport('v26.3.0', day('2026-12-07')).status).to.equal('supported');
    });

    it('warns on a line that is not LTS (yet, or ever)', () => {
      expect(runtimeSupport('v26.0.0', day('2026-06-01')).message).to.equal(
        `Node 26 (v26.0.0) is not an LTS release until 2026-10-28: production should run Node 24 ${HOW}`,
      );
      expect(runtimeSupport('v25.2.0', day('2026-01-10'))).to.include({ status: 'warn' });
      expect(runtimeSupport('v25.2.0', day('2026-01-10')).message).to.match(
        /^Node 25 \(v25\.2\.0\) is not an LTS release:/,
      );
      expect(runtimeSupport('v27.0.0-alpha.1', day('2026-12-07')).status).to.equal('warn');
    });

    it('fails a line older than the table and warns on one newer than it (the table needs its row)', () => {
      expect(runtimeSupport('v16.20.2', day('2026-12-07'))).to.include({ status: 'eol', end: null });
      const newer = runtimeSupport('v29.0.0', day('2029-05-01'));
      expect(newer).to.include({ status: 'warn', end: null });
      expect(newer.message).to.include('is not in runtime/node-releases.ts');
    });

    it('reads the line of a version and counts days by UTC date', () => {
      expect(lineOf('v24.11.1')).to.equal(24);
      expect(lineOf('26.0.0')).to.equal(26);
      expect(() => lineOf('node')).to.throw("not a Node.js version: 'node'");
      expect(daysUntil('2026-04-30', new Date('2026-04-29T23:59:59Z'))).to.equal(1);
      expect(daysUntil('2026-04-30', new Date('2026-04-30T00:00:00Z'))).to.equal(0);
    });
  });

  describe('npm run check:runtime', () => {
    const running = NODE_LINES.find((row) => row.line === lineOf(process.version));

    it('exits 1 with one line past the end of life of the Node it runs on, 0 with a warning near it, 0 before', function () {
      if (!running) this.skip(); // a Node the table does not know: the verdict tests above cover that
      const after = checkRuntime(['--on', running!.end]);
      expect(after.code).to.equal(1);
      expect(after.stdout).to.equal('');
      const verdict = runtimeSupport(process.version, new Date(`${running!.end}T00:00:00Z`));
      expect(verdict.message).to.match(
        new RegExp(`^Node ${running!.line} .* reached its end of life on ${running!.end}: `),
      );
      expect(after.stderr).to.equal(`chasqui: ${verdict.message}\n`);
      const endMs = Date.parse(`${running!.end}T00:00:00Z`);
      const near = checkRuntime(['--on', new Date(endMs - 30 * 86_400_000).toISOString().slice(0, 10)]);
      expect(near.code).to.equal(0);
      expect(near.stderr).to.match(/^chasqui: warning: Node \d+ .* in 30 days: move chasqui to /);
      if (running!.lts) {
        const supported = checkRuntime(['--on', running!.lts]);
        expect(supported.code).to.equal(0);
        expect(supported.stdout).to.match(
          new RegExp(`^chasqui: Node ${running!.line} .* is supported until ${running!.end}`),
        );
      }
    });

    it('exits 2 naming the usage on a bad argument', () => {
      for (const argv of [['--on', '2027-02-30'], ['--on'], ['--today', '2027-01-01'], ['--on', '27-01-01']])
        expect(checkRuntimeCommand(argv, 'v24.1.0', day('2026-12-07'))).to.deep.equal({
          code: 2,
          stream: 'stderr',
          text: `usage: npm run check:runtime [-- --on YYYY-MM-DD], got '${argv.join(' ')}'`,
        });
    });
  });

  describe('at start-up', () => {
    /** What reportRuntimeSupport logged. */
    function recorder() {
      const said: { level: 'warn' | 'error'; fields: object; msg: string }[] = [];
      const log = {
        warn: (fields: object, msg: string) => said.push({ level: 'warn', fields, msg }),
        error: (fields: object, msg: string) => said.push({ level: 'error', fields, msg }),
      };
      return { said, log: log as unknown as Parameters<typeof reportRuntimeSupport>[2] };
    }

    it('logs an error past the end of life, without refusing, and chasqui_runtime_eol_days counts at scrape time', async () => {
      let now = day('2026-12-07');
      const { said, log } = recorder();
      const verdict = reportRuntimeSupport('v20.19.5', () => now, log);
      expect(verdict.status).to.equal('eol');
      expect(said).to.deep.equal([
        {
          level: 'error',
          fields: { check: 'runtime', node: 'v20.19.5', end_of_life: '2026-04-30', days_left: -221 },
          msg: verdict.message,
        },
      ]);
      expect(await registry.metrics()).to.include('chasqui_runtime_eol_days{node="20"} -221');
      now = day('2026-12-08');
      expect(await registry.metrics()).to.include('chasqui_runtime_eol_days{node="20"} -222');
    });

    it('warns within 90 days, and says nothing on a supported line (the gauge still counts)', async () => {
      const near = recorder();
      reportRuntimeSupport('v22.12.0', () => day('2027-02-01'), near.log);
      expect(near.said.map((s) => [s.level, s.msg])).to.deep.equal([
        ['warn', runtimeSupport('v22.12.0', day('2027-02-01')).message],
      ]);
      const fine = recorder();
      reportRuntimeSupport('v24.11.1', () => day('2026-12-07'), fine.log);
      expect(fine.said).to.deep.equal([]);
      expect(await registry.metrics()).to.include('chasqui_runtime_eol_days{node="24"} 510');
    });

    it('chasqui api and chasqui worker log the verdict on the Node they run on before waiting for anything, and the worker exports the gauge', async () => {
      const expected = runtimeSupport(process.version, new Date());
      const [port, metricsPort, dbPort, temporalPort] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      const env = {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(port),
        CHASQUI_METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
        DATABASE_URL: `postgres://chasqui@127.0.0.1:${dbPort}/chasqui`,
        TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
        CHASQUI_MASTER_KEY: randomBytes(32).toString('base64'),
      };
      for (const [command, until] of [
        ['api', 'chasqui api listening'],
        ['worker', 'PostgreSQL unreachable; retrying'],
      ]) {
        const started = await spawnChasqui([command], env, until);
        let lines: ReturnType<typeof logLines>;
        try {
          lines = logLines(started.output()).filter((l) => l.check === 'runtime');
          // The worker serves its metrics while it waits; the gauge is there on any Node, supported or not.
          if (command === 'worker' && expected.end)
            expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).to.include(
              `chasqui_runtime_eol_days{node="${expected.line}"} ${expected.daysLeft}`,
            );
        } finally {
          await stopChasqui(started.child);
        }
        expect(
          lines.map((l) => ({ level: l.level, msg: l.msg, node: l.node })),
          command,
        ).to.deep.equal(
          expected.status === 'supported'
            ? []
            : [{ level: expected.status === 'eol' ? 50 : 40, msg: expected.message, node: process.version }],
        );
      }
    });
  });
});
