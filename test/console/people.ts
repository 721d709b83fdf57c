/**
 * People of an account (issue 43) for the console's and the security tests: a stack whose API mails through a real
 * SMTP server (smtp-server on 127.0.0.1) and whose clock the tests move, two companies of one account and one of
 * another, and a small cookie-keeping HTTP client for the console's forms (the browser tests use Chromium instead).
 */
import { expect } from 'chai';
import got, { type Response } from 'got';
import { startIssuingStack, newCompany, type IssuingStack, type TestCompany } from '../issuing/support';
import { startSmtpServer, type SmtpServerHandle } from '../buyers/support';
import { testConfig } from '../support/services';
import type { AppDeps } from '../../api/deps';
import type { Rate } from '../../core/env-values';
import { inviteUser } from '../../api/console/people/service';
import type { UserRole } from '../../db/users';
import { totp } from '../../core/totp';

export const PUBLIC_URL = 'http://chasqui.test';

let clients = 0;
/** A loopback address no other client of this run has used: its own per-address limits. */
export function freshAddress(): string {
  clients += 1;
  return `127.${1 + (process.pid % 200)}.${1 + (Math.floor(clients / 250) % 250)}.${1 + (clients % 250)}`;
}

export interface PeopleWorld {
  s: IssuingStack;
  smtp: SmtpServerHandle;
  /** Two companies of one account (`a.accountToken` is its token) and another account's. */
  a: TestCompany;
  b: TestCompany;
  other: TestCompany;
  /** The API's dependencies as the request handlers get them, with the moved clock. */
  deps: AppDeps;
  /** Moves the API's clock forward (links, lockouts, TOTP and the step-up are judged by it). */
  advance(ms: number): void;
  now(): Date;
}

/** Registers the hooks that build the world before the calling describe's tests and stop it after. */
export function peopleWorld(signInRate: Rate = { limit: 1000, windowSeconds: 300 }): PeopleWorld {
  const world = {} as PeopleWorld;
  let offset = 0;
  world.now = () => new Date(Date.now() + offset);
  world.advance = (ms) => void (offset += ms);
  before(async function () {
    this.timeout(120_000);
    world.smtp = await startSmtpServer();
    const base = testConfig();
    world.s = await startIssuingStack(
      {
        consoleSignInRate: signInRate,
        buyers: { ...base.buyers, smtpUrl: world.smtp.url(), mailFrom: 'consola@chasqui.test', publicUrl: PUBLIC_URL },
      },
      { worker: false, clock: world.now },
    );
    world.a = await newCompany(world.s.stack);
    world.b = await newCompany(world.s.stack, {
      accountToken: { accountId: world.a.accountId, token: world.a.accountToken },
    });
    world.other = await newCompany(world.s.stack);
    world.deps = { ...world.s.stack, clock: world.now };
  });
  after(async () => {
    await world.s?.stop();
    await world.smtp?.close();
  });
  return world;
}

/**
 * The newest mail to `to` carrying a link of `kind` (an invitation or a reset, under CHASQUI_PUBLIC_URL): its text and
 * the link's path. A reset is mailed after the form's answer: this waits for it.
 */
export async function mailedLink(
  world: PeopleWorld,
  to: string,
  kind: 'invitacion' | 'restablecer' = 'invitacion',
): Promise<{ text: string; path: string }> {
  const deadline = Date.now() + 10_000;
  const pattern = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}(/console/${kind}\\?t=[A-Za-z0-9_-]+)`);
  for (;;) {
    const mail = world.smtp.mails.filter((m) => m.recipients.includes(to) && pattern.test(m.parsed.text ?? '')).pop();
    const text = mail?.parsed.text ?? '';
    const link = pattern.exec(text);
    if (link) return { text, path: link[1] };
    expect(Date.now(), `a link mailed to ${to}`).to.be.below(deadline);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The code an authenticator app shows now, by the API's clock. */
export const codeNow = (world: PeopleWorld, secret: string) => totp(secret, world.now().getTime());

/**
 * A browser without a browser: keeps the console's cookies, and fills each form's CSRF token from the last page.
 * Every request comes from `from` (a loopback address of the test's own), so the per-address limits are its own.
 */
export class ConsoleClient {
  private cookies = new Map<string, string>();
  last = '';

  constructor(
    private readonly url: string,
    private readonly from = freshAddress(),
  ) {}

  private async send(method: 'GET' | 'POST', path: string, form?: Record<string, string | string[]>) {
    const body = form
      ? new URLSearchParams(
          Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
        ).toString()
      : undefined;
    const res: Response<string> = await got(`${this.url}${path}`, {
      method,
      body,
      localAddress: this.from,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      throwHttpErrors: false,
      followRedirect: false,
    });
    for (const line of res.headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value) this.cookies.set(pair.slice(0, eq), value);
      else this.cookies.delete(pair.slice(0, eq));
    }
    if (res.statusCode !== 303) this.last = res.body;
    return res;
  }

  get(path: string) {
    return this.send('GET', path);
  }

  /** The last page's CSRF token (its first form's). */
  csrf(): string {
    return /name="csrf" value="([^"]+)"/.exec(this.last)?.[1] ?? '';
  }

  post(path: string, form: Record<string, string | string[]>) {
    return this.send('POST', path, { csrf: this.csrf(), ...form });
  }

  async signInWithToken(token: string) {
    await this.get('/console/login');
    return this.post('/console/login', { token });
  }

  async signIn(email: string, password: string) {
    await this.get('/console/login');
    return this.post('/console/login', { email, password });
  }

  /** The visible text of the last page, tags dropped. */
  text(): string {
    return this.last.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  }
}

/** The owner's actor for changes a test makes through the service functions (as the users page would). */
export const OWNER = { kind: 'console' as const, name: 'propietaria', address: '127.0.0.1' };

/**
 * A user invited through the service (the e-mail really sent) and accepted through its link over HTTP: its password.
 */
export async function addUser(
  world: PeopleWorld,
  email: string,
  role: UserRole,
  companyIds: string[] | null = null,
  accountId = world.a.accountId,
): Promise<string> {
  const invited = await inviteUser(world.deps, accountId, email, { role, companyIds }, OWNER);
  expect(invited.ok, JSON.stringify(invited)).to.equal(true);
  const { path } = await mailedLink(world, email);
  const client = new ConsoleClient(world.s.stack.url);
  expect((await client.get(path)).statusCode).to.equal(200);
  const password = `una frase larga para ${role} ${process.pid}`;
  const accepted = await client.post(path.split('?')[0], { t: path.split('t=')[1], password });
  expect(accepted.statusCode, client.text()).to.equal(303);
  return password;
}
