import fs from 'node:fs';
import { expect } from 'chai';
import os from 'node:os';
import path from 'node:path';
import { type SimulatorHandle, type SimulatorOptions } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { startTestStack, type TestStack } from '../support/stack';
import type { Lookup } from '../../core/net-guard';
import { testConfig } from '../support/services';
import { checkSchema } from '../support/json-schema';
import { call, createCompany, newAccountToken, randomRuc, type ApiResponse } from '../companies/helpers';
import { findCompany, updateCompany, type CompanyChanges, type CompanyRow } from '../../db/companies';
import { findDocument, type DocumentRow } from '../../db/documents';
import { generateTestCertificate } from '../../documents/signing';
import type { Config } from '../../core/config';
import type { Db } from '../../db/knex';
import type { DocStatus } from '../../workflows/document-types';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');

export interface IssuingStack {
  stack: TestStack;
  sim: SimulatorHandle;
  stop(): Promise<void>;
}

/**
 * The real API, worker, PostgreSQL and Temporal, with the simulator as SUNAT and the provider OSE, a provider
 * certificate for production signing (a PFX file, as CHASQUI_PROVIDER_PFX configures it) and short authority timeouts.
 */
export async function startIssuingStack(
  config: Partial<Config> = {},
  options: {
    worker?: boolean;
    simulator?: Omit<SimulatorOptions, 'port'>;
    lookup?: Lookup;
    clock?: () => Date;
    db?: Db;
  } = {},
): Promise<IssuingStack> {
  // SUNAT judges by the same dated rules as chasqui: a suite that moves them for the stack moves them here too.
  const sim = await startTestSimulator({
    ticketPolls: 1,
    ...(config.rules ? { rules: config.rules } : {}),
    ...options.simulator,
    port: 0,
  });
  const base = testConfig();
  const pfxPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-provider-')), 'provider.pfx');
  fs.writeFileSync(
    pfxPath,
    generateTestCertificate({ ruc: base.providerRuc, commonName: 'TEST PROVIDER' }).pfx('provider-pw'),
  );
  const stack = await startTestStack({
    worker: options.worker,
    lookup: options.lookup,
    clock: options.clock,
    db: options.db,
    config: {
      authority: { ...base.authority, authorityUrl: sim.url },
      authorityTimeouts: { connectMs: 1_000, responseMs: 1_500 },
      providerOseCredentials: { user: 'MODDATOS', password: 'moddatos' },
      ...config,
      issuing: {
        ...base.issuing,
        providerPfxPath: pfxPath,
        providerPfxPassword: 'provider-pw',
        ...(config.issuing ?? {}),
      },
    },
  });
  return {
    stack,
    sim,
    stop: async () => {
      await stack.stop();
      await sim.close();
    },
  };
}

export interface TestCompany {
  accountId: string;
  accountToken: string;
  ruc: string;
  token: string;
  row: CompanyRow;
}

/**
 * A company created through the API (account token → signing token), then given the settings a test needs.
 * Production companies get the simulator's SOL user so their documents can be delivered.
 */
export async function newCompany(
  stack: TestStack,
  options: {
    quota?: number;
    plan?: '01' | '02';
    environment?: '01' | '02';
    settings?: CompanyChanges;
    accountToken?: { accountId: string; token: string };
  } = {},
): Promise<TestCompany> {
  const account = options.accountToken ?? (await newAccountToken(stack, options.quota ?? 0));
  const ruc = randomRuc();
  const token = await createCompany(stack, account.token, ruc, {
    plan_type: options.plan ?? '01',
    environment: options.environment ?? '01',
  });
  let row = (await findCompany(stack.db, account.accountId, ruc))!;
  const settings: CompanyChanges = { ...options.settings };
  if (options.environment === '02')
    Object.assign(settings, { sol_user: 'MODDATOS', sol_password_sealed: stack.secrets.seal('moddatos') });
  if (Object.keys(settings).length) row = await updateCompany(stack.db, row.id, settings);
  return { accountId: account.accountId, accountToken: account.token, ruc, token, row };
}

let correlative = Math.floor(Date.now() / 1000) % 1_000_000;

/** A fixture payload issued by `ruc`, with a fresh correlative unless one is given. */
export function payload(fixture: string, ruc: string, changes: Record<string, unknown> = {}): Record<string, any> {
  const doc = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture), 'utf8'));
  doc.emisor.ruc = ruc;
  // Summaries number their day's sequence with at most 5 digits.
  if (doc.correlativo !== undefined)
    doc.correlativo = String(/^r[acr]$/.test(doc.tipoDoc) ? (++correlative % 99_999) + 1 : ++correlative);
  return { ...doc, ...changes };
}

export function issue(
  stack: TestStack,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return call(stack, 'POST', '/v1/cpe', { token, json: body, headers });
}

/** Polls the documents row (the source of truth) until it reaches one of `statuses` (and `also` holds). */
export async function until(
  stack: TestStack,
  id: string,
  statuses: DocStatus[],
  ms = 30_000,
  also: (row: DocumentRow) => boolean = () => true,
): Promise<DocumentRow> {
  const deadline = Date.now() + ms;
  for (;;) {
    const doc = (await findDocument(stack.db, id))!;
    if (statuses.includes(doc.status) && also(doc)) return doc;
    if (Date.now() > deadline)
      throw new Error(`document stayed ${doc.status} (${JSON.stringify(doc.result)}), expected ${statuses.join('/')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function accountBalances(
  stack: TestStack,
  accountId: string,
): Promise<{ quota: number; osePackage: number }> {
  const row = await stack.db('accounts').where({ id: accountId }).first('quota_units', 'ose_package_units');
  return { quota: Number(row.quota_units), osePackage: Number(row.ose_package_units) };
}

export async function documentCount(stack: TestStack, companyId: string): Promise<number> {
  const [{ count }] = await stack.db('documents').where({ company_id: companyId }).count('* as count');
  return Number(count);
}

export { call };

/** Checks a real response against what /v1/openapi.json documents for `operation` ("POST /v1/cpe") and its status. */
export async function expectDocumented(stack: TestStack, operation: string, res: ApiResponse): Promise<void> {
  const doc = (await call(stack, 'GET', '/v1/openapi.json')).body;
  const [method, route] = operation.split(' ');
  const documented = doc.paths[route]?.[method.toLowerCase()]?.responses?.[String(res.status)];
  expect(documented, `${operation} ${res.status} is documented`).to.not.equal(undefined);
  expect(
    checkSchema(documented.content['application/json'].schema, res.body, doc),
    `${operation} ${res.status}: ${JSON.stringify(res.body)}`,
  ).to.deep.equal([]);
}
