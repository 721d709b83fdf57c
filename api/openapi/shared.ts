/** The builders every part of the OpenAPI document uses: schema shorthands, answers, parameters, security. */

import { JSON_BODY_LIMIT } from '../middleware/body';

export type Schema = Record<string, unknown>;
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
export const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
/** One page of a list: its items, their count, and the cursor of the next page (null on the last). */
export const page = (key: string, items: Schema, cursor: Schema): Schema =>
  obj({ [key]: { type: 'array', items }, count: { type: 'integer' }, next_before: nullable(cursor) });
export const enumOf = (values: readonly string[]) => str({ enum: [...values] });
export const dateTime = str({ format: 'date-time' });

/** `{success: true, message, data}` with the given data schema (or no data; `dataOptional` when only sometimes). */
export function ok(description: string, data?: Schema, dataOptional = false) {
  const properties: Record<string, Schema> = { success: { const: true }, message: str() };
  if (data) properties.data = data;
  const required = data && !dataOptional ? ['success', 'message', 'data'] : ['success', 'message'];
  return { description, content: { 'application/json': { schema: obj(properties, required) } } };
}

export const num = { type: 'number' };
export const nullableEnum = (values: readonly string[]): Schema => ({
  type: ['string', 'null'],
  enum: [...values, null],
});
export const bool = { type: 'boolean' };
export const json = (description: string, schema: Schema) => ({
  description,
  content: { 'application/json': { schema } },
});
export const externalIdParameter = {
  name: 'external_id',
  in: 'path',
  required: true,
  schema: str(),
  description: 'external_id returned at issue',
};
export const signing = (operation: Schema, codes: number[] = []) => ({
  tags: ['cpe'],
  security: [{ signingToken: [] }],
  ...operation,
  responses: {
    ...errors(401, 403, 429, ...codes, ...(operation.requestBody ? BODY_ERRORS : [])),
    ...(operation.responses as Schema),
  },
});
export const documentAnswer = (description: string) => ok(description, obj({ document: ref('Document') }));

export const ERROR_TEXT: Record<number, string> = {
  401: 'Token absent, invalid or revoked, or a signing token without company',
  403: 'Wrong token scope, inactive account or company, or the company belongs to another account',
  404: 'The company or document does not exist',
  409: 'The RUC is registered in another account (send confirm: true), the document state does not allow the operation, a webhook delivery is still pending, or the company has no webhook to rotate or test',
  422: 'Invalid fields (errors: {field: [messages]}) or a business rule',
  429: 'Rate limit exceeded; see Retry-After and the RateLimit-* headers',
  // Answers outside spec 7.1, each with its reason (docs/issuing.md, "Answers beyond spec 7.1").
  400: 'The body is not valid UTF-8 (bad bytes, overlong forms, encoded surrogates)',
  413: `The body is larger than the operation's limit (JSON: ${JSON_BODY_LIMIT} bytes; a logo: CHASQUI_LOGO_MAX_BYTES; a certificate form: CHASQUI_CERTIFICATE_MAX_BYTES + 64 KB)`,
  415: 'The body has a Content-Type the operation does not take (JSON operations: application/json in UTF-8; Accept-Post names the type)',
};
/** Answers any operation with a JSON body can give before it runs (docs/issuing.md, "Input rules"). */
export const BODY_ERRORS = [400, 413, 415];

export function errors(...codes: number[]) {
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: ERROR_TEXT[code], content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
}

export const limitParameter = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
};
export const query = (name: string, schema: Schema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
export const rucParameter = {
  name: 'ruc',
  in: 'path',
  required: true,
  schema: str({ pattern: '^\\d{11}$' }),
  description: '11-digit RUC',
};
export const security = [{ accountToken: [] }];
export const managed = (operation: Schema, codes: number[] = []) => ({
  tags: ['companies'],
  security,
  ...operation,
  responses: {
    ...errors(401, 403, 429, ...codes, ...(operation.requestBody ? BODY_ERRORS : [])),
    ...(operation.responses as Schema),
  },
});
export function jsonBody(schema: Schema) {
  return { required: true, content: { 'application/json': { schema } } };
}

/** OpenAPI links (what a client, or a stateful fuzzer, can do next with what an answer returned). */
export const link = (operationId: string, parameter: string, expression: string, description: string) => ({
  operationId,
  parameters: { [parameter]: expression },
  description,
});
export const withLinks = (response: Record<string, unknown>, links: Record<string, unknown>) => ({
  ...response,
  links,
});
