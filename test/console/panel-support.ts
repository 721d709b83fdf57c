/**
 * The panel tabs' world for their browser tests (panel-credentials, panel-email): the real issuing stack, two
 * accounts' companies, a browser, and helpers to sign in as an account holder, submit a form and walk a page.
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page, Response } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { newCompany, startIssuingStack, type IssuingStack, type TestCompany } from '../issuing/support';
import type { Config } from '../../core/config';

export interface PanelWorld {
  s: IssuingStack;
  browser: Browser;
  /** The signed-in account's company. */
  a: TestCompany;
  /** Another account's company: its pages answer 404 to a's holder. */
  b: TestCompany;
}

/** `config`: the stack's settings, read when the world starts (after the calling suite's earlier hooks). */
export function panelWorld(config: () => Partial<Config> = () => ({})) {
  const world = {} as PanelWorld;
  before(async function () {
    world.s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 }, ...config() });
    [world.a, world.b] = await Promise.all([newCompany(world.s.stack), newCompany(world.s.stack)]);
    world.browser = await getBrowser();
  });
  after(async () => world.s?.stop());

  /** A new page at `width` px, signed in with a's account token, at `path`. */
  async function signedIn(width: number, at: string): Promise<Page> {
    const context = await world.browser.newContext({ viewport: { width, height: 900 }, locale: 'es-PE' });
    const page = await context.newPage();
    await page.goto(`${world.s.stack.url}/console`);
    await page.getByLabel('Token de acceso').fill(world.a.accountToken);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.goto(`${world.s.stack.url}${at}`);
    return page;
  }

  /** Clicks a form's submit button and answers the response of the page it lands on (after a redirect, the GET). */
  async function submit(page: Page, button: string): Promise<Response> {
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: button, exact: true }).click(),
    ]);
    return response!;
  }

  /** The console's page walk on the open page: nothing wider than the screen, no split word, no English. */
  async function walk(page: Page, name: string): Promise<void> {
    const problems = await pageProblems(page, englishOnlyWords());
    const width = page.viewportSize()!.width;
    expect(problems, `${name} at ${width} px`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
    await screenshot(page, `panel-${name}-${width}`);
  }

  return { world, signedIn, submit, walk };
}

/** Fills the certificate tab's upload form: the PKCS#12 file and the password that opens it (or does not). */
export async function fillCertificateForm(page: Page, pfx: Buffer, password: string): Promise<void> {
  await page.setInputFiles('#cert-certificate', { name: 'empresa.pfx', mimeType: 'application/x-pkcs12', buffer: pfx });
  await page.getByLabel('Contraseña del certificado').fill(password);
}
