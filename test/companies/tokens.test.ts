import { expect } from 'chai';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually } from '../webhooks/support';
import { call, createCompany, newAccountToken, randomRuc } from './helpers';

/**
 * Issue 42: a company's named signing tokens through the API (account token): listed by name, prefix and last use,
 * never by their secret; revoked at once; rolled with an overlap after which the old one answers 401; each change in
 * the audit log with the secret masked. The spec's POST …/token keeps answering as before.
 */
describe('signing tokens: list, create, revoke, roll', function () {
  let stack: TestStack;
  let account: string;
  let accountId: string;
  let ruc: string;
  before(async function () {
    this.timeout(120_000);
    stack = await startTestStack({ worker: false });
    ({ token: account, accountId } = await newAccountToken(stack));
    ruc = randomRuc();
    await createCompany(stack, account, ruc);
  });
  after(() => stack?.stop());

  const path = (rest = '') => `/v1/companies/${ruc}/tokens${rest}`;
  const create = (name: unknown) => call(stack, 'POST', path(), { token: account, json: { name } });
  const list = async () => (await call(stack, 'GET', path(), { token: account })).body.data.tokens as any[];
  /** A request a signing token authenticates: 200, or the 401 of a token that no longer works. */
  const use = (token: string) => call(stack, 'GET', '/v1/cpe?limit=1', { token });
  const audit = (action: string) =>
    stack.db('audit_log').where({ account_id: accountId, action }).orderBy('id', 'desc');

  it('creates a named token shown once; the list shows its name and prefix, never the secret', async () => {
    const res = await create('  caja 1  ');
    expect(res.status).to.equal(201);
    const { token, signing_token: made } = res.body.data;
    expect(token).to.match(/^chq_sig_/);
    expect(made).to.include({ name: 'caja 1', prefix: token.slice(0, 12), last_used_at: null, expires_at: null });
    const listed = await list();
    expect(listed.find((t) => t.id === made.id)).to.deep.equal(made);
    const answer = JSON.stringify(await call(stack, 'GET', path(), { token: account }));
    expect(answer).to.not.include(token);
    expect(answer).to.not.include(token.slice(12));
    const [row] = await audit('token.create');
    expect(row.changes.token.to).to.equal(`caja 1 (${made.prefix})`);
    expect(JSON.stringify(row.changes)).to.not.include(token.slice(12));
    expect(row.actor_kind).to.equal('account-token');
  });

  it("keeps the spec's POST …/token: the same answer, a token listed without a name", async () => {
    const res = await call(stack, 'POST', `/v1/companies/${ruc}/token`, { token: account });
    expect(res.status).to.equal(201);
    expect(Object.keys(res.body.data)).to.deep.equal(['token', 'token_note']);
    expect(res.body.message).to.equal('Signing token generated');
    const listed = (await list()).find((t) => t.prefix === res.body.data.token.slice(0, 12));
    expect(listed.name).to.equal(null);
    expect((await use(res.body.data.token)).status).to.equal(200);
  });

  it('refuses hostile names with a 422 naming the field, and stores markup as text', async () => {
    for (const name of ['', '   ', 'a'.repeat(61), 'caja\n1', 'caja\u0000', 'x\u202ey', 42, null]) {
      const res = await create(name);
      expect(res.status, JSON.stringify(name)).to.equal(422);
      expect(res.body.errors).to.have.property('name');
    }
    const markup = await create('<b>caja</b>');
    expect(markup.status).to.equal(201);
    expect(markup.body.data.signing_token.name).to.equal('<b>caja</b>');
  });

  it('revokes a token at once: 401 on its next request, gone from the list, a second revoke 404', async () => {
    const { token, signing_token: made } = (await create('revocable')).body.data;
    expect((await use(token)).status).to.equal(200);
    const res = await call(stack, 'DELETE', path(`/${made.id}`), { token: account });
    expect(res.status).to.equal(200);
    const refused = await use(token);
    expect(refused.status).to.equal(401);
    expect(refused.body.message).to.equal('The token has been revoked');
    expect((await list()).map((t) => t.id)).to.not.include(made.id);
    expect((await call(stack, 'DELETE', path(`/${made.id}`), { token: account })).status).to.equal(404);
    expect((await call(stack, 'DELETE', path('/not-an-id'), { token: account })).status).to.equal(404);
    expect((await audit('token.revoke'))[0].changes.token.from).to.equal(`revocable (${made.prefix})`);
  });

  it('rolls a token: both work during the overlap, the old one answers 401 once it has passed', async () => {
    const { token: old, signing_token: made } = (await create('tienda')).body.data;
    const res = await call(stack, 'POST', path(`/${made.id}/roll`), { token: account, json: { expires_in: '1h' } });
    expect(res.status).to.equal(201);
    const { token: next, signing_token: successor, rolled } = res.body.data;
    expect(successor.name).to.equal('tienda');
    expect(rolled.id).to.equal(made.id);
    const hour = new Date(rolled.expires_at).getTime() - Date.now();
    expect(hour).to.be.within(3_590_000, 3_600_000);
    expect((await use(old)).status).to.equal(200);
    expect((await use(next)).status).to.equal(200);
    expect((await list()).find((t) => t.id === made.id).expires_at).to.equal(rolled.expires_at);
    // The hour passes: the expiry is moved to a second ago rather than waited for.
    await stack
      .db('api_tokens')
      .where({ id: made.id })
      .update({ expires_at: stack.db.raw("now() - interval '1 second'") });
    const expired = await use(old);
    expect(expired.status).to.equal(401);
    expect(expired.body.message).to.include('expired');
    expect((await use(next)).status).to.equal(200);
    expect((await list()).map((t) => t.id)).to.not.include(made.id);
    const [row] = await audit('token.roll');
    expect(row.changes.secret).to.deep.equal({ from: '(secreto)', to: '(secreto nuevo)' });
    expect(JSON.stringify(row.changes)).to.not.include(next.slice(12));
  });

  it('rolls without overlap (none): the old token answers 401 at once; a roll never lengthens an expiry', async () => {
    const { token: old, signing_token: made } = (await create('sin solape')).body.data;
    const roll = (id: string, expires_in: unknown) =>
      call(stack, 'POST', path(`/${id}/roll`), { token: account, json: { expires_in } });
    expect((await roll(made.id, '2h')).status).to.equal(422);
    expect((await roll(made.id, 'none')).status).to.equal(201);
    expect((await use(old)).status).to.equal(401);
    const { signing_token: other } = (await create('acortado')).body.data;
    const first = (await roll(other.id, '1h')).body.data.rolled.expires_at;
    const second = (await roll(other.id, '7d')).body.data.rolled.expires_at;
    expect(second).to.equal(first);
  });

  it('records the last use after the answer, at most once a minute per token', async () => {
    const { token, signing_token: made } = (await create('uso')).body.data;
    expect((await use(token)).status).to.equal(200);
    const row = () => stack.db('api_tokens').where({ id: made.id }).first();
    await eventually(async () => ((await row()).last_used_at ? true : undefined));
    expect((await list()).find((t) => t.id === made.id).last_used_at).to.be.a('string');
    // A mark no real use writes: a second use within the minute leaves it, while a fresh token's first use is written.
    const mark = new Date('2000-01-01T00:00:00Z');
    await stack.db('api_tokens').where({ id: made.id }).update({ last_used_at: mark });
    expect((await use(token)).status).to.equal(200);
    const { token: fresh, signing_token: later } = (await create('después')).body.data;
    await use(fresh);
    await eventually(async () =>
      (await stack.db('api_tokens').where({ id: later.id }).first()).last_used_at ? true : undefined,
    );
    expect((await row()).last_used_at.getTime()).to.equal(mark.getTime());
  });

  it("answers another company's token as unknown and another account's company as the API does (403)", async () => {
    const otherRuc = randomRuc();
    await createCompany(stack, account, otherRuc);
    const theirs = (
      await call(stack, 'POST', `/v1/companies/${otherRuc}/tokens`, { token: account, json: { name: 'otra' } })
    ).body.data.signing_token;
    expect((await call(stack, 'DELETE', path(`/${theirs.id}`), { token: account })).status).to.equal(404);
    const stranger = await newAccountToken(stack);
    expect((await call(stack, 'GET', path(), { token: stranger.token })).status).to.equal(403);
    expect((await call(stack, 'POST', path(), { token: stranger.token, json: { name: 'x' } })).status).to.equal(403);
  });
});
