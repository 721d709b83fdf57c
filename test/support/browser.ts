import { chromium, type Browser } from 'playwright-core';
import { obtainChromium } from '../../runtime/browser';
import { testConfig } from './services';

let launched: Promise<Browser> | null = null;

/**
 * One headless Chromium per test run (found by runtime/browser.ts), driven with playwright-core: the consultation
 * page's tests and the support console's share it. Each test opens its own context (cookies, downloads) and closes it.
 */
export function getBrowser(): Promise<Browser> {
  launched ??= (async () => {
    const config = testConfig();
    const executablePath = await obtainChromium({ explicit: config.chromium, cacheDir: config.cacheDir });
    // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
    return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  })();
  return launched;
}

export async function closeBrowser(): Promise<void> {
  if (!launched) return;
  const browser = await launched.catch(() => null);
  launched = null;
  await browser?.close();
}
