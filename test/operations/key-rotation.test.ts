import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { updateCompany } from '../../db/companies';
import { type Db } from '../../db/knex';
import { masterKeyProblem, sealedCounts, SEALED_COLUMNS, columnName, listKeyRotations } from '../../db/sealed-secrets';
import { generateMasterKey, parseMasterKey, SecretBox } from '../../core/secretbox';
import { CHASQUI_BIN } from '../support/chasqui-process';
import { companyWithRuc } from '../support/documents';
import { freshTestDatabase } from '../support/services';

const box = (...keys: string[]) => new SecretBox(parseMasterKey(keys[0]), keys.slice(1).map(parseMasterKey));

/** `chasqui keys …` as an operator runs it; resolves with its exit code and output. */
function chasquiKeys(args: string[], env: NodeJS.ProcessEnv, whileRunning?: (child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, [CHASQUI_BIN, 'keys', ...args], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b) => (stdout += b));
  child.stderr!.on('data', (b) => (stderr += b));
  whileRunning?.(child);
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

/** Every stored secret, opened with `secrets` (throws on one it cannot open). */
async function openAll(db: Db, secrets: SecretBox): Promise<string[]> {
  const out: string[] = [];
  for (const entry of SEALED_COLUMNS) {
    if (!(await db.schema.hasColumn(entry.table, entry.column))) continue;
    const rows = await db(entry.table).whereNotNull(entry.column).select<Record<string, string>[]>(entry.column);
    for (const row of rows) out.push(`${columnName(entry)}=${secrets.open(row[entry.column])}`);
  }
  return out.sort();
}

/**
 * Master key rotation (issue 29, point 2): `chasqui keys rotate` re-seals every stored secret under the current key,
 * in batches, audited; killed with SIGKILL mid-way and run again it finishes, every secret opens with the new key
 * alone, and the old key can be removed.
 */
describe('chasqui keys (master key rotation)', function () {
  this.timeout(180_000);
  const [oldKey, newKey] = [generateMasterKey(), generateMasterKey()];
  let db: Db;
  let url: string;

  before(async () => {
    ({ db, url } = await freshTestDatabase());
    const old = box(oldKey);
    const company = await companyWithRuc(db, '20100066603', 'Rotación S.A.C.');
    await updateCompany(db, company.id, {
      sol_user: 'MODDATOS',
      sol_password_sealed: old.seal('sol-pw'),
      sol_secondary_user: 'SECOND',
      sol_secondary_password_sealed: old.seal('sol-2-pw'),
      ose_password_sealed: old.seal('ose-pw'),
      gre_client_id: 'client',
      gre_client_secret_sealed: old.seal('gre-secret'),
      webhook_url: 'https://example.com/hook',
      webhook_secret_sealed: old.seal('whsec'),
    });
    await db('service_certificates').insert({
      name: 'rotation-test',
      certificate_pem: 'PEM',
      private_key_sealed: old.seal('private key'),
    });
    // Enough rows that a run of one per transaction is still going when it is killed.
    const tokens = Array.from({ length: 600 }, (_, i) => ({
      client_id: `c${i}`,
      ruc: '20100066603',
      access_token_sealed: old.seal(`token-${i}`),
      expires_at: new Date(),
    }));
    for (let i = 0; i < tokens.length; i += 200) await db('gre_tokens').insert(tokens.slice(i, i + 200));
    expect(await masterKeyProblem(db, old)).to.equal(null); // writes the check value, sealed with the old key
  });
  after(() => db?.destroy());

  it('status counts the secrets per key; rotate --dry-run and a missing key change nothing', async () => {
    const status = await chasquiKeys(['status', '--json'], {
      DATABASE_URL: url,
      CHASQUI_MASTER_KEY: newKey,
      CHASQUI_MASTER_KEYS_OLD: oldKey,
    });
    expect(status.code, status.stderr).to.equal(0);
    const parsed = JSON.parse(status.stdout) as {
      current: string;
      keys: { id: string; role: string; secrets: number; by_kind: Record<string, number> }[];
    };
    expect(parsed.current).to.equal(box(newKey).keyId);
    const byId = Object.fromEntries(parsed.keys.map((k) => [k.id, k]));
    expect(byId[box(oldKey).keyId]).to.include({ role: 'older', secrets: 600 + 5 + 1 + 1 });
    expect(byId[box(oldKey).keyId].by_kind).to.include({
      'gre_tokens.access_token_sealed': 600,
      'companies.webhook_secret_sealed': 1,
      'master_key_check.sealed': 1,
    });
    expect(byId[box(newKey).keyId]).to.include({ role: 'current', secrets: 0 });

    const dry = await chasquiKeys(['rotate', '--dry-run'], {
      DATABASE_URL: url,
      CHASQUI_MASTER_KEY: newKey,
      CHASQUI_MASTER_KEYS_OLD: oldKey,
    });
    expect([dry.code, dry.stdout]).to.deep.equal([0, 'dry run: nothing was changed\n']);
    expect(dry.stderr).to.contain(`re-seal 607 secrets under ${box(newKey).keyId}`);
    const noYes = await chasquiKeys(['rotate'], {
      DATABASE_URL: url,
      CHASQUI_MASTER_KEY: newKey,
      CHASQUI_MASTER_KEYS_OLD: oldKey,
    });
    expect(noYes.code).to.equal(2);
    const withoutOld = await chasquiKeys(['rotate', '--yes'], { DATABASE_URL: url, CHASQUI_MASTER_KEY: newKey });
    expect(withoutOld.code).to.equal(1);
    expect(withoutOld.stderr).to.contain(
      `607 secrets are sealed with key ${box(oldKey).keyId}, which this process does not have`,
    );
    expect((await sealedCounts(db)).every((c) => c.keyId === box(oldKey).keyId)).to.equal(true);
  });

  it('killed with SIGKILL mid-way and run again, re-seals everything once; the old key can then be removed', async () => {
    const before = await openAll(db, box(oldKey));
    const env = { DATABASE_URL: url, CHASQUI_MASTER_KEY: newKey, CHASQUI_MASTER_KEYS_OLD: oldKey };
    const killed = await chasquiKeys(['rotate', '--yes', '--batch', '1', '--operator', 'ana'], env, (child) => {
      // Killed as soon as some secrets are sealed with the new key (the first batches have committed).
      const watch = setInterval(async () => {
        const counts = await sealedCounts(db);
        if (counts.some((c) => c.keyId === box(newKey).keyId && c.count >= 5)) {
          clearInterval(watch);
          child.kill('SIGKILL');
        }
      }, 20);
      child.once('exit', () => clearInterval(watch));
    });
    expect(killed.signal, killed.stdout + killed.stderr).to.equal('SIGKILL');
    const middle = await sealedCounts(db);
    const onNew = middle.filter((c) => c.keyId === box(newKey).keyId).reduce((n, c) => n + c.count, 0);
    expect(onNew).to.be.greaterThan(0).and.lessThan(607);
    // Half-way, every secret still opens with the ring.
    expect(await openAll(db, box(newKey, oldKey))).to.deep.equal(before);
    const [running] = await listKeyRotations(db, 1);
    expect(running).to.include({ status: 'running', operator: 'ana', to_key_id: box(newKey).keyId });

    const again = await chasquiKeys(['rotate', '--yes', '--operator', 'ana'], env);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stderr).to.contain(`rotation #${running.id} (ana) was stopped after`);
    expect(again.stdout).to.contain(`re-sealed ${607 - onNew} secrets under ${box(newKey).keyId}`);
    expect(again.stdout).to.contain(`${box(oldKey).keyId} seal nothing: remove them from CHASQUI_MASTER_KEYS_OLD`);

    // The old key removed: every secret opens with the new key alone, and the master key check agrees.
    expect(await openAll(db, box(newKey))).to.deep.equal(before);
    expect(await masterKeyProblem(db, box(newKey))).to.equal(null);
    expect(await masterKeyProblem(db, box(oldKey))).to.contain('cannot open the stored secrets');
    const [done, interrupted] = await listKeyRotations(db, 2);
    expect([done.status, done.resealed, done.from_keys]).to.deep.equal([
      'done',
      607 - onNew,
      { [box(oldKey).keyId]: 607 - onNew },
    ]);
    expect([interrupted.id, interrupted.status]).to.deep.equal([running.id, 'interrupted']);

    const status = await chasquiKeys(['status'], { DATABASE_URL: url, CHASQUI_MASTER_KEY: newKey });
    expect(status.code).to.equal(0);
    expect(status.stdout).to.contain('every stored secret is sealed with the current key');
    expect(status.stdout).to.match(new RegExp(`${box(newKey).keyId}\\s+607\\s+current`));
    const nothing = await chasquiKeys(['rotate', '--yes'], { DATABASE_URL: url, CHASQUI_MASTER_KEY: newKey });
    expect([nothing.code, nothing.stdout]).to.deep.equal([
      0,
      `nothing to re-seal: every stored secret is sealed with the current key ${box(newKey).keyId}\n`,
    ]);
  });
});
