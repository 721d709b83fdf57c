import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import got from 'got';
import { call, issue, newCompany, payload, startIssuingStack, until, type IssuingStack } from '../issuing/support';
import { httpRequest, MAX_ANSWER_BYTES } from '../../authority/http';
import { pinnedLookup } from '../../core/pinned-lookup';
import https from 'node:https';
import { createWebhookActivities } from '../../activities/webhooks';
import { companyWithWebhook, localTlsCertificate, resolvedDocument } from '../webhooks/support';

/** URLs an account holder might register to reach chasqui's own network or to smuggle options in. */
const HOSTILE_URLS = [
  'https://user:secret@hooks.example.com/x',
  'https://:secret@hooks.example.com/x',
  'http://hooks.example.com/x',
  'file:///etc/passwd',
  'gopher://127.0.0.1:5432/_',
  'javascript:alert(1)',
  'https://127.0.0.1/x',
  'https://localhost/x',
  'https://169.254.169.254/latest/meta-data/',
  'https://2130706433/x',
  'https://0x7f.1/x',
  'https://[::ffff:7f00:1]/x',
  'https://[64:ff9b::a9fe:a9fe]/x',
  'https://[::1]:7233/x',
  'https://10.0.0.5:5432/x',
  'not a url',
];

/** A plain HTTP server on 127.0.0.1 that counts what reaches it. */
async function listener(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end('<ok/>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('security: webhook and OSE URLs (only public https, credentials refused, the checked address pinned)', function () {
  this.timeout(60_000);
  let env: IssuingStack;
  let target: Awaited<ReturnType<typeof listener>>;
  before(async function () {
    this.timeout(120_000);
    env = await startIssuingStack({ webhookAllowPrivate: false });
    target = await listener();
  });
  after(async () => {
    await target?.close();
    await env?.stop();
  });

  it('PATCH /webhook and /ose-credentials refuse every hostile URL with a 422 naming the field, storing nothing', async () => {
    const company = await newCompany(env.stack);
    const patch = (setting: string, json: unknown) =>
      call(env.stack, 'PATCH', `/v1/companies/${company.ruc}/${setting}`, { token: company.accountToken, json });
    for (const url of HOSTILE_URLS) {
      const webhook = await patch('webhook', { url });
      expect(webhook.status, url).to.equal(422);
      expect(webhook.body.errors, url).to.have.property('url');
      const ose = await patch('ose-credentials', { url, user: 'USUARIO1', password: 'clave' });
      expect(ose.status, url).to.equal(422);
      expect(ose.body.errors, url).to.have.property('url');
    }
    const row = await env.stack.db('companies').where({ id: company.row.id }).first();
    expect(row).to.include({ webhook_url: null, ose_url: null, ose_user: null, ose_password_sealed: null });
    expect(target.hits()).to.equal(0);
    // A refusal says what kind of address a name resolves to, never the address: no map of internal names.
    const url = 'https://localhost/x';
    for (const [setting, body] of [
      ['webhook', { url }],
      ['ose-credentials', { url, user: 'USUARIO1', password: 'clave' }],
    ] as const) {
      const res = await patch(setting, body);
      const said = JSON.stringify(res.body);
      expect(said, setting).to.include('localhost resolves to a loopback address');
      expect(said, setting).to.not.match(/127\.0\.0\.1|::1\b/);
    }
  });

  it('a connection goes to the pinned address whatever the name resolves to now (DNS rebinding)', async () => {
    // The name resolves nowhere: the request still reaches the address the check approved.
    const pinned = await httpRequest({
      method: 'GET',
      url: `http://ose.invalid:${target.port}/billService`,
      addresses: ['127.0.0.1'],
    });
    expect(pinned).to.include({ kind: 'response', status: 200 });
    expect(target.hits()).to.equal(1);
    // The name resolves to the listener (localhost), but the check approved another address: it is never used.
    const rebound = await httpRequest({
      method: 'GET',
      url: `http://localhost:${target.port}/billService`,
      addresses: ['127.0.0.2'],
      timeouts: { connectMs: 1_000 },
    });
    expect(rebound.kind).to.equal('connection');
    // Webhook deliveries connect through the same lookup.
    const delivered = await got(`http://hooks.invalid:${target.port}/x`, {
      dnsLookup: pinnedLookup(['127.0.0.1']),
      retry: { limit: 0 },
    });
    expect(delivered.statusCode).to.equal(200);
    expect(target.hits()).to.equal(2);
  });

  it("an answer larger than any authority's is read no further: unknown outcome (maybe received), not a retry", async () => {
    const flood = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent >= 64) res.end();
        else res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    try {
      const outcome = await httpRequest({
        method: 'POST',
        url: `http://127.0.0.1:${(flood.address() as AddressInfo).port}/billService`,
        body: '<x/>',
      });
      expect(outcome).to.deep.equal({
        kind: 'timeout',
        code: 'ANSWER_TOO_LARGE',
        message: `the answer is larger than ${MAX_ANSWER_BYTES} bytes`,
      });
    } finally {
      flood.closeAllConnections();
      await new Promise((resolve) => flood.close(resolve));
    }
  });

  it("a webhook receiver's endless answer is read no further than 64 KB; its status still decides", async () => {
    const tls = localTlsCertificate();
    let written = 0;
    const endless = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
      req.resume();
      res.writeHead(req.url === '/ok' ? 200 : 500, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && written < 1024 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const base = `https://127.0.0.1:${(endless.address() as AddressInfo).port}`;
    const activities = createWebhookActivities({
      config: { ...env.stack.config, webhookAllowPrivate: true, webhookCaFile: tls.certFile },
      db: env.stack.db,
      secrets: env.stack.secrets,
    });
    try {
      for (const [path, expected] of [
        ['/ok', { status: 'delivered', httpStatus: 200, error: null }],
        ['/fails', { status: 'pending', httpStatus: 500, error: 'HTTP 500' }],
      ] as const) {
        const { company } = await companyWithWebhook(env.stack.db, env.stack.secrets, `${base}${path}`);
        const doc = await resolvedDocument(env.stack.db, company);
        const { deliveryId } = (await activities.openWebhookDelivery(doc.id))!;
        written = 0;
        const outcome = await activities.attemptWebhookDelivery(deliveryId, 1);
        expect(outcome, `${path} ${JSON.stringify(outcome)}`).to.include(expected);
        expect(written, path).to.be.below(64 * 1024 * 1024);
      }
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });

  it('an own OSE stored pointing inside (before the check, or a name now private) is refused at send time: nothing connects', async () => {
    const before = target.hits();
    const company = await newCompany(env.stack, {
      settings: {
        destination: 'own_ose',
        ose_url: `https://127.0.0.1:${target.port}/billService`,
        ose_user: 'USUARIO1',
        ose_password_sealed: env.stack.secrets.seal('clave-ose'),
        ose_updated_at: new Date(),
      },
    });
    const issued = await issue(env.stack, company.token, payload('invoice-basic.json', company.ruc));
    expect(issued.status, JSON.stringify(issued.body)).to.equal(202);
    const row = await until(
      env.stack,
      issued.body.external_id,
      ['queued'],
      30_000,
      (r) => r.result?.code === 'TARGET_REFUSED',
    );
    expect(row.result!.message).to.contain('the OSE URL must point to a public address');
    expect(row.result!.message).to.not.contain('clave-ose');
    expect(target.hits()).to.equal(before);
  });
});
