/**
 * The world of the panel's tokens and webhook tests: an API and worker over the run's PostgreSQL and Temporal, an
 * account with a company, a local https receiver its webhook may point at, and a browser; helpers to sign in, take
 * screenshots and walk pages at a phone's and a desktop's width.
 */
import { expect } from 'chai';
import type { Browser, Page, Response } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import { startTestStack, type TestStack } from '../support/stack';
import { englishOnlyWords, pageProblems } from '../support/page-checks';
import { localTlsCertificate, startReceiver, type Receiver } from '../webhooks/support';
import { call, createCompany, newAccountToken, randomRuc } from '../companies/helpers';

export interface PanelWorld {
  stack: TestStack;
  browser: Browser;
  receiver: Receiver;
  account: { accountId: string; token: string };
  ruc: string;
  /** The company's first signing token (made with the company). */
  firstToken: string;
  /** Another account's company: the panel answers it as unknown. */
  otherRuc: string;
}

/** One page of a walk: its screenshot's name, the status it answers, and how to reach it. */
export interface WalkPage {
  name: string;
  status: number;
  open: (page: Page) => Promise<Response | null>;
}

export function panelWorld() {
  const world = {} as PanelWorld;
  const tls = localTlsCertificate();

  before(async function () {
    this.timeout(120_000);
    world.receiver = await startReceiver(tls);
    world.stack = await startTestStack({
      config: {
        webhookAllowPrivate: true,
        webhookCaFile: tls.certFile,
        consoleSignInRate: { limit: 1000, windowSeconds: 300 },
      },
    });
    world.account = await newAccountToken(world.stack);
    world.ruc = randomRuc();
    world.firstToken = await createCompany(world.stack, world.account.token, world.ruc);
    world.otherRuc = randomRuc();
    await createCompany(world.stack, (await newAccountToken(world.stack)).token, world.otherRuc);
    world.browser = await getBrowser();
  });
  after(async () => {
    await world.stack?.stop();
    await world.receiver?.close();
  });

  const url = (p: string) => `${world.stack.url}${p}`;

  /** A new page signed in as the account holder. */
  async function signedIn(width = 1280): Promise<Page> {
    const context = await world.browser.newContext({ viewport: { width, height: 900 }, locale: 'es-PE' });
    const page = await context.newPage();
    await page.goto(url('/console'));
    await page.getByLabel('Token de acceso').fill(world.account.token);
    await Promise.all([page.waitForURL('**/console/documents'), page.getByRole('button', { name: 'Entrar' }).click()]);
    return page;
  }

  /** Clicks a button that submits a form and answers the page it lands on. */
  async function submit(page: Page, click: () => Promise<void>): Promise<Response> {
    const [response] = await Promise.all([page.waitForNavigation(), click()]);
    return response!;
  }

  /** A signing token's answer from the API: 200 while it works, 401 once revoked or expired. */
  const use = async (token: string) => (await call(world.stack, 'GET', '/v1/cpe?limit=1', { token })).status;

  /** Another account's company answers 404 to a look at `tab` and to a form posted to `tab` + `rest`. */
  async function expectUnknownCompany(tab: string, rest: string, form: Record<string, string>): Promise<void> {
    const page = await signedIn();
    const other = `/console/companies/${world.otherRuc}/${tab}`;
    expect((await page.goto(url(other)))!.status()).to.equal(404);
    await page.goto(url(`/console/companies/${world.ruc}/${tab}`));
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    expect((await page.request.post(url(`${other}${rest}`), { form: { csrf, ...form } })).status()).to.equal(404);
    await page.context().close();
  }

  /** Each page at 375 and 1280 px: the status, nothing past the screen, no split word, no English; a screenshot. */
  async function walk(pages: WalkPage[]): Promise<void> {
    const english = englishOnlyWords();
    for (const width of [375, 1280]) {
      const page = await signedIn(width);
      for (const { name, status, open } of pages) {
        const answer = await open(page);
        if (answer) expect(answer.status(), `${name} at ${width} px`).to.equal(status);
        const problems = await pageProblems(page, english);
        expect(problems, `${name} at ${width} px`).to.deep.equal({ scrolls: 0, wide: [], split: [], english: [] });
        await screenshot(page, `panel-${name}-${width}`);
      }
      await page.context().close();
    }
  }

  return { world, url, signedIn, submit, use, walk, expectUnknownCompany };
}
