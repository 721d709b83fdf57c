import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { obtainChromium } from '../../runtime/browser';
import { ConfigError } from '../../core/config';
import { testConfig } from '../support/services';

/** How runtime/browser.ts finds Chromium: the variable, PATH, the npm package; and the one line when nothing works. */
describe('runtime/browser.ts: finding Chromium', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-browser-'));
  const executable = (file: string, body = '#!/bin/sh\n') => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
    fs.chmodSync(file, 0o755);
    return file;
  };
  const brotli = (file: string, data: Buffer) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, zlib.brotliCompressSync(data));
  };
  /** A package laid out as @sparticuz/chromium is: a "chromium" that prints how it was launched, its lib/ and fonts/. */
  const fakePackage = (root: string) => {
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ version: '1.2.3' }));
    brotli(
      path.join(root, 'bin', 'chromium.br'),
      Buffer.from('#!/bin/sh\necho "args=$* libs=$LD_LIBRARY_PATH fonts=$FONTCONFIG_FILE"\n'),
    );
    for (const [archive, inside] of [
      ['al2023', 'lib/libnss3.so'],
      ['fonts', 'fonts/Open_Sans/OpenSans.ttf'],
    ]) {
      const src = path.join(dir, `src-${archive}`);
      executable(path.join(src, inside));
      brotli(path.join(root, 'bin', `${archive}.tar.br`), execFileSync('tar', ['-c', '-C', src, '.']));
    }
    return root;
  };
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes CHASQUI_CHROMIUM first, and refuses one that is not an executable, naming the variable', async () => {
    const explicit = executable(path.join(dir, 'explicit', 'my-chromium'));
    const bin = path.join(dir, 'first-bin');
    executable(path.join(bin, 'chromium'));
    const packageDir = fakePackage(path.join(dir, 'first-package'));
    expect(await obtainChromium({ explicit, cacheDir: dir, searchPath: bin, packageDir })).to.equal(explicit);
    const err = await obtainChromium({ explicit: path.join(dir, 'missing'), cacheDir: dir, searchPath: '' }).catch(
      (e: Error) => e,
    );
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as Error).message).to.match(/^CHASQUI_CHROMIUM=.*missing is not an executable file/);
  });

  it('then chromium or chromium-browser on PATH, before the npm package', async () => {
    const bin = path.join(dir, 'bin');
    const onPath = executable(path.join(bin, 'chromium-browser'));
    const packageDir = fakePackage(path.join(dir, 'second-package'));
    const cacheDir = path.join(dir, 'second-cache');
    expect(await obtainChromium({ explicit: null, cacheDir, searchPath: bin, packageDir })).to.equal(onPath);
    expect(fs.existsSync(cacheDir), 'the package is not unpacked when PATH has one').to.equal(false);
  });

  it('then the npm package, unpacked once into the cache with a launcher that gives the binary its libraries and fonts', async () => {
    const packageDir = fakePackage(path.join(dir, 'package'));
    const cacheDir = path.join(dir, 'cache');
    const launcher = await obtainChromium({ explicit: null, cacheDir, searchPath: '', packageDir });
    const unpacked = path.join(cacheDir, 'sparticuz-chromium-1.2.3');
    expect(launcher).to.equal(path.join(unpacked, 'chrome'));
    expect(fs.readdirSync(cacheDir), 'no half-unpacked folder left').to.deep.equal(['sparticuz-chromium-1.2.3']);
    expect(fs.existsSync(path.join(unpacked, 'lib', 'libnss3.so'))).to.equal(true);
    expect(fs.existsSync(path.join(unpacked, 'fonts', 'Open_Sans', 'OpenSans.ttf'))).to.equal(true);
    expect(fs.readFileSync(path.join(unpacked, 'fonts.conf'), 'utf8')).to.include(`<dir>${unpacked}/fonts</dir>`);
    const ran = execFileSync(launcher, ['--headless'], { env: { PATH: process.env.PATH } })
      .toString()
      .trim();
    expect(ran).to.equal(`args=--headless libs=${unpacked}/lib fonts=${unpacked}/fonts.conf`);

    // The second run takes what is there, even with the package gone.
    fs.rmSync(path.join(packageDir, 'bin'), { recursive: true });
    expect(await obtainChromium({ explicit: null, cacheDir, searchPath: '', packageDir })).to.equal(launcher);
  });

  it("two processes unpacking at once end with one copy, both given its launcher; a crashed one's leftovers go", async () => {
    const packageDir = fakePackage(path.join(dir, 'race-package'));
    const cacheDir = path.join(dir, 'race-cache');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.mkdirSync(path.join(cacheDir, `sparticuz-chromium-1.2.3.unpacking-${dead}-x1`), { recursive: true });
    const script =
      `require(${JSON.stringify(path.resolve(__dirname, '../../runtime/browser'))}).obtainChromium(` +
      `{ explicit: null, cacheDir: ${JSON.stringify(cacheDir)}, searchPath: '', packageDir: ${JSON.stringify(packageDir)} })` +
      '.then((p) => process.stdout.write(p))';
    const run = () =>
      new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', '-e', script],
          { env: { ...process.env, LOG_LEVEL: 'warn' } },
          (err, stdout) => (err ? reject(err) : resolve(stdout)),
        ),
      );
    const both = await Promise.all([run(), run()]);
    expect(both[0])
      .to.equal(path.join(cacheDir, 'sparticuz-chromium-1.2.3', 'chrome'))
      .and.to.equal(both[1]);
    expect(fs.readdirSync(cacheDir)).to.deep.equal(['sparticuz-chromium-1.2.3']);
    expect(execFileSync(both[0], { env: { PATH: process.env.PATH } }).toString()).to.match(/^args= libs=/);
  });

  it('the installed package renders a page through playwright-core headless, with no chromium on PATH', async function () {
    this.timeout(120_000); // the first unpacking of ~190 MB
    const executablePath = await obtainChromium({ explicit: null, cacheDir: testConfig().cacheDir, searchPath: '' });
    expect(executablePath).to.match(/sparticuz-chromium-[\d.]+\/chrome$/);
    const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 400 } });
      await page.setContent('<p id="t">Facturación electrónica</p>');
      expect(await page.textContent('#t')).to.equal('Facturación electrónica');
      expect(await page.evaluate(() => document.getElementById('t')!.getBoundingClientRect().width)).to.be.above(50);
    } finally {
      await browser.close();
    }
  });

  /**
   * glibc's and libgcc's files, of Debian's `required` packages libc6 and libgcc-s1 (on every Debian, even a bare
   * container): what the npm build may take from the machine. Anything else would be a library to install with apt.
   */
  const BASE_SYSTEM = new Set([
    'linux-vdso.so.1',
    'ld-linux-x86-64.so.2',
    'libc.so.6',
    'libm.so.6',
    'libdl.so.2',
    'libpthread.so.0',
    'librt.so.1',
    'libgcc_s.so.1',
  ]);

  it('the npm build needs no library from apt: ldd finds every one, and what its processes map is its own or the base system', async function () {
    this.timeout(120_000);
    const launcher = await obtainChromium({ explicit: null, cacheDir: testConfig().cacheDir, searchPath: '' });
    const unpacked = path.dirname(launcher);
    const own = path.join(unpacked, 'lib');
    const outside = (files: string[]) =>
      files.filter((f) => !f.startsWith(`${own}/`) && !BASE_SYSTEM.has(path.basename(f))).sort();

    // As its launcher runs it: its own lib/ first.
    const ldd = execFileSync('ldd', [path.join(unpacked, 'chromium')], {
      env: { PATH: process.env.PATH, LD_LIBRARY_PATH: own },
      encoding: 'utf8',
    });
    expect(ldd).to.not.include('not found');
    const linked = [...ldd.matchAll(/^\s*(\S+)(?: => (\S+))? \(0x/gm)].map(([, name, file]) => file ?? name);
    expect(linked.map((f) => path.basename(f))).to.include.members(['libnss3.so', 'libnspr4.so', 'libexpat.so.1']);
    expect(outside(linked), 'linked from outside the package and the base system').to.deep.equal([]);

    // While it renders: every process of the build (browser, renderer, utilities), libraries loaded later included.
    const browser = await chromium.launch({ executablePath: launcher, headless: true, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.setContent('<p>Facturación</p>');
      await page.screenshot();
      const mapped = new Set<string>();
      for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        const exe = (() => {
          try {
            return fs.readlinkSync(`/proc/${pid}/exe`);
          } catch {
            return '';
          }
        })();
        if (exe !== path.join(unpacked, 'chromium')) continue;
        for (const line of fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
          const file = line.split(/\s+/)[5];
          if (file && /\.so(\.|$)/.test(file)) mapped.add(file);
        }
      }
      expect([...mapped].filter((f) => f.startsWith(`${own}/`))).to.have.length.above(2);
      expect(outside([...mapped]), 'mapped from outside the package and the base system').to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });

  it('when nothing works: one line saying what was tried and the fix', async () => {
    const err = (await obtainChromium({
      explicit: null,
      cacheDir: path.join(dir, 'none'),
      searchPath: '',
      packageDir: null,
    }).catch((e: Error) => e)) as Error;
    expect(err).to.be.instanceOf(ConfigError);
    expect(err.message.split('\n')).to.have.length(1);
    expect(err.message).to.include('no chromium/chromium-browser on PATH');
    expect(err.message).to.include('@sparticuz/chromium not installed');
    expect(err.message).to.include('npm ci');
    expect(err.message).to.include('CHASQUI_CHROMIUM=');
  });
});
