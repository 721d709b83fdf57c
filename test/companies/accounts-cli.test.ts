import { expect } from 'chai';
import { accountsCommand } from '../../cli/commands/accounts';
import { ensureBootstrapAccount } from '../../db/accounts';
import { getTestDb, testConfig } from '../support/services';
import { startTestStack, type TestStack } from '../support/stack';
import { call } from './helpers';
import type { Db } from '../../db/knex';

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } },
  };
}

describe('chasqui accounts (CLI) and the bootstrap account', function () {
  let db: Db;
  let stack: TestStack;
  before(async function () {
    this.timeout(120_000);
    db = await getTestDb();
    stack = await startTestStack({ worker: false });
  });
  after(() => stack?.stop());
  const config = testConfig();

  it('creates an account with --json and prints a working account token once', async () => {
    const { out, io } = capture();
    expect(await accountsCommand(['create', '--name', 'Acme', '--quota', '50', '--json'], { db, config }, io)).to.equal(
      0,
    );
    const created = JSON.parse(out.stdout);
    expect(created).to.include({ name: 'Acme', quota: 50 });
    expect(created.token).to.match(/^chq_acc_/);
    expect((await call(stack, 'GET', '/v1/companies', { token: created.token })).status).to.equal(200);
  });

  it('prints the token in the human form too', async () => {
    const { out, io } = capture();
    expect(await accountsCommand(['create', '--name', 'Human'], { db, config }, io)).to.equal(0);
    expect(out.stdout).to.match(/shown only now:\n\n {2}chq_acc_\S+\n/);
  });

  it('adds quota to an account, and reports an unknown account with exit code 1', async () => {
    const { out, io } = capture();
    await accountsCommand(['create', '--name', 'Quota', '--quota', '10', '--json'], { db, config }, io);
    const { id } = JSON.parse(out.stdout);
    const second = capture();
    expect(await accountsCommand(['quota', '--account', id, '--add', '15'], { db, config }, second.io)).to.equal(0);
    expect(second.out.stdout).to.contain('quota 25');
    expect(Number((await db('accounts').where({ id }).first()).quota_units), 'a decimal number of signatures').to.equal(
      25,
    );
    const missing = capture();
    expect(
      await accountsCommand(
        ['quota', '--account', '00000000-0000-0000-0000-000000000000', '--add', '1'],
        { db, config },
        missing.io,
      ),
    ).to.equal(1);
    expect(await accountsCommand(['quota', '--account', 'nope', '--add', '1'], { db, config }, missing.io)).to.equal(1);
    // 36 characters of the UUID alphabet are no UUID: not found, never PostgreSQL's type error.
    const lookalike = 'a'.repeat(36);
    expect(await accountsCommand(['quota', '--account', lookalike, '--add', '1'], { db, config }, missing.io)).to.equal(
      1,
    );
  });

  it('answers usage errors with exit code 2', async () => {
    for (const argv of [
      [],
      ['create'],
      ['create', '--name', 'x', '--quota', 'many'],
      ['quota', '--account', 'x'],
      ['create', '--bogus'],
      ['delete'],
    ]) {
      const { out, io } = capture();
      expect(await accountsCommand(argv, { db, config }, io), argv.join(' ')).to.equal(2);
      expect(out.stderr).to.contain('usage:');
    }
  });

  it('ensureBootstrapAccount creates the account for a given token once, even when called concurrently', async () => {
    const token = `chq_acc_bootstrap_${Date.now()}`;
    const accounts = await Promise.all([
      ensureBootstrapAccount(db, token),
      ensureBootstrapAccount(db, token),
      ensureBootstrapAccount(db, token),
    ]);
    expect(new Set(accounts.map((a) => a.id)).size).to.equal(1);
    expect((await ensureBootstrapAccount(db, token)).id).to.equal(accounts[0].id);
    expect((await call(stack, 'GET', '/v1/companies', { token })).status).to.equal(200);
  });
});
