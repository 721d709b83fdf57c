/**
 * The support console's world for its browser tests: one issuing stack (API, worker, PostgreSQL, Temporal, the
 * simulator) with documents in every state the console shows, a support token made with the real CLI, and a
 * browser.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { getBrowser, screenshot } from '../support/browser';
import {
  startIssuingStack,
  newCompany,
  payload,
  issue,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { testDatabaseUrl, testTemporalAddress } from '../support/services';
import { openOriginalDelivery } from '../../db/webhooks';
import type { DocumentRow } from '../../db/documents';
import type { CheckResult } from '../../db/company-checks';
import { result } from '../../activities/checks/context';
import { message } from '../../lifecycle/messages';

const CHASQUI = path.resolve(__dirname, '../../bin/chasqui');
export const SCREENSHOTS = path.join(os.tmpdir(), 'chasqui-console-screenshots');

export interface ConsoleWorld {
  s: IssuingStack;
  browser: Browser;
  a: TestCompany;
  b: TestCompany;
  docA: DocumentRow;
  docB: DocumentRow;
  /** Left `sent` by a send the simulator never answered. */
  lost: DocumentRow;
  rejected: DocumentRow;
  /** `ose`'s invoice, left `sent` by a send its OSE never answered: nothing queries it by itself. */
  oseLost: DocumentRow;
  ose: TestCompany;
  /** A manual-mode company's document, waiting for POST /send. */
  waiting: DocumentRow;
  manual: TestCompany;
  supportToken: string;
  env: NodeJS.ProcessEnv;
}

/** A company check that warns: the certificate expires in `days` days (the companies page says the days left). */
export const certificateExpiring = (days: number): CheckResult =>
  result(
    'certificate',
    'warn',
    message('check.certificate.expiring', { origin: 'own', days, not_after: '2026-12-31T23:59:59.000Z' }),
    { days_left: days },
  );

/** The world the console's tests walk: the stack, its companies and a document in each state the pages show. */
async function buildWorld(
  world: ConsoleWorld,
  cli: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>,
) {
  // Every test signs in from 127.0.0.1: more sign-ins than CHASQUI_CONSOLE_SIGNIN_RATE allows one address.
  world.s = await startIssuingStack({ consoleSignInRate: { limit: 1000, windowSeconds: 300 } });
  world.env = {
    ...process.env,
    DATABASE_URL: await testDatabaseUrl(),
    TEMPORAL_ADDRESS: await testTemporalAddress(),
    LOG_LEVEL: 'silent',
  };
  world.a = await newCompany(world.s.stack);
  world.b = await newCompany(world.s.stack);
  const mailed = payload('invoice-basic.json', world.a.ruc);
  mailed.cliente = { ...mailed.cliente, correo: 'compras@cliente.pe' };
  world.docA = await until(world.s.stack, (await issue(world.s.stack, world.a.token, mailed)).body.external_id, [
    'accepted',
  ]);
  // A's webhook delivery of docA failed: redeliver applies to it.
  await world.s.stack
    .db('companies')
    .where({ id: world.a.row.id })
    .update({ webhook_url: 'https://hooks.example.test/cpe' });
  const delivery = await openOriginalDelivery(world.s.stack.db, world.docA, 'cpe.resolved');
  await world.s.stack
    .db('webhook_deliveries')
    .where({ id: delivery.id })
    .update({ status: 'failed', attempts: 5, completed_at: world.s.stack.db.fn.now() });
  world.s.sim.addRule({ operation: 'sendBill', ruc: world.a.ruc, fault: { kind: 'hang' }, times: 1 });
  world.lost = await until(
    world.s.stack,
    (await issue(world.s.stack, world.a.token, payload('invoice-basic.json', world.a.ruc))).body.external_id,
    ['sent'],
  );
  world.s.sim.addRule({ operation: 'sendBill', ruc: world.a.ruc, fault: { kind: 'reject', code: '2335' }, times: 1 });
  world.rejected = await until(
    world.s.stack,
    (await issue(world.s.stack, world.a.token, payload('invoice-basic.json', world.a.ruc))).body.external_id,
    ['rejected'],
  );
  // An OSE offers no state query: the workflow waits for an action, and the console must not promise a query.
  world.ose = await newCompany(world.s.stack, { settings: { destination: 'provider_ose' } });
  world.s.sim.addRule({ operation: 'sendBill', ruc: world.ose.ruc, fault: { kind: 'hang' }, times: 1 });
  world.oseLost = await until(
    world.s.stack,
    (await issue(world.s.stack, world.ose.token, payload('invoice-basic.json', world.ose.ruc))).body.external_id,
    ['sent'],
  );
  world.s.sim.clearRules();
  world.manual = await newCompany(world.s.stack, { settings: { sending_mode: 'manual' } });
  world.waiting = await until(
    world.s.stack,
    (await issue(world.s.stack, world.manual.token, payload('invoice-basic.json', world.manual.ruc))).body.external_id,
    ['to_send'],
  );
  world.docB = await until(
    world.s.stack,
    (await issue(world.s.stack, world.b.token, payload('invoice-basic.json', world.b.ruc))).body.external_id,
    ['accepted'],
  );
  const created = await cli('tokens', 'create', '--name', `ana-${process.pid}`, '--expires', '90d', '--json');
  expect(created.code, created.stderr).to.equal(0);
  world.supportToken = JSON.parse(created.stdout).token;
  world.browser = await getBrowser();
}

/**
 * Registers the hooks that build the world before the calling describe's tests and stop it after them; the helpers
 * sign in, run the support CLI, take screenshots and confirm actions against it.
 */
export function consoleWorld() {
  const world = {} as ConsoleWorld;
  function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [CHASQUI, 'support', ...args],
        { env: world.env, timeout: 60_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function signIn(page: Page, token: string): Promise<void> {
    await page.goto(`${world.s.stack.url}/console`);
    await page.getByLabel('Token de acceso').fill(token);
    await page.getByRole('button', { name: 'Entrar' }).click();
  }

  /** Signs in, then clicks the link and the confirmation of an action; the answer is the page it lands on. */
  async function confirm(page: Page, docId: string, action: string) {
    await page.goto(`${world.s.stack.url}/console/documents/${docId}/acciones/${action}`);
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: /Confirmar/ }).click(),
    ]);
    return response!;
  }

  before(() => buildWorld(world, cli));
  after(async () => {
    // A support token's name stays taken even once revoked: the other file's world in this process takes it afresh.
    await world.s?.stack
      .db('support_tokens')
      .where({ name: `ana-${process.pid}` })
      .del();
    await world.s?.stop();
  });
  return { world, cli, signIn, shot: screenshot, confirm };
}
