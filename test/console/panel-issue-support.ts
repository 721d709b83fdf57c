import type { Browser, Page, Response } from 'playwright-core';
import type { IssuingStack } from '../issuing/support';

/** What the issue form's browser tests share: a signed-in page, the form's address, a button pressed and its answer. */
export function issueFormDriver(s: () => IssuingStack, browser: () => Browser) {
  return {
    async signedIn(token: string, width = 1280): Promise<Page> {
      const page = await browser().newPage({ viewport: { width, height: 900 } });
      await page.goto(`${s().stack.url}/console`);
      await page.getByLabel('Token de acceso').fill(token);
      await page.getByRole('button', { name: 'Entrar' }).click();
      return page;
    },
    issuePath: (ruc: string, query = '') => `${s().stack.url}/console/companies/${ruc}/issue${query}`,
    async press(page: Page, button: string): Promise<Response> {
      const [response] = await Promise.all([
        page.waitForNavigation(),
        page.getByRole('button', { name: button }).click(),
      ]);
      return response!;
    },
  };
}

/** Fills the form's line `row` (0-based): description, quantity, its unit price, its tax. */
export async function fillLine(
  page: Page,
  row: number,
  line: { what: string; qty: string; price: string; tax?: string },
): Promise<void> {
  const fieldset = page.locator('fieldset.issue-line').nth(row);
  await fieldset.getByLabel('Descripción').fill(line.what);
  await fieldset.getByLabel('Cantidad').fill(line.qty);
  await fieldset.getByLabel('Precio unitario').fill(line.price);
  if (line.tax) await fieldset.getByLabel('IGV', { exact: true }).selectOption(line.tax);
}
