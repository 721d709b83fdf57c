import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { generateTestCertificate } from '../../documents/signing';
import type { SecretBox } from '../../core/secretbox';
import type { Db } from '../../db/knex';
import { createAccount } from '../../db/accounts';
import { insertCompany, type CompanyRow } from '../../db/companies';
import { insertDocument, recordOutcome, type DocumentRow, type RecordedRow } from '../../db/documents';
import { randomRuc } from '../companies/helpers';

export interface TlsFiles {
  certPem: string;
  keyPem: string;
  /** The certificate as a file: the CA chasqui trusts (CHASQUI_WEBHOOK_CA_FILE) and the example receiver's TLS_CERT_FILE. */
  certFile: string;
  keyFile: string;
}

/** A self-signed TLS certificate for 127.0.0.1 and localhost, so receivers are real https endpoints. */
export function localTlsCertificate(): TlsFiles {
  const certificate = generateTestCertificate({
    commonName: 'localhost',
    serverNames: ['localhost', '127.0.0.1'],
    validDays: 1,
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-webhook-tls-'));
  fs.writeFileSync(path.join(dir, 'cert.pem'), certificate.certificatePem);
  fs.writeFileSync(path.join(dir, 'key.pem'), certificate.privateKeyPem);
  return {
    certPem: certificate.certificatePem,
    keyPem: certificate.privateKeyPem,
    certFile: path.join(dir, 'cert.pem'),
    keyFile: path.join(dir, 'key.pem'),
  };
}

export interface ReceivedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

/** What the receiver does with request number n (1-based): answer `status`, after `delayMs`, optionally redirecting. */
export type Script = (n: number) => { status: number; delayMs?: number; location?: string };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A scripted https receiver on 127.0.0.1 that records every request with its raw body. */
export async function startReceiver(tls: TlsFiles, script: Script = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = script(requests.length);
      const timer = setTimeout(
        () => res.writeHead(answer.status, answer.location ? { Location: answer.location } : {}).end('{}'),
        answer.delayMs ?? 0,
      );
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}/hooks/chasqui`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ExampleReceiver {
  url: string;
  /** Notices the example processed, in order (one per X-Entrega). */
  processed: { delivery: string; notice: any }[];
  stop(): void;
}

/** Runs examples/webhook-receiver.js as its own process, exactly as docs/webhooks.md tells integrators to. */
export async function spawnExampleReceiver(tls: TlsFiles, secret: string): Promise<ExampleReceiver> {
  const child: ChildProcess = spawn(process.execPath, [path.resolve(__dirname, '../../examples/webhook-receiver.js')], {
    env: {
      PATH: process.env.PATH,
      CHASQUI_WEBHOOK_SECRET: secret,
      PORT: '0',
      TLS_CERT_FILE: tls.certFile,
      TLS_KEY_FILE: tls.keyFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const processed: ExampleReceiver['processed'] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => processed.push(JSON.parse(line)));
  const port = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /listening on (\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`example receiver exited with ${code}`)));
  });
  return { url: `https://127.0.0.1:${port}/chasqui`, processed, stop: () => void child.kill() };
}

/** Polls until `check` returns a value other than undefined. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An account and a company with a webhook (URL and sealed secret), stored as PATCH /webhook would. */
export async function companyWithWebhook(
  db: Db,
  secrets: SecretBox,
  url: string | null,
): Promise<{ company: CompanyRow; secret: string }> {
  const { account } = await createAccount(db, { name: 'webhooks', quotaUnits: 0 });
  const ruc = randomRuc();
  const { company } = await insertCompany(db, {
    account_id: account.id,
    ruc,
    business_name: `Empresa ${ruc} S.A.C.`,
    plan_type: '01',
    environment: '01',
  });
  const secret = randomBytes(24).toString('hex');
  await db('companies')
    .where({ id: company.id })
    .update({ webhook_url: url, webhook_secret_sealed: url ? secrets.seal(secret) : null });
  return { company, secret };
}

/** A document of the company resolved as accepted (its cpe.resolved event written), without going to an authority. */
export async function resolvedDocument(db: Db, company: CompanyRow, number = 1): Promise<RecordedRow> {
  const doc = await insertDocument(db, {
    account_id: company.account_id,
    company_id: company.id,
    ruc: company.ruc,
    doc_type: '01',
    series: 'F001',
    number,
    filename: `${company.ruc}-01-F001-${number}`,
    issue_date: '2026-11-21',
    currency: 'PEN',
    environment: '01',
    destination: 'tax_authority',
    signed_by: 'provider',
    status: 'queued',
    hash: randomBytes(20).toString('base64'),
    xml: '<Invoice/>',
    totals: null,
    warnings: [],
  });
  return recordOutcome(db, doc.id, {
    status: 'accepted',
    result: {
      code: '0',
      message: 'La Factura numero F001-1, ha sido aceptada',
      errors: [],
      origin: null,
      origin_description: null,
      reached_sunat: true,
      action: null,
    },
    sent: true,
  });
}

/** Every string and decoded payload byte of a workflow history (protobuf's toJSON would hide payloads as base64). */
export function historyText(node: unknown): string {
  if (node instanceof Uint8Array) return Buffer.from(node).toString('utf8');
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object') return Object.values(node).map(historyText).join(' ');
  return '';
}
