import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { obtainChromium } from '../../runtime/browser';
import { ConfigError } from '../../core/config';

/** How runtime/browser.ts finds Chromium: the variable, PATH, the cache; and the one line when nothing works. */
describe('runtime/browser.ts: finding Chromium', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-browser-'));
  const executable = (file: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '#!/bin/sh\n');
    fs.chmodSync(file, 0o755);
    return file;
  };
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes CHASQUI_CHROMIUM first, and refuses one that is not an executable, naming the variable', async () => {
    const explicit = executable(path.join(dir, 'explicit', 'my-chromium'));
    expect(await obtainChromium({ explicit, cacheDir: dir, searchPath: '' })).to.equal(explicit);
    const err = await obtainChromium({ explicit: path.join(dir, 'missing'), cacheDir: dir, searchPath: '' }).catch(
      (e: Error) => e,
    );
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as Error).message).to.match(/^CHASQUI_CHROMIUM=.*missing is not an executable file/);
  });

  it('then chromium or chromium-browser on PATH, then a Playwright build in the cache', async () => {
    const bin = path.join(dir, 'bin');
    const onPath = executable(path.join(bin, 'chromium-browser'));
    expect(
      await obtainChromium({ explicit: null, cacheDir: path.join(dir, 'empty'), searchPath: bin, download: false }),
    ).to.equal(onPath);
    const cached = executable(path.join(dir, 'cache', 'ms-playwright', 'chromium-1200', 'chrome-linux', 'chrome'));
    expect(
      await obtainChromium({ explicit: null, cacheDir: path.join(dir, 'cache'), searchPath: '', download: false }),
    ).to.equal(cached);
  });

  it("finds Debian's chromium on this machine's PATH", async function () {
    if (!fs.existsSync('/usr/bin/chromium')) this.skip();
    expect(await obtainChromium({ explicit: null, cacheDir: dir, searchPath: '/usr/bin', download: false })).to.equal(
      '/usr/bin/chromium',
    );
  });

  it('when nothing works: one line saying what was tried and the fix', async () => {
    const err = (await obtainChromium({
      explicit: null,
      cacheDir: path.join(dir, 'none'),
      searchPath: '',
      download: false,
    }).catch((e: Error) => e)) as Error;
    expect(err).to.be.instanceOf(ConfigError);
    expect(err.message.split('\n')).to.have.length(1);
    expect(err.message).to.include('no chromium/chromium-browser on PATH');
    expect(err.message).to.include('apt-get install chromium');
    expect(err.message).to.include('CHASQUI_CHROMIUM=');
  });
});
