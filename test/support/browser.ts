import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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

/**
 * A full-page screenshot for a reviewer, kept in CHASQUI_SCREENSHOTS when set; otherwise none is taken: nothing asserts
 * on them, and the suite's ≈ 200 cost ≈ 0.2 s each.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CHASQUI_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
