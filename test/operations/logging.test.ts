import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { redactSecrets } from '../../core/logger';
import { firstTaskOf, temporalLogLine, type LogLine } from '../../core/temporal-log';

const ROOT = path.resolve(__dirname, '../..');

/** Runs `code` in a process of its own at LOG_LEVEL=info and returns its stdout: what an operator's log collector reads. */
function logOf(code: string): { stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info' },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).to.equal(0);
  return { stdout: run.stdout, stderr: run.stderr };
}

/**
 * The default log level is the cheap one (issue 29, point 5): secrets are redacted by one walk over the logged object
 * (pino's wildcard redaction cost ten times the line), and lines are written in batches, in order, with nothing lost
 * at exit.
 */
describe('the log', () => {
  it('redacts secret keys three levels deep, in arrays and errors, without touching the logged objects', () => {
    const err = Object.assign(new Error('boom'), { options: { password: 'in-error' } });
    const input = {
      password: 'p',
      a: { token: 't', b: { secret: 's', c: { xml: 'four levels down' } } },
      list: [{ client_secret: 'c' }],
      req: { headers: { authorization: 'Bearer x' } },
      err,
      none: null,
    };
    const out = redactSecrets(input);
    expect(out).to.deep.include({
      password: '[redacted]',
      list: [{ client_secret: '[redacted]' }],
      req: { headers: { authorization: '[redacted]' } },
      none: null,
    });
    expect(out.a).to.deep.equal({ token: '[redacted]', b: { secret: '[redacted]', c: { xml: 'four levels down' } } });
    expect(out.err).to.be.an.instanceOf(Error);
    expect([out.err.message, out.err.stack, (out.err as unknown as { options: unknown }).options]).to.deep.equal([
      err.message,
      err.stack,
      { password: '[redacted]' },
    ]);
    expect([input.password, input.a.token, input.list[0].client_secret, err.options.password]).to.deep.equal([
      'p',
      't',
      'c',
      'in-error',
    ]);
    const clean = { externalId: 'x', step: { status: 'accepted' } };
    expect(redactSecrets(clean)).to.equal(clean);
  });

  it('writes every line, in order, the last ones at exit, with the secrets redacted', () => {
    const { stdout } = logOf(`
      const { logger } = require('./core/logger');
      for (let i = 0; i < 2000; i++) logger.info({ i, solPassword: 'never' }, 'line');
      logger.info('last line before exit');
      process.exit(0);
    `);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i?: number; msg: string; solPassword?: string });
    expect(lines).to.have.length(2001);
    expect(lines.slice(0, 2000).map((l) => l.i)).to.deep.equal(Array.from({ length: 2000 }, (_, i) => i));
    expect(lines.every((l) => l.solPassword === undefined || l.solPassword === '[redacted]')).to.equal(true);
    expect(lines.at(-1)!.msg).to.equal('last line before exit');
    expect(stdout).not.to.contain('never');
  });
});

/** Temporal core's slow-task warning as the worker receives it (test/issuing/slow-first-task.test.ts: from a real worker). */
function slowTask(runId: string, eventId: number): LogLine {
  return {
    level: 'warn',
    message: `[TMPRL1104] ${runId}:${eventId}:1 Workflow task duration exceeded 5 seconds.`,
    meta: { component: 'temporal-worker', workflowTaskDuration: 8000 },
  };
}

describe("Temporal core's lines", () => {
  const subject = { externalId: 'e-1', ruc: '20123456786', docType: '09', filename: '20123456786-09-T001-1' };

  it('a slow first task names its document: one warning, its repeats and the last task after the send at debug', () => {
    const ended = firstTaskOf('run-a', subject);
    const first = temporalLogLine(slowTask('run-a', 4));
    expect(first.level).to.equal('warn');
    expect(first.meta).to.deep.include({ ...subject, runId: 'run-a', workflowTaskDuration: 8000 });
    expect(first.message)
      .to.contain('[TMPRL1104] run-a:4:1')
      .and.contain('20123456786-09-T001-1: its first send still waits for the authority');
    expect(temporalLogLine(slowTask('run-a', 7))).to.deep.include({ level: 'debug' });
    ended();
    const last = temporalLogLine(slowTask('run-a', 10));
    expect(last.level).to.equal('debug');
    expect(last.message).to.contain('the workflow task ran its first send (warning 3)');
  });

  it('leaves alone what is about no first send: other runs, other lines', () => {
    const other = slowTask('run-unknown', 4);
    expect(temporalLogLine(other)).to.equal(other);
    const line: LogLine = { level: 'error', message: 'Failed to poll: run-a:4', meta: {} };
    expect(temporalLogLine(line)).to.equal(line);
  });

  it('forgets a document 10 s after its send, once later sends begin', () => {
    const now = Date.now;
    try {
      const ended = firstTaskOf('run-b', { ...subject, externalId: 'e-2' });
      ended();
      Date.now = () => now() + 11_000;
      firstTaskOf('run-c', { ...subject, externalId: 'e-3' });
      expect(temporalLogLine(slowTask('run-b', 4)).meta).not.to.have.property('externalId');
      expect(temporalLogLine(slowTask('run-c', 4)).meta).to.have.property('externalId', 'e-3');
    } finally {
      Date.now = now;
    }
  });
});
