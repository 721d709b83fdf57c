import { randomInt } from 'node:crypto';
import got, { type Method } from 'got';
import type { TestStack } from '../support/stack';
import { createAccount } from '../../db/accounts';

/** A random RUC with a valid check digit (prefix 20, a company). */
export function randomRuc(prefix = '20'): string {
  const body = prefix + String(randomInt(0, 100_000_000)).padStart(8, '0');
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const total = [...body].reduce((sum, digit, i) => sum + Number(digit) * weights[i], 0);
  return body + String((11 - (total % 11)) % 10);
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One HTTP call to the stack's API; `json` sends a JSON body, `body` raw bytes (multipart). */
export async function call(
  stack: TestStack | { url: string },
  method: Method,
  path: string,
  options: { token?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const res = await got(`${stack.url}${path}`, {
    method,
    throwHttpErrors: false,
    retry: { limit: 0 },
    headers: {
      Accept: 'application/json',
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  // Files (XML, zip) and /metrics text come back as text; everything else is the JSON envelope.
  const json = /json/.test(String(res.headers['content-type'] ?? 'application/json'));
  return {
    status: res.statusCode,
    headers: res.headers,
    body: res.body ? (json ? JSON.parse(res.body) : res.body) : null,
  };
}

export async function newAccountToken(stack: TestStack, quotaUnits = 0): Promise<{ accountId: string; token: string }> {
  const { account, token } = await createAccount(stack.db, { name: 'test account', quotaUnits });
  return { accountId: account.id, token };
}

export function companyBody(ruc: string, extra: Record<string, unknown> = {}) {
  return { ruc, business_name: `Empresa ${ruc} S.A.C.`, plan_type: '01', environment: '01', ...extra };
}

/** Creates a company and returns its signing token. */
export async function createCompany(
  stack: TestStack,
  token: string,
  ruc: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await call(stack, 'POST', '/v1/companies', { token, json: companyBody(ruc, extra) });
  if (res.status !== 201) throw new Error(`company creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}
