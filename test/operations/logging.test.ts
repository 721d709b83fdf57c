import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { redactSecrets } from '../../core/logger';

const ROOT = path.resolve(__dirname, '../..');

/** Runs `code` in a process of its own at LOG_LEVEL=info and returns its stdout: what an operator's log collector reads. */
function logOf(code: string): { stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info' }, encoding: 'utf8' });
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
    const input = { password: 'p', a: { token: 't', b: { secret: 's', c: { xml: 'four levels down' } } }, list: [{ client_secret: 'c' }], req: { headers: { authorization: 'Bearer x' } }, err, none: null };
    const out = redactSecrets(input);
    expect(out).to.deep.include({ password: '[redacted]', list: [{ client_secret: '[redacted]' }], req: { headers: { authorization: '[redacted]' } }, none: null });
    expect(out.a).to.deep.equal({ token: '[redacted]', b: { secret: '[redacted]', c: { xml: 'four levels down' } } });
    expect(out.err).to.be.an.instanceOf(Error);
    expect([out.err.message, out.err.stack, (out.err as unknown as { options: unknown }).options]).to.deep.equal([err.message, err.stack, { password: '[redacted]' }]);
    expect([input.password, input.a.token, input.list[0].client_secret, err.options.password]).to.deep.equal(['p', 't', 'c', 'in-error']);
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
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { i?: number; msg: string; solPassword?: string });
    expect(lines).to.have.length(2001);
    expect(lines.slice(0, 2000).map((l) => l.i)).to.deep.equal(Array.from({ length: 2000 }, (_, i) => i));
    expect(lines.every((l) => l.solPassword === undefined || l.solPassword === '[redacted]')).to.equal(true);
    expect(lines.at(-1)!.msg).to.equal('last line before exit');
    expect(stdout).not.to.contain('never');
  });
});
