import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { ConfigError } from '../core/config';
import { logger } from '../core/logger';
import { isExecutable, usableCacheDir } from './temporal-binaries';
import { alive } from './instance';

/**
 * Finds the Chromium that drives chasqui's pages in tests (the buyers' consultation page, the support console), the
 * way runtime/temporal-binaries.ts finds Temporal. In order:
 *   1. CHASQUI_CHROMIUM, 2. PATH (`chromium`, `chromium-browser`: Debian's and Ubuntu's packages), 3. the npm package
 *   @sparticuz/chromium (a devDependency: a headless Chromium build with the libraries it needs — nss, nspr, expat — and
 *   a font, brotli-compressed inside the package), unpacked once into CHASQUI_CACHE_DIR, so `npm ci` is all a fresh
 *   machine needs. When nothing works, one line says what was tried and the fix.
 */
const log = logger.child({ component: 'browser' });

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser'];
const NPM_PACKAGE = '@sparticuz/chromium';

export interface ChromiumOptions {
  /** CHASQUI_CHROMIUM, if set. */
  explicit: string | null;
  cacheDir: string;
  /** Test seams: where to look for executables, and the npm package's folder (null: as if not installed). */
  searchPath?: string;
  packageDir?: string | null;
}

function findOnPath(searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    for (const name of CHROMIUM_NAMES) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

/** The installed package's root, or null. Its `exports` hide package.json: its entry is `build/cjs/index.cjs`. */
function installedPackageDir(): string | null {
  try {
    return path.resolve(path.dirname(require.resolve(NPM_PACKAGE)), '..', '..');
  } catch {
    return null;
  }
}

/** `<file>.br` → `<to>`, brotli through node:zlib. */
async function unbrotli(file: string, to: string, mode = 0o644): Promise<void> {
  await pipeline(fs.createReadStream(file), zlib.createBrotliDecompress(), fs.createWriteStream(to, { mode }));
}

/** A `.tar.br` into `dir`: brotli in Node, then the archive by tar (in every Debian base system). */
async function untar(file: string, dir: string): Promise<void> {
  const archive = path.join(dir, path.basename(file, '.br'));
  await unbrotli(file, archive);
  const tar = spawn('tar', ['-x', '-f', archive, '-C', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  tar.stderr.on('data', (b: Buffer) => (stderr += b));
  await new Promise<void>((resolve, reject) => {
    tar.once('error', reject);
    tar.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar -x ${archive}: ${stderr.trim()}`))));
  });
  fs.rmSync(archive);
}

function sizeOf(dir: string): number {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}

/** What unpackings that were cut short (their process gone) left beside `target`: 200 MB each. */
function removeAbandoned(target: string): void {
  const prefix = `${path.basename(target)}.unpacking-`;
  for (const name of fs.readdirSync(path.dirname(target))) {
    const pid = Number(name.startsWith(prefix) ? name.slice(prefix.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && !alive(pid))
      fs.rmSync(path.join(path.dirname(target), name), { recursive: true, force: true });
  }
}

/**
 * The package's build unpacked into `<cacheDir>/sparticuz-chromium-<version>/`: `chromium` (the binary), `lib/` (its
 * libraries), `fonts/` and a `chrome` launcher that points the binary at both. Unpacked beside the target and renamed
 * into place, so an interrupted run leaves nothing that looks complete.
 */
async function fromNpmPackage(packageDir: string, cacheDir: string): Promise<string> {
  const version = (JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string })
    .version;
  const target = path.join(cacheDir, `sparticuz-chromium-${version}`);
  const launcher = path.join(target, 'chrome');
  if (isExecutable(launcher)) {
    log.info({ path: launcher }, `chromium: ${NPM_PACKAGE} ${version}, unpacked in the cache`);
    return launcher;
  }
  log.info({ target }, `chromium: unpacking ${NPM_PACKAGE} ${version} into the cache (once; about 200 MB)`);
  const started = Date.now();
  removeAbandoned(target);
  const work = fs.mkdtempSync(`${target}.unpacking-${process.pid}-`);
  const bin = path.join(packageDir, 'bin');
  await Promise.all([
    unbrotli(path.join(bin, 'chromium.br'), path.join(work, 'chromium'), 0o755),
    untar(path.join(bin, 'al2023.tar.br'), work), // lib/: nss, nspr, expat
    untar(path.join(bin, 'fonts.tar.br'), work), // fonts/: Open Sans, for machines without any font
  ]);
  // The package's fonts.conf names Lambda's folders: ours keeps the system's fonts and adds the bundled one.
  fs.writeFileSync(
    path.join(work, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n` +
      `  <dir>/usr/share/fonts</dir>\n  <dir>${target}/fonts</dir>\n  <cachedir>${target}/fonts-cache</cachedir>\n` +
      `</fontconfig>\n`,
  );
  fs.writeFileSync(
    path.join(work, 'chrome'),
    `#!/bin/sh\n# ${NPM_PACKAGE} ${version} (unpacked by chasqui's runtime/browser.ts) with its own libraries and fonts.\n` +
      `export LD_LIBRARY_PATH="${target}/lib\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"\n` +
      `export FONTCONFIG_FILE="${target}/fonts.conf"\n` +
      `exec "${target}/chromium" "$@"\n`,
    { mode: 0o755 },
  );
  const bytes = sizeOf(work);
  // Another process (a parallel test run) may have finished first: its copy stays (it may be running), ours goes.
  if (!isExecutable(launcher)) fs.rmSync(target, { recursive: true, force: true });
  try {
    fs.renameSync(work, target);
  } catch (err) {
    if (!isExecutable(launcher)) throw err;
    fs.rmSync(work, { recursive: true, force: true });
  }
  log.info(
    { path: launcher, seconds: (Date.now() - started) / 1000, megabytes: Math.round(bytes / 1e6) },
    `chromium: ${NPM_PACKAGE} ${version} unpacked`,
  );
  return launcher;
}

export async function obtainChromium(options: ChromiumOptions): Promise<string> {
  if (options.explicit) {
    if (!isExecutable(options.explicit))
      throw new ConfigError(
        `CHASQUI_CHROMIUM=${options.explicit} is not an executable file: point it at chromium or unset it`,
      );
    log.info({ path: options.explicit }, 'chromium: CHASQUI_CHROMIUM');
    return options.explicit;
  }
  const onPath = findOnPath(options.searchPath ?? process.env.PATH ?? '');
  if (onPath) {
    log.info({ path: onPath }, 'chromium: found on PATH');
    return onPath;
  }
  const packageDir = options.packageDir === undefined ? installedPackageDir() : options.packageDir;
  if (packageDir) {
    return fromNpmPackage(packageDir, usableCacheDir(options.cacheDir));
  }
  throw new ConfigError(
    `no Chromium found (CHASQUI_CHROMIUM unset, no ${CHROMIUM_NAMES.join('/')} on PATH, npm package ${NPM_PACKAGE} ` +
      'not installed): run npm ci (it installs the package), or set CHASQUI_CHROMIUM=/path/to/chromium',
  );
}
