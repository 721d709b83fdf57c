import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import got from 'got';
import {
  call,
  issue,
  newCompany,
  payload,
  startIssuingStack,
  until,
  type IssuingStack,
  type TestCompany,
} from '../issuing/support';
import { randomRuc } from '../companies/helpers';
import { testConfig } from '../support/services';
import { testPng } from '../support/pdf-tools';
import { signedFilePath, type FileKind } from '../../buyers/links';
import { openConsoleSession } from '../../db/console-sessions';
import { openOriginalDelivery } from '../../db/webhooks';
import { SESSION_COOKIE } from '../../api/console/session';
import { openApiDocument } from '../../api/openapi';
import type { DocumentRow } from '../../db/documents';

/**
 * Issue 40: what the API and the buyers' page hand out. /consulta's file links are limited per client address and per
 * document (each PDF is rendered), every answer says `nosniff`, and an id of another company's (or account's)
 * resource answers exactly as an unknown one on every path that takes one.
 */
describe('security: downloads and ids (issue 40): /consulta file limits, nosniff, 403 and 404 by the spec', function () {
  this.timeout(120_000);
  const PER_ADDRESS = 4;
  const PER_DOCUMENT = 8;
  let env: IssuingStack;
  let mine: TestCompany;
  let theirs: TestCompany;
  let accepted: DocumentRow;
  let queued: string[];
  // Addresses of this run's own: the rate logs live in the run's shared database.
  const address = (n: number) => `10.${1 + (process.pid % 250)}.${n}.${1 + (Date.now() % 250)}`;

  before(async function () {
    this.timeout(180_000);
    const base = testConfig();
    env = await startIssuingStack({
      // As behind the production proxy: the address it appended is the client's, whatever the client wrote before it.
      trustProxy: 1,
      buyers: {
        ...base.buyers,
        consultaDownloadRate: { limit: PER_ADDRESS, windowSeconds: 60 },
        consultaDocumentRate: { limit: PER_DOCUMENT, windowSeconds: 60 },
      },
    });
    mine = await newCompany(env.stack);
    theirs = await newCompany(env.stack);
    const issued = await issue(env.stack, mine.token, payload('invoice-basic.json', mine.ruc));
    accepted = await until(env.stack, issued.body.external_id, ['accepted']);
    queued = [];
    for (const n of [2, 3]) {
      const body = { ...payload('invoice-basic.json', mine.ruc), correlativo: String(1000 + n) };
      queued.push((await issue(env.stack, mine.token, body)).body.external_id);
    }
  });
  after(() => env?.stop());

  /** A /consulta file link fetched as the proxy would forward it from `client` (the client wrote `spoof` before). */
  const consultaFile = (path: string, client: string, spoof = '192.0.2.1') =>
    got(`${env.stack.url}${path}`, {
      headers: { 'X-Forwarded-For': `${spoof}, ${client}` },
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'buffer',
    });

  describe('/consulta/archivo/… links', () => {
    it('per client address: past the limit a 429 with Retry-After, whatever X-Forwarded-For the client writes', async () => {
      const link = signedFilePath(env.stack.secrets, queued[0], 'xml');
      const client = address(1);
      const statuses: number[] = [];
      for (let i = 0; i < PER_ADDRESS + 2; i++)
        statuses.push((await consultaFile(link, client, `203.0.113.${i + 1}`)).statusCode);
      expect(statuses).to.deep.equal([...Array(PER_ADDRESS).fill(200), 429, 429]);
      const refused = await consultaFile(link, client);
      expect(refused.statusCode).to.equal(429);
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
      expect(refused.headers['content-type']).to.match(/^text\/html/);
      expect(refused.body.toString()).to.contain('Demasiadas descargas desde su conexión');
      // Invalid links count too (guessing costs requests); another client has its own count.
      const guesser = address(2);
      for (let i = 0; i < PER_ADDRESS; i++)
        expect((await consultaFile(`${link.replace(/firma=[^&]+/, 'firma=x')}`, guesser)).statusCode).to.equal(404);
      expect((await consultaFile(link, guesser)).statusCode).to.equal(429);
      expect((await consultaFile(link, address(3))).statusCode).to.equal(200);
    });

    it('per document: from many addresses together, past the limit a 429 with Retry-After; other documents still served', async () => {
      const link = signedFilePath(env.stack.secrets, queued[1], 'xml');
      const statuses: number[] = [];
      for (let i = 0; i < PER_DOCUMENT + 1; i++) statuses.push((await consultaFile(link, address(10 + i))).statusCode);
      expect(statuses).to.deep.equal([...Array(PER_DOCUMENT).fill(200), 429]);
      const refused = await consultaFile(link, address(30));
      expect(refused.statusCode).to.equal(429);
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
      expect(refused.body.toString()).to.contain('Este comprobante se descargó muchas veces');
      const other = signedFilePath(env.stack.secrets, queued[0], 'xml');
      expect((await consultaFile(other, address(31))).statusCode).to.equal(200);
    });
  });

  it('every download answers X-Content-Type-Options: nosniff (API, logo, console, /consulta), as does every answer', async () => {
    const { id } = accepted;
    const session = await openConsoleSession(env.stack.db, {
      kind: 'account',
      name: 'cuenta de prueba',
      accountId: mine.accountId,
      apiTokenId: (await env.stack.db('api_tokens').where({ account_id: mine.accountId }).first('id')).id,
    });
    expect(
      (
        await call(env.stack, 'PUT', `/v1/companies/${mine.ruc}/logo`, {
          token: mine.accountToken,
          body: testPng(200, 80),
          headers: { 'Content-Type': 'image/png' },
        })
      ).status,
    ).to.equal(200);
    const get = (path: string, headers: Record<string, string>) =>
      got(`${env.stack.url}${path}`, { headers, throwHttpErrors: false, retry: { limit: 0 }, responseType: 'buffer' });
    const api = { Authorization: `Bearer ${mine.token}` };
    const downloads: [string, Promise<{ statusCode: number; headers: Record<string, unknown> }>][] = [];
    for (const kind of ['xml', 'cdr', 'pdf'] as FileKind[]) {
      downloads.push([`API ${kind}`, get(`/v1/cpe/${id}/${kind}`, api)]);
      downloads.push([
        `console ${kind}`,
        get(`/console/documents/${id}/${kind}`, { Cookie: `${SESSION_COOKIE}=${session.id}` }),
      ]);
      downloads.push([`/consulta ${kind}`, consultaFile(signedFilePath(env.stack.secrets, id, kind), address(40))]);
    }
    downloads.push(['logo', get(`/v1/companies/${mine.ruc}/logo`, { Authorization: `Bearer ${mine.accountToken}` })]);
    for (const [name, answer] of downloads) {
      const res = await answer;
      expect(res.statusCode, name).to.equal(200);
      expect(res.headers['x-content-type-options'], name).to.equal('nosniff');
    }
    for (const [name, res] of [
      ['JSON', await get(`/v1/cpe/${id}`, api)],
      ['an error', await get(`/v1/cpe/${id}`, {})],
      ['no route', await get('/nowhere', {})],
    ] as const)
      expect(res.headers['x-content-type-options'], name).to.equal('nosniff');
  });

  // Spec §3 and §5: a resource of another company or account is a 403, an unknown one a 404. Every path that takes an
  // id answers so (issue 40 asked for one 404 for both; the contract keeps the 403).
  describe("an id of another company or account answers the spec's 403 on every path, an unknown one 404", () => {
    /** Every operation of the OpenAPI document whose path takes `param`, with its method. */
    const operations = (param: string) =>
      Object.entries(openApiDocument().paths as Record<string, Record<string, { security?: unknown }>>)
        .filter(([path]) => path.startsWith('/v1/') && path.includes(`{${param}}`))
        .flatMap(([path, ops]) =>
          Object.keys(ops)
            .filter((method) => method !== 'parameters')
            .map((method) => [method.toUpperCase() as 'GET', path] as const),
        );
    /** The foreign id's answer (its status given) and the unknown id's 404, both the error envelope naming no row. */
    async function expectSame(
      label: string,
      request: (value: string) => Promise<{ status: number; body: unknown; headers: Record<string, unknown> }>,
      foreign: string,
      unknown: string,
      foreignStatus = 403,
    ) {
      const [a, b] = [await request(foreign), await request(unknown)];
      expect(a.status, label).to.equal(foreignStatus);
      expect(b.status, label).to.equal(404);
      for (const res of [a, b]) {
        expect(res.body, label).to.include({ success: false });
        expect(JSON.stringify(res.body), label).to.not.match(/company_id|account_id|stack/);
      }
      expect(a.headers['content-type'], label).to.equal(b.headers['content-type']);
    }
    const body = (method: string) => (method === 'GET' || method === 'DELETE' ? {} : { json: {} });

    it('every /v1/cpe/{external_id} operation, with a company token', async () => {
      const paths = operations('external_id');
      expect(paths.map(([m, p]) => `${m} ${p}`)).to.include.members([
        'GET /v1/cpe/{external_id}',
        'GET /v1/cpe/{external_id}/xml',
        'GET /v1/cpe/{external_id}/cdr',
        'GET /v1/cpe/{external_id}/pdf',
        'POST /v1/cpe/{external_id}/send',
        'POST /v1/cpe/{external_id}/resend',
        'POST /v1/cpe/{external_id}/email',
        'POST /v1/cpe/{external_id}/void',
        'GET /v1/cpe/{external_id}/void',
      ]);
      for (const [method, path] of paths)
        await expectSame(
          `${method} ${path}`,
          (id) => call(env.stack, method, path.replace('{external_id}', id), { token: theirs.token, ...body(method) }),
          accepted.id,
          randomUUID(),
        );
      // Nothing was done to the document.
      expect((await call(env.stack, 'GET', `/v1/cpe/${accepted.id}/void`, { token: mine.token })).status).to.equal(404);
    });

    it('every /v1/companies/{ruc} operation and GET /v1/cpe?ruc=, with another account token', async () => {
      const paths = operations('ruc');
      expect(paths.length).to.be.above(25);
      for (const [method, path] of paths)
        await expectSame(
          `${method} ${path}`,
          (ruc) =>
            call(env.stack, method, path.replace('{ruc}', ruc).replace('{id}', randomUUID()), {
              token: theirs.accountToken,
              ...body(method),
            }),
          mine.ruc,
          randomRuc(),
        );
      await expectSame(
        'GET /v1/cpe?ruc=',
        (ruc) => call(env.stack, 'GET', `/v1/cpe?ruc=${ruc}`, { token: theirs.accountToken }),
        mine.ruc,
        randomRuc(),
      );
      // The DELETE and the PATCHes did nothing to the company.
      const still = await call(env.stack, 'GET', `/v1/companies/${mine.ruc}`, { token: mine.accountToken });
      expect(still.status).to.equal(200);
      expect(still.body.data.company.ruc).to.equal(mine.ruc);
    });

    it("a webhook delivery of another company, under the caller's own RUC", async () => {
      const delivery = await openOriginalDelivery(env.stack.db, accepted, 'cpe.resolved');
      for (const [method, path] of operations('id'))
        await expectSame(
          `${method} ${path}`,
          (id) =>
            call(env.stack, method, path.replace('{ruc}', theirs.ruc).replace('{id}', id), {
              token: theirs.accountToken,
              ...body(method),
            }),
          delivery.id,
          randomUUID(),
          404,
        );
    });
  });
});
