/**
 * Issue 43's attack surfaces (docs/security.md, "People"): passwords, the sign-in's limits and lockout, one-time links,
 * TOTP and recovery codes, role checks and company limits, and what the audit log records of them. Real PostgreSQL,
 * the real API over HTTP, a real SMTP server; the API's clock is moved instead of waited for.
 */
import { expect } from 'chai';
import got from 'got';
import jsQR from 'jsqr';
import { ConsoleClient, addUser, codeNow, mailedLink, OWNER, peopleWorld } from '../console/people';
import { hotp, matchTotp, totpStep, base32Encode } from '../../core/totp';
import { LOCKOUT } from '../../db/users';
import { listAudit } from '../../db/audit';
import { changeUser } from '../../api/console/people/service';
import { issue, payload } from '../issuing/support';
import { panelCompany } from '../../api/console/panel/frame';

/** The text of the page's inline SVG QR: its squares painted 4 px a module, read by jsQR. */
function readSvgQr(page: string): string | null {
  const size = Number(/<svg class="qr"[^>]*viewBox="0 0 (\d+) \1"/.exec(page)![1]);
  const scale = 4;
  const width = size * scale;
  const rgba = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y] of /<path d="([^"]+)"/.exec(page)![1].matchAll(/M(\d+) (\d+)h1v1h-1z/g))
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < scale; dx++) {
        const at = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        rgba.fill(0, at, at + 3);
      }
  return jsQR(rgba, width, width)?.data ?? null;
}

describe('security: people of an account (issue 43)', function () {
  this.timeout(120_000);
  const world = peopleWorld({ limit: 8, windowSeconds: 300 });
  const user = (name: string) => `${name}.${process.pid}@people.test`;

  it("TOTP is RFC 6238's: its test vectors, one step of drift, and no code used twice", () => {
    // RFC 6238 appendix B, SHA-1, 8 digits, key "12345678901234567890".
    const key = Buffer.from('12345678901234567890');
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors)
      expect(hotp(key, totpStep(seconds * 1000), 8), `T=${seconds}`).to.equal(code);
    const secret = base32Encode(key);
    const at = 1111111111_000;
    const now = hotp(key, totpStep(at)).slice(-6);
    expect(matchTotp(secret, hotp(key, totpStep(at)), at, null)).to.equal(totpStep(at));
    expect(matchTotp(secret, hotp(key, totpStep(at) - 1n), at, null), 'previous step').to.equal(totpStep(at) - 1n);
    expect(matchTotp(secret, hotp(key, totpStep(at) - 2n), at, null), 'two steps old').to.equal(null);
    expect(matchTotp(secret, hotp(key, totpStep(at)), at, totpStep(at)), 'used already').to.equal(null);
    expect(now).to.have.length(6);
  });

  it('stores an scrypt hash with its parameters, never the password', async () => {
    const email = user('hash');
    const password = await addUser(world, email, 'contador');
    const row = await world.s.stack.db('account_users').where({ email }).first();
    expect(row.password_hash).to.match(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(row.password_hash).to.not.include(password);
  });

  it('brute force with a new X-Forwarded-For each time still reaches 429, the right password included', async () => {
    const email = user('brute');
    const password = await addUser(world, email, 'emisor');
    const client = new ConsoleClient(world.s.stack.url);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      await client.get('/console/login');
      const res = await client.post('/console/login', { email, password: `adivinanza ${i}` });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 401)).to.have.length.at.most(8);
    expect(statuses.slice(-2)).to.deep.equal([429, 429]);
    await client.get('/console/login');
    expect((await client.post('/console/login', { email, password })).statusCode).to.equal(429);
  });

  it('locks a user after repeated failures for a capped time, and a locked-out user can still reset', async () => {
    const email = user('lock');
    const password = await addUser(world, email, 'emisor');
    const attempt = async (pw: string) => {
      const client = new ConsoleClient(world.s.stack.url);
      return { res: await client.signIn(email, pw), client };
    };
    for (let i = 0; i < LOCKOUT.after; i++) expect((await attempt('no es esta')).res.statusCode).to.equal(401);
    const locked = await attempt(password);
    expect(locked.res.statusCode).to.equal(429);
    expect(locked.client.text()).to.include('Usuario bloqueado por intentos fallidos');
    // However many more failures, the lock never outlasts its cap.
    for (let i = 0; i < 6; i++) await attempt('tampoco');
    const row = await world.s.stack.db('account_users').where({ email }).first();
    expect(row.locked_until.getTime() - world.now().getTime()).to.be.at.most(LOCKOUT.capSeconds * 1000 + 5_000);
    // The reset works while locked, and the new password opens at once.
    const client = new ConsoleClient(world.s.stack.url);
    await client.get('/console/olvido');
    expect((await client.post('/console/olvido', { email })).statusCode).to.equal(200);
    const { path } = await mailedLink(world, email, 'restablecer');
    await client.get(path);
    const fresh = `otra frase nueva ${process.pid}`;
    expect(
      (await client.post('/console/restablecer', { t: path.split('t=')[1], password: fresh })).statusCode,
    ).to.equal(303);
    expect((await attempt(fresh)).res.statusCode).to.equal(303);
  });

  it('a reset link works once, expires, and ends the sessions open before it', async () => {
    const email = user('reset');
    const password = await addUser(world, email, 'contador');
    const before = new ConsoleClient(world.s.stack.url);
    expect((await before.signIn(email, password)).statusCode).to.equal(303);
    expect((await before.get('/console/documents')).statusCode).to.equal(200);
    const client = new ConsoleClient(world.s.stack.url);
    await client.get('/console/olvido');
    await client.post('/console/olvido', { email });
    const { path, text } = await mailedLink(world, email, 'restablecer');
    expect(text).to.include('Sirve una sola vez');
    const secret = path.split('t=')[1];
    await client.get(path);
    expect(
      (await client.post('/console/restablecer', { t: secret, password: `nueva frase ${process.pid}` })).statusCode,
    ).to.equal(303);
    expect((await before.get('/console/documents')).statusCode, 'the old session').to.equal(401);
    expect((await client.get(path)).statusCode, 'reused').to.equal(410);
    expect(client.text()).to.include('ya se usó');
    // Another link, past its 30 minutes by the API's clock.
    world.smtp.mails.length = 0;
    await client.get('/console/olvido');
    await client.post('/console/olvido', { email });
    const late = await mailedLink(world, email, 'restablecer');
    world.advance(31 * 60_000);
    expect((await client.get(late.path)).statusCode, 'expired').to.equal(410);
    expect(client.text()).to.include('venció');
    // Posted from another page's form (the expired one has none): refused all the same, nothing set.
    await client.get('/console/olvido');
    const posted = await client.post('/console/restablecer', {
      t: late.path.split('t=')[1],
      password: 'una frase cualquiera larga',
    });
    expect(posted.statusCode).to.equal(410);
    expect(client.text()).to.include('venció');
  });

  it('an unknown address is answered as a known one on the reset form', async () => {
    const client = new ConsoleClient(world.s.stack.url);
    await client.get('/console/olvido');
    const res = await client.post('/console/olvido', { email: user('nadie') });
    expect(res.statusCode).to.equal(200);
    expect(client.text()).to.include('Si esa dirección tiene un usuario');
  });

  it('refuses each role what it may not do with 403 naming the role, and changes nothing', async () => {
    const roles = ['administrator', 'emisor', 'contador', 'desarrollador'] as const;
    for (const role of roles) {
      const email = user(`rol-${role}`);
      const password = await addUser(world, email, role);
      const client = new ConsoleClient(world.s.stack.url);
      expect((await client.signIn(email, password)).statusCode).to.equal(303);
      const count = async () =>
        (await world.s.stack.db('account_users').where({ account_id: world.a.accountId })).length;
      const users = await count();
      expect((await client.get('/console/users')).statusCode, role).to.equal(403);
      expect(client.text()).to.include('necesita el rol propietario');
      await client.get('/console/documents');
      const posted = await client.post('/console/users', { email: user(`intruso-${role}`), role: 'owner' });
      expect(posted.statusCode, role).to.equal(403);
      expect(await count()).to.equal(users);
      const audit = await client.get('/console/audit');
      expect(audit.statusCode, role).to.equal(role === 'administrator' ? 200 : 403);
      if (role !== 'administrator') expect(client.text()).to.include('necesita el rol propietario o administrador');
    }
  });

  it('a contador limited to one company sees nothing of another: 404 for its pages and documents', async () => {
    const email = user('limitado');
    const password = await addUser(world, email, 'contador', [world.a.row.id]);
    const client = new ConsoleClient(world.s.stack.url);
    expect((await client.signIn(email, password)).statusCode).to.equal(303);
    expect((await client.get(`/console/companies/${world.b.ruc}`)).statusCode).to.equal(404);
    // The panel's one door to a company (every tab's page goes through it): B is not there for this session.
    const row = await world.s.stack.db('account_users').where({ email }).first();
    const session = {
      idHash: 'x',
      csrf: 'x',
      pending: null,
      secondFactorAt: null,
      principal: {
        kind: 'user' as const,
        name: email,
        accountId: world.a.accountId,
        userId: row.id,
        role: row.role,
        companyIds: row.company_ids,
      },
    };
    expect((await panelCompany(world.deps, session, world.a.ruc))?.id).to.equal(world.a.row.id);
    expect(await panelCompany(world.deps, session, world.b.ruc)).to.equal(null);
    expect((await client.get(`/console/companies/${world.other.ruc}`)).statusCode).to.equal(404);
    await client.get('/console/companies');
    expect(client.text()).to.include(world.a.ruc);
    expect(client.text()).to.not.include(world.b.ruc);
    const docB = await issue(world.s.stack, world.b.token, payload('invoice-basic.json', world.b.ruc));
    expect(docB.status).to.equal(202);
    expect((await client.get(`/console/documents/${docB.body.external_id}`)).statusCode).to.equal(404);
    await client.get(`/console/documents?ruc=${world.b.ruc}`);
    expect(client.text()).to.not.include(docB.body.filename);
    // A's document it reads, and may not act on: a contador changes nothing.
    const docA = await issue(world.s.stack, world.a.token, payload('invoice-basic.json', world.a.ruc));
    expect((await client.get(`/console/documents/${docA.body.external_id}`)).statusCode).to.equal(200);
    expect((await client.get(`/console/documents/${docA.body.external_id}/acciones/resend`)).statusCode).to.equal(403);
    expect(client.text()).to.include('necesita el rol propietario, administrador o emisor');
    const acted = await client.post(`/console/documents/${docA.body.external_id}/acciones/resend`, {});
    expect(acted.statusCode).to.equal(403);
    expect(await world.s.stack.db('support_actions').where({ document_id: docA.body.external_id })).to.deep.equal([]);
    // An administrator limited to A reads A's audit rows, and of B's nothing.
    const admin = user('admin-limitado');
    const adminClient = new ConsoleClient(world.s.stack.url);
    await adminClient.signIn(admin, await addUser(world, admin, 'administrator', [world.a.row.id]));
    expect((await adminClient.get('/console/audit')).statusCode).to.equal(200);
    expect((await adminClient.get(`/console/audit?empresa=${world.b.ruc}`)).statusCode).to.equal(404);
    expect((await adminClient.get('/console/users')).statusCode, 'users: the whole account only').to.equal(403);
  });

  it('a second factor is asked at sign-in, again before a change past the step-up, and a recovery code works once', async () => {
    const email = user('duena');
    const password = await addUser(world, email, 'owner');
    const client = new ConsoleClient(world.s.stack.url);
    expect((await client.signIn(email, password)).headers.location).to.equal('/console/documents');
    await client.get('/console/2fa/alta');
    const sealed = /name="clave" value="([^"]+)"/.exec(client.last)![1];
    const secret = /<code class="secret">([A-Z2-7]+)<\/code>/.exec(client.last)![1];
    // The QR drawn in the page reads back (jsQR) as the otpauth URI of that secret.
    expect(readSvgQr(client.last)).to.equal(
      `otpauth://totp/chasqui:${encodeURIComponent(email)}?secret=${secret}&issuer=chasqui&algorithm=SHA1&digits=6&period=30`,
    );
    expect((await client.post('/console/2fa/alta', { clave: sealed, code: '000000' })).statusCode).to.equal(400);
    expect(
      (await client.post('/console/2fa/alta', { clave: sealed, code: codeNow(world, secret) })).statusCode,
    ).to.equal(200);
    const codes = [...client.last.matchAll(/<code>([0-9a-f]{5}-[0-9a-f]{5})<\/code>/g)].map((m) => m[1]);
    expect(codes).to.have.length(10);
    const row = await world.s.stack.db('account_users').where({ email }).first();
    expect(row.totp_secret_sealed).to.not.include(secret);
    // The step-up: six minutes later, a change on the users page asks for the code first and changes nothing.
    world.advance(6 * 60_000);
    await client.get('/console/users');
    const asked = await client.post('/console/users', { email: user('nueva'), role: 'contador' });
    expect(asked.statusCode).to.equal(303);
    expect(asked.headers.location).to.equal('/console/2fa?volver=%2Fconsole%2Fusers');
    expect(await world.s.stack.db('account_users').where({ email: user('nueva') })).to.have.length(0);
    // Signing in again asks for the code; a recovery code works once, then never again.
    const second = new ConsoleClient(world.s.stack.url);
    expect((await second.signIn(email, password)).headers.location).to.equal('/console/2fa');
    expect((await second.get('/console/documents')).headers.location, 'nothing before the code').to.equal(
      '/console/2fa',
    );
    await second.get('/console/2fa');
    expect((await second.post('/console/2fa', { code: codes[0] })).headers.location).to.equal('/console/documents');
    const third = new ConsoleClient(world.s.stack.url);
    await third.signIn(email, password);
    await third.get('/console/2fa');
    expect((await third.post('/console/2fa', { code: codes[0] })).statusCode, 'recovery code reused').to.equal(401);
    expect((await third.post('/console/2fa', { code: codeNow(world, secret) })).statusCode).to.equal(303);
    expect(
      (await third.post('/console/2fa', { code: codeNow(world, secret) })).statusCode,
      'TOTP replayed',
    ).to.not.equal(303);
  });

  it('the owner takes away a lost second factor, and can close the console to the account token', async () => {
    const email = user('perdida');
    const password = await addUser(world, email, 'emisor');
    const phone = new ConsoleClient(world.s.stack.url);
    await phone.signIn(email, password);
    await phone.get('/console/2fa/alta');
    const secret = /<code class="secret">([A-Z2-7]+)<\/code>/.exec(phone.last)![1];
    const sealed = /name="clave" value="([^"]+)"/.exec(phone.last)![1];
    expect(
      (await phone.post('/console/2fa/alta', { clave: sealed, code: codeNow(world, secret) })).statusCode,
    ).to.equal(200);
    const row = await world.s.stack.db('account_users').where({ email }).first();
    const token = new ConsoleClient(world.s.stack.url);
    expect((await token.signInWithToken(world.a.accountToken)).statusCode).to.equal(303);
    await token.get(`/console/users/${row.id}`);
    const reset = await token.post(`/console/users/${row.id}/segundo-factor`, {});
    expect(reset.headers.location).to.equal('/console/users?hecho=segundo-factor');
    expect((await phone.get('/console/documents')).statusCode, 'its sessions end').to.equal(401);
    const after = await world.s.stack.db('account_users').where({ email }).first();
    expect([after.totp_secret_sealed, after.totp_enabled_at]).to.deep.equal([null, null]);
    expect(await world.s.stack.db('user_recovery_codes').where({ user_id: row.id })).to.deep.equal([]);
    // The console closed to the token (an owner user has accepted, so the account keeps a way in): its open session
    // ends and a new sign-in is refused, saying why.
    await addUser(world, user('otra-duena'), 'owner');
    await token.get('/console/users');
    expect((await token.post('/console/users/ajustes', { require_two_factor: '0' })).statusCode).to.equal(303);
    expect((await token.get('/console/documents')).statusCode).to.equal(401);
    expect((await token.signInWithToken(world.a.accountToken)).statusCode).to.equal(401);
    expect(token.text()).to.include('desactivó el acceso con el token de cuenta');
    const actions = (await listAudit(world.s.stack.db, { accountId: world.a.accountId, limit: 20 })).map(
      (r) => r.action,
    );
    expect(actions).to.include.members(['user.totp_reset', 'account.people', 'account.sign_in']);
    await world.s.stack.db('accounts').where({ id: world.a.accountId }).update({ token_console: true });
  });

  it('records who changed what, secrets masked, and a change of role', async () => {
    const email = user('auditado');
    const password = await addUser(world, email, 'emisor');
    const target = await world.s.stack.db('account_users').where({ email }).first();
    expect(
      (await changeUser(world.deps, world.a.accountId, target.id, { role: 'contador', companyIds: null }, OWNER)).ok,
    ).to.equal(true);
    const rows = await listAudit(world.s.stack.db, { accountId: world.a.accountId, limit: 500 });
    const mine = rows.filter((r) => JSON.stringify(r.changes).includes(email) || r.actor === email);
    const actions = mine.map((r) => r.action);
    expect(actions).to.include.members(['user.invite', 'user.accept', 'user.role']);
    const accepted = mine.find((r) => r.action === 'user.accept')!;
    expect(accepted.actor_kind).to.equal('user');
    expect(accepted.changes.password).to.deep.equal({ from: null, to: '(secreto nuevo)' });
    expect(JSON.stringify(rows)).to.not.include(password);
    const role = mine.find((r) => r.action === 'user.role')!;
    expect(role.actor).to.equal(OWNER.name);
    expect(role.changes.role).to.deep.equal({ from: 'emisor', to: 'contador' });
  });
});

describe('security: GET /v1/account/audit (issue 43)', function () {
  this.timeout(120_000);
  const world = peopleWorld();

  it('reads the account’s own log a page at a time with the account token, nothing with another token', async () => {
    const { url } = world.s.stack;
    const email = `api.${process.pid}@people.test`;
    await addUser(world, email, 'contador', [world.a.row.id]);
    const get = (token: string, query = '') =>
      got(`${url}/v1/account/audit${query}`, {
        headers: { authorization: `Bearer ${token}` },
        throwHttpErrors: false,
        responseType: 'json',
      }) as Promise<{ statusCode: number; body: any }>;
    const first = await get(world.a.accountToken, '?limit=1');
    expect(first.statusCode).to.equal(200);
    expect(first.body.data.entries).to.have.length(1);
    expect(first.body.data.entries[0].action).to.equal('user.accept');
    expect(first.body.data.entries[0].actor).to.include({ kind: 'user', name: email });
    expect(first.body.data.entries[0].changes.password.to).to.equal('(secreto nuevo)');
    const next = await get(world.a.accountToken, `?limit=1&before=${first.body.data.next_before}`);
    expect(next.body.data.entries[0].action).to.equal('user.invite');
    expect(next.body.data.entries[0].changes.companies.to).to.deep.equal([world.a.ruc]);
    expect((await get(world.a.token)).statusCode, 'a company token').to.equal(403);
    // Another account's token reads its own log (its company's creation) and nothing of this account's.
    const theirs = (await get(world.other.accountToken)).body.data.entries;
    const ownRows = await listAudit(world.s.stack.db, { accountId: world.other.accountId, limit: 100 });
    expect(
      theirs.map((e: { action: string }) => e.action),
      'another account',
    ).to.deep.equal(ownRows.map((r) => r.action));
    expect(JSON.stringify(theirs), 'another account').to.not.include(email).and.not.include(world.a.ruc);
    // Another account's RUC: the API's usual 403 (docs/security.md, ids in API paths).
    expect((await get(world.a.accountToken, `?ruc=${world.other.ruc}`)).statusCode).to.equal(403);
    expect((await get(world.a.accountToken, '?before=x')).statusCode).to.equal(422);
  });
});
