import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { displayPrefix, hashToken } from '../../db/tokens';
import { eventually } from '../webhooks/support';
import { panelWorld } from './panel-world';

/**
 * Issue 42, item 6, in a real browser: the tokens tab creates a named token shown once (then only its prefix),
 * revokes one (401 at once), rolls one with an overlap (both work, then the old answers 401), shows the last use, and
 * answers another account's company as unknown; its pages at 375 and 1280 px.
 */
describe('panel: signing tokens (real browser)', function () {
  this.timeout(120_000);
  const { world, url, signedIn, submit, use, walk, expectUnknownCompany } = panelWorld();
  const tokensPath = () => `/console/companies/${world.ruc}/tokens`;
  const row = (page: Page, name: string) => page.locator('tbody tr', { hasText: name });

  /** Types a name in the creation form and submits it; the answer is the page it lands on. */
  async function submitName(page: Page, name: string) {
    await page.goto(url(tokensPath()));
    await page.getByLabel('Nombre del token').fill(name);
    return submit(page, () => page.getByRole('button', { name: 'Crear token' }).click());
  }

  async function create(page: Page, name: string): Promise<string> {
    expect((await submitName(page, name)).status()).to.equal(200);
    return page.locator('code.secret').innerText();
  }

  it('creates a named token shown once, then lists only its name and prefix', async () => {
    const page = await signedIn();
    const token = await create(page, 'caja 1');
    expect(token).to.match(/^chq_sig_[\w-]{43}$/);
    expect(await page.locator('.secret-once').innerText()).to.include('no se volverá a mostrar');
    expect(await use(token)).to.equal(200);
    await page.goto(url(tokensPath()));
    const html = await page.content();
    expect(html).to.not.include(token);
    expect(await row(page, 'caja 1').innerText()).to.include(`${displayPrefix(token)}…`);
    // The company's first token has a prefix too; one made before prefixes were stored shows "—".
    expect(await row(page, displayPrefix(world.firstToken)).innerText()).to.include('sin nombre');
    await page.context().close();
  });

  it('shows "—" for an older token without a prefix', async () => {
    const company = await world.stack.db('companies').where({ ruc: world.ruc }).first();
    await world.stack.db('api_tokens').insert({
      token_hash: hashToken(`chq_sig_older-${Date.now()}`),
      scope: 'cpe:sign',
      account_id: world.account.accountId,
      company_id: company.id,
      name: 'antiguo',
    });
    const page = await signedIn();
    await page.goto(url(tokensPath()));
    expect(await row(page, 'antiguo').locator('td[data-label=Prefijo]').innerText()).to.equal('—');
    await page.context().close();
  });

  it('refuses a hostile name beside the field, in Spanish, and creates nothing', async () => {
    const page = await signedIn();
    await page.goto(url(tokensPath()));
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    const count = async () =>
      (await world.stack.db('api_tokens').where({ account_id: world.account.accountId })).length;
    const before = await count();
    for (const name of ['', 'caja\u0000', 'x'.repeat(61), 'a\u202eb']) {
      const answer = await page.request.post(url(tokensPath()), { form: { csrf, name } });
      expect(answer.status(), JSON.stringify(name)).to.equal(422);
      expect(await answer.text()).to.include('Escriba un nombre de 1 a 60 caracteres');
    }
    expect(await count()).to.equal(before);
    await page.context().close();
  });

  it('revokes a token at once: its next request answers 401', async () => {
    const page = await signedIn();
    const token = await create(page, 'revocable');
    await page.goto(url(tokensPath()));
    await submit(page, () => row(page, 'revocable').getByRole('button', { name: 'Revocar ya' }).click());
    expect(await page.locator('[role=status]').innerText()).to.include('Token revocado');
    expect(await use(token)).to.equal(401);
    expect(await row(page, 'revocable').count()).to.equal(0);
    const [audit] = await world.stack.db('audit_log').where({ action: 'token.revoke', company_ruc: world.ruc });
    expect(audit).to.include({ actor_kind: 'console', actor: 'test account' });
    await page.context().close();
  });

  it('rolls a token: both work during the overlap, the old one answers 401 after it', async () => {
    const page = await signedIn();
    const old = await create(page, 'tienda');
    await page.goto(url(tokensPath()));
    await row(page, 'tienda').getByLabel('Rotar: el actual sigue').selectOption('1h');
    await submit(page, () => row(page, 'tienda').getByRole('button', { name: 'Rotar' }).click());
    const next = await page.locator('code.secret').innerText();
    expect(await page.locator('.secret-once').innerText()).to.match(
      /El token anterior funciona hasta el \d\d\/\d\d\/\d{4}/,
    );
    expect(next).to.not.equal(old);
    expect([await use(old), await use(next)]).to.deep.equal([200, 200]);
    // The hour passes: the old token's expiry is moved to a second ago rather than waited for.
    await world.stack
      .db('api_tokens')
      .where({ token_hash: hashToken(old) })
      .update({ expires_at: world.stack.db.raw("now() - interval '1 second'") });
    expect([await use(old), await use(next)]).to.deep.equal([401, 200]);
    await page.context().close();
  });

  it('shows the last use once the token has been used', async () => {
    const page = await signedIn();
    const token = await create(page, 'uso');
    await page.goto(url(tokensPath()));
    expect(await row(page, 'uso').locator('td[data-label="Último uso"]').innerText()).to.equal('nunca');
    await use(token);
    await eventually(async () =>
      (
        await world.stack
          .db('api_tokens')
          .where({ token_hash: hashToken(token) })
          .first()
      ).last_used_at
        ? true
        : undefined,
    );
    await page.goto(url(tokensPath()));
    expect(await row(page, 'uso').locator('td[data-label="Último uso"]').innerText()).to.match(
      /^\d\d\/\d\d\/\d{4} \d\d:\d\d$/,
    );
    await page.context().close();
  });

  it("answers another account's company as unknown (404), for a look and for a form", async () => {
    await expectUnknownCompany('tokens', '', { name: 'intruso' });
    expect(await world.stack.db('api_tokens').where({ name: 'intruso' })).to.have.length(0);
  });

  it('every tokens page at 375 and 1280 px: nothing past the screen, no split word, Spanish only', async () => {
    await walk([
      { name: 'tokens', status: 200, open: (p) => p.goto(url(tokensPath())) },
      { name: 'tokens-created', status: 200, open: (p) => submitName(p, 'tienda en línea de la sucursal principal') },
      { name: 'tokens-name-refused', status: 422, open: (p) => submitName(p, '   ') },
      {
        name: 'tokens-other-account',
        status: 404,
        open: (p) => p.goto(url(`/console/companies/${world.otherRuc}/tokens`)),
      },
    ]);
  });
});
