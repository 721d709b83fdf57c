import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ConfigError } from '../core/config';
import { logger } from '../core/logger';
import { isExecutable } from './temporal-binaries';

/**
 * Finds the Chromium that drives chasqui's pages in tests (the buyers' consultation page, the support console), the
 * way runtime/temporal-binaries.ts finds Temporal. In order:
 *   1. CHASQUI_CHROMIUM, 2. PATH (`chromium`, `chromium-browser`: Debian's and Ubuntu's packages), 3. the cache
 *   (CHASQUI_CACHE_DIR/ms-playwright, where step 4 puts it), 4. Playwright's own download of its Chromium build
 *   (`playwright-core install chromium`), kept in the cache so the next run needs no network.
 * When nothing works, one line says what was tried and the fix.
 */
const log = logger.child({ component: 'browser' });

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser'];

export interface ChromiumOptions {
  /** CHASQUI_CHROMIUM, if set. */
  explicit: string | null;
  cacheDir: string;
  /** Test seams: where to look for executables, and whether Playwright's download may be tried. */
  searchPath?: string;
  download?: boolean;
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

/** Playwright's layout: <browsers>/chromium-<revision>/chrome-linux/chrome (chrome-linux64 in newer builds). */
function findInCache(browsersDir: string): string | null {
  if (!fs.existsSync(browsersDir)) return null;
  const builds = fs
    .readdirSync(browsersDir)
    .filter((d) => /^chromium-\d+$/.test(d))
    .sort()
    .reverse();
  for (const build of builds) {
    for (const sub of ['chrome-linux64', 'chrome-linux']) {
      const candidate = path.join(browsersDir, build, sub, 'chrome');
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

function playwrightInstall(browsersDir: string): Promise<string | null> {
  const cli = require.resolve('playwright-core/cli.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'install', 'chromium'], {
      env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsersDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b));
    child.stderr.on('data', (b: Buffer) => (output += b));
    child.once('error', (err) => resolve(err.message));
    child.once('close', (code) =>
      resolve(code === 0 ? null : (output.trim().split('\n').filter(Boolean).at(-1) ?? `exit ${code}`)),
    );
  });
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
  const browsersDir = path.join(options.cacheDir, 'ms-playwright');
  const cached = findInCache(browsersDir);
  if (cached) {
    log.info({ path: cached }, 'chromium: cached');
    return cached;
  }
  let failure = 'download not tried';
  if (options.download !== false) {
    log.info(
      { browsersDir },
      "chromium: not on PATH nor cached; trying Playwright's download (once; kept in the cache)",
    );
    const failed = await playwrightInstall(browsersDir);
    const fetched = failed ? null : findInCache(browsersDir);
    if (fetched) return fetched;
    failure = `Playwright's download failed: ${failed ?? 'no chrome in ' + browsersDir}`;
  }
  throw new ConfigError(
    `no Chromium found (CHASQUI_CHROMIUM unset, no ${CHROMIUM_NAMES.join('/')} on PATH, none in ${browsersDir}; ${failure}): ` +
      'install it (Debian: apt-get install chromium) or set CHASQUI_CHROMIUM=/path/to/chromium',
  );
}
