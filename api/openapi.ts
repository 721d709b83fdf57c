import Router from '@koa/router';
import {
  DESTINATIONS,
  ENVIRONMENTS,
  PLAN_TYPES,
  RECEIPTS_MODES,
  RESPONSE_MODES,
  SENDING_MODES,
  SIGNINGS,
} from './companies/schemas';
import { PROCEDURES } from '../db/procedures';
import { CHECK_IDS } from '../db/company-checks';
import { DOCUMENT_TYPES } from './cpe/list';
import { DOCUMENT_STATUSES } from '../lifecycle/transitions';
import { DELIVERY_STATUSES } from '../lifecycle/webhooks';
import { JSON_BODY_LIMIT } from './middleware/body';

/**
 * OpenAPI 3.1 description of every route that exists, served at /v1/openapi.json. Tests compare it with the
 * routers (every route documented, every documented route answering) and validate real responses against it.
 */

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const enumOf = (values: readonly string[]) => str({ enum: [...values] });
const dateTime = str({ format: 'date-time' });

/** `{success: true, message, data}` with the given data schema (or no data; `dataOptional` when only sometimes). */
function ok(description: string, data?: Schema, dataOptional = false) {
  const properties: Record<string, Schema> = { success: { const: true }, message: str() };
  if (data) properties.data = data;
  const required = data && !dataOptional ? ['success', 'message', 'data'] : ['success', 'message'];
  return { description, content: { 'application/json': { schema: obj(properties, required) } } };
}

const num = { type: 'number' };
const nullableEnum = (values: readonly string[]): Schema => ({ type: ['string', 'null'], enum: [...values, null] });
const bool = { type: 'boolean' };

/** Spec 2.4, and the shapes built on it (docs/issuing.md). */
const issueFields: Record<string, Schema> = {
  success: { const: true },
  status: enumOf(DOCUMENT_STATUSES),
  message: str(),
  external_id: str({ format: 'uuid' }),
  filename: str(),
  hash: str(),
  environment: enumOf(ENVIRONMENTS),
  environment_name: enumOf(['demo', 'production']),
  xml: str({ contentEncoding: 'base64' }),
  warnings: { type: 'array', items: str() },
  time: num,
};
const issueRequired = Object.keys(issueFields).filter((k) => k !== 'warnings');
const result = nullable({
  ...obj(
    {
      code: nullable(str()),
      message: str(),
      errors: { type: 'array', items: str() },
      origin: nullableEnum(['validation', 'connection', 'timeout', 'tax_authority', 'system']),
      origin_description: nullable(str()),
      action: nullableEnum(['retry', 'correct', 'review']),
      reached_sunat: nullable(bool),
      observations: { type: 'array', items: str() },
      success: { const: false },
      external_id: str(),
    },
    ['message'],
  ),
});
const documentSchema = obj({
  external_id: str({ format: 'uuid' }),
  filename: str(),
  document_type_id: str(),
  series: str(),
  number: { type: 'integer' },
  status_code: str(),
  status: enumOf(DOCUMENT_STATUSES),
  resolved: bool,
  ticket: nullable(str()),
  result,
  environment: enumOf(ENVIRONMENTS),
  hash: str(),
  issued_at: dateTime,
  resolved_at: nullable(dateTime),
  email: nullable({
    ...obj({
      status: enumOf(['pending', 'sent', 'failed', 'disabled']),
      to: { type: 'array', items: str({ format: 'email' }), minItems: 1, maxItems: 5 },
      attempts: { type: 'integer', minimum: 0 },
      last_error: nullable(str()),
    }),
    description:
      "The buyer's e-mail (cliente.correo; docs/buyers.md); null when the payload named no address. A failed e-mail never changes the document's status",
  }),
  links: obj({
    xml: str({ format: 'uri-reference' }),
    cdr: nullable(str({ format: 'uri-reference' })),
    pdf: nullable(
      str({
        format: 'uri-reference',
        description: 'null for what has no printed representation: summaries, voids, retentions (20), perceptions (40)',
      }),
    ),
  }),
});
const emailSettings = obj({
  smtp_url: nullable(str({ description: "the password shown as ****; null: chasqui's server" })),
  from: nullable(str()),
  reply_to: nullable(str()),
  format: enumOf(['a4', 'ticket']),
  attach_cdr: bool,
  enabled: bool,
  updated_at: nullable(dateTime),
});
const verdictFields = {
  status_code: str(),
  resolved: bool,
  ticket: nullable(str()),
  result,
  cdr_zip: nullable(str({ contentEncoding: 'base64' })),
};
const legacyResponse = obj({
  success: bool,
  message: str(),
  external_id: str({ format: 'uuid' }),
  filename: str(),
  hash: str(),
  xml: str({ contentEncoding: 'base64' }),
  status: enumOf(DOCUMENT_STATUSES),
  ticket: nullable(str()),
  sunatResponse: nullable(
    obj(
      {
        success: bool,
        ticket: nullable(str()),
        cdrZip: nullable(str({ contentEncoding: 'base64' })),
        cdrResponse: nullable(
          obj({ id: str(), code: str(), description: str(), notes: { type: 'array', items: str() } }),
        ),
        error: nullable(obj({ code: nullable(str()), message: str() })),
      },
      ['success', 'cdrZip', 'cdrResponse', 'error'],
    ),
  ),
  time: num,
});
/** The issue operation's own error bodies (spec 7.2 for 422, `{success, message}` for 402/409; field errors as the envelope). */
const issueError = obj(
  {
    success: { const: false },
    message: str(),
    errors: { type: ['array', 'object'] },
    details: {
      type: 'array',
      items: obj({
        code: nullable(str()),
        message: str(),
        path: nullable(str()),
        line: nullable({ type: 'integer' }),
        col: nullable({ type: 'integer' }),
        snippet: nullable(str()),
      }),
    },
    time: num,
    origin: { const: 'validation' },
    origin_description: str(),
    action: { const: 'correct' },
    reached_sunat: { const: false },
    external_id: str({
      format: 'uuid',
      description: 'The document holding the series-number (1033/1032), when it belongs to the calling company',
    }),
    data: { type: 'object' },
  },
  ['success', 'message'],
);
const json = (description: string, schema: Schema) => ({ description, content: { 'application/json': { schema } } });
const ISSUE_ERRORS = {
  402: json(
    'Plan blocks the issue (7.3): no signatures left, plan 02 without certificate, certificate expired, OSE package used up',
    ref('IssueError'),
  ),
  409: json('X-Environment differs from the company environment', ref('IssueError')),
  422: json(
    'Document validation (7.2 body; errors as "[<source> <code>] <text>"), including a series-number already held by another document ([SUNAT 1033], or [SUNAT 1032] once rejected or voided: details[].path correlativo, external_id of the holder when it is this company\'s), or a request field error (X-Environment, xml)',
    ref('IssueError'),
  ),
  503: json(
    'Signing is unavailable (the provider certificate, CHASQUI_PROVIDER_PFX, is not configured or cannot be read), or the file store is (Retry-After: 5; docs/files.md): nothing was signed or issued',
    ref('Error'),
  ),
};
/** A stored file's read (docs/files.md): the store down, or the file damaged. */
const FILE_ERRORS = {
  502: json(
    'The stored file does not match the SHA-256 or size its document records, or is missing from the store: the tax record needs restoring from a backup (chasqui_file_integrity_failures_total counts it)',
    ref('Error'),
  ),
  503: json('The file store is unavailable; Retry-After says when to try again', ref('Error')),
};
const externalIdParameter = {
  name: 'external_id',
  in: 'path',
  required: true,
  schema: str(),
  description: 'external_id returned at issue',
};
const issueParameters = [
  { name: 'Idempotency-Key', in: 'header', required: false, schema: str({ maxLength: 255 }) },
  {
    name: 'X-Environment',
    in: 'header',
    required: false,
    schema: enumOf(['01', '02', 'demo', 'production']),
    description: "Declared environment; 409 when it is not the company's",
  },
];
/** A complete factura (docs/documents.md has every field): what a first request looks like. */
const EXAMPLE_INVOICE = {
  tipoDoc: '01',
  serie: 'F001',
  correlativo: '1',
  fechaEmision: '2026-01-15',
  tipoMoneda: 'PEN',
  emisor: {
    ruc: '20123456786',
    razonSocial: 'Comercial Andina S.A.C.',
    establecimiento: { ubigeo: '150101', codLocal: '0000', direccion: 'Av. Abancay 123' },
  },
  cliente: {
    tipoDoc: '6',
    numDoc: '20600000005',
    nombre: 'Distribuidora del Sur S.A.',
    correo: 'compras@distribuidoradelsur.pe',
  },
  items: [
    {
      descripcion: 'Caja de clavos',
      codigoSunat: '31162003',
      gtin: '7751234567892',
      cantidad: 1,
      unidad: 'NIU',
      valorUnitario: 100,
      afectacionIgv: '10',
      porcentajeIgv: 18,
    },
  ],
};
const issueBodySchema = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        description:
          'The document of spec 2.3 (aliases accepted; docs/documents.md), or {"xml": "<base64>"} for a company with signing external. At most 2 MiB, nested at most 32 levels, UTF-8 only, no control characters but tab and line breaks (docs/issuing.md, "Input rules")',
      },
      examples: { factura: { summary: 'A factura of one line', value: EXAMPLE_INVOICE } },
    },
  },
};
const signing = (operation: Schema, codes: number[] = []) => ({
  tags: ['cpe'],
  security: [{ signingToken: [] }],
  ...operation,
  responses: {
    ...errors(401, 403, 429, ...codes, ...(operation.requestBody ? BODY_ERRORS : [])),
    ...(operation.responses as Schema),
  },
});
const documentAnswer = (description: string) => ok(description, obj({ document: ref('Document') }));

const ERROR_TEXT: Record<number, string> = {
  401: 'Token absent, invalid or revoked, or a signing token without company',
  403: 'Wrong token scope, inactive account or company, or the company belongs to another account',
  404: 'The company or document does not exist',
  409: 'The RUC is registered in another account (send confirm: true), the document state does not allow the operation, or a webhook delivery is still pending',
  422: 'Invalid fields (errors: {field: [messages]}) or a business rule',
  429: 'Rate limit exceeded; see Retry-After and the RateLimit-* headers',
  // Answers outside spec 7.1, each with its reason (docs/issuing.md, "Answers beyond spec 7.1").
  400: 'The body is not valid UTF-8 (bad bytes, overlong forms, encoded surrogates)',
  413: `The body is larger than the operation's limit (JSON: ${JSON_BODY_LIMIT} bytes; a logo: CHASQUI_LOGO_MAX_BYTES)`,
  415: 'The body has a Content-Type the operation does not take (JSON operations: application/json in UTF-8; Accept-Post names the type)',
};
/** Answers any operation with a JSON body can give before it runs (docs/issuing.md, "Input rules"). */
const BODY_ERRORS = [400, 413, 415];

function errors(...codes: number[]) {
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: ERROR_TEXT[code], content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
}

const limitParameter = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
};
const query = (name: string, schema: Schema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const rucParameter = {
  name: 'ruc',
  in: 'path',
  required: true,
  schema: str({ pattern: '^\\d{11}$' }),
  description: '11-digit RUC',
};
const security = [{ accountToken: [] }];
const managed = (operation: Schema, codes: number[] = []) => ({
  tags: ['companies'],
  security,
  ...operation,
  responses: {
    ...errors(401, 403, 429, ...codes, ...(operation.requestBody ? BODY_ERRORS : [])),
    ...(operation.responses as Schema),
  },
});
function jsonBody(schema: Schema) {
  return { required: true, content: { 'application/json': { schema } } };
}
const companyData = obj({ company: ref('Company') });

/** The PATCH settings: path, body and a summary each. */
const SETTINGS: [string, Schema, string][] = [
  ['plan', obj({ plan_type: enumOf(PLAN_TYPES) }), 'Change the plan'],
  ['environment', obj({ environment: enumOf(ENVIRONMENTS) }), 'Move demo (01) to production (02); 02 to 01 is a 422'],
  ['sending', obj({ mode: enumOf(SENDING_MODES) }), 'Who sends: automatic at signing time, or manual'],
  ['receipts', obj({ mode: enumOf(RECEIPTS_MODES) }), 'Receipts one by one or through the daily summary'],
  ['response', obj({ mode: enumOf(RESPONSE_MODES) }), 'Whether sending waits for the CDR'],
  [
    'registers',
    obj({ igv_special_rate: bool, product_code_required: bool }, []),
    "SUNAT's registers (padrones) the company declares it is on: the special IGV rate, the product code obligation",
  ],
  [
    'destination',
    obj({ destination: enumOf(DESTINATIONS) }),
    'Where documents go; own_ose needs OSE credentials first',
  ],
  ['signing', obj({ signing: enumOf(SIGNINGS) }), 'Who signs; external needs destination provider_ose'],
  [
    'sol-credentials',
    obj(
      {
        sol_user: str(),
        sol_password: str({ writeOnly: true }),
        secondary_user: str(),
        secondary_password: str({ writeOnly: true }),
      },
      ['sol_user', 'sol_password'],
    ),
    'Principal SOL user (starts the portal procedures) and, optionally, the secondary user that sends with an own certificate',
  ],
  [
    'ose-credentials',
    obj({ url: str({ format: 'uri' }), user: str(), password: str({ writeOnly: true }) }),
    'Credentials of the company own OSE (public https URL)',
  ],
  [
    'gre-credentials',
    obj({ client_id: str(), client_secret: str({ writeOnly: true }) }),
    'Dispatch-guide (GRE) API credentials',
  ],
];

const taxProcedure = obj({
  state: enumOf(['pending', 'running', 'done', 'failed', 'not_applicable']),
  attempts: { type: 'integer' },
  last_error: nullable(str()),
  updated_at: nullable(dateTime),
  done_at: nullable(dateTime),
  next_attempt_at: nullable(dateTime),
});

const company = obj({
  ruc: str(),
  business_name: str(),
  plan_type: enumOf(PLAN_TYPES),
  environment: enumOf(ENVIRONMENTS),
  environment_name: enumOf(['demo', 'production']),
  sending: enumOf(SENDING_MODES),
  receipts: enumOf(RECEIPTS_MODES),
  response: enumOf(RESPONSE_MODES),
  destination: enumOf(DESTINATIONS),
  signing: enumOf([...SIGNINGS, 'own_certificate']),
  certificate: nullable(
    obj({
      origin: enumOf(['own', 'provider']),
      subject: str(),
      issuer: str(),
      serial_number: str(),
      valid_from: dateTime,
      valid_to: dateTime,
      uploaded_at: dateTime,
    }),
  ),
  sol_credentials: nullable(obj({ sol_user: str(), secondary_user: nullable(str()), updated_at: nullable(dateTime) })),
  ose_credentials: nullable(obj({ url: str(), user: str(), updated_at: nullable(dateTime) })),
  gre_credentials: nullable(obj({ client_id: str(), updated_at: nullable(dateTime) })),
  webhook: nullable(obj({ url: str(), event: str({ const: 'cpe.resolved' }), updated_at: nullable(dateTime) })),
  production_documents: { type: 'integer' },
  registers: obj({
    igv_special_rate: { ...bool, description: "On SUNAT's register of the special IGV rate (ind_padron 01)" },
    product_code_required: {
      ...bool,
      description: "On SUNAT's register of issuers obliged to send the product code (ind_padron 12)",
    },
  }),
  active: { type: 'boolean' },
  created_at: dateTime,
  updated_at: dateTime,
  tax_procedures: obj(Object.fromEntries(PROCEDURES.map((p) => [p, ref('TaxProcedure')]))),
});

const webhookDelivery = obj({
  id: str({ format: 'uuid', description: 'The X-Entrega header of every attempt of this delivery' }),
  external_id: nullable(
    str({ format: 'uuid', description: 'The document of a cpe.resolved notice; null for company.check' }),
  ),
  check_event_id: nullable(
    str({ format: 'uuid', description: 'The change a company.check notice carries; null for cpe.resolved' }),
  ),
  event: enumOf(['cpe.resolved', 'company.check']),
  status: enumOf(DELIVERY_STATUSES),
  attempts_made: { type: 'integer' },
  max_attempts: { type: 'integer' },
  next_attempt_at: nullable(dateTime),
  last_error: nullable(str()),
  redelivery_of: nullable(str({ format: 'uuid' })),
  created_at: dateTime,
  completed_at: nullable(dateTime),
});

const companyCheck = {
  type: 'object',
  description:
    'One check\'s latest result (docs/operations.md, "Company checks"), with the check\'s own fields beside these: ' +
    'certificate: origin, not_before, not_after, days_left; sol_credentials / gre_credentials: asked_at, user, code; ' +
    'series_gaps: since, gaps[{doc_type, series, lowest, highest, missing_count, missing}]; sending_window: window_days, ' +
    'closed[], closing[] ({number, doc_type, status, issue_date, closes_at}); rule_readiness: since, horizon_days, ' +
    'rules[{rule, effective, codes, summary, documents_checked, would_fail, examples}]; ose_link / pse_authorization: ' +
    'state, attempts, last_error, done_at; email_server: host, port',
  properties: {
    id: enumOf(CHECK_IDS),
    status: enumOf(['ok', 'warn', 'fail', 'unknown']),
    detail: str({ description: 'What was found and, when not ok, what to do' }),
    checked_at: dateTime,
  },
  required: ['id', 'status', 'detail', 'checked_at'],
  additionalProperties: {},
};

const webhookAttempt = obj({
  number: { type: 'integer' },
  url: str(),
  started_at: dateTime,
  http_status: nullable({ type: 'integer' }),
  latency_ms: nullable({ type: 'integer' }),
  error: nullable(str()),
  delivered: { type: 'boolean' },
});

const webhookDeliveryDetail = obj({
  ...(webhookDelivery.properties as Record<string, Schema>),
  attempts: { type: 'array', items: ref('WebhookAttempt') },
});

const deliveryParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: str({ format: 'uuid' }),
  description: 'Delivery id (X-Entrega)',
};
const webhooksTag = { tags: ['webhooks'] };

/** A void request (docs/summaries.md): receipts through the next daily summary (rc, condition 3), invoices through an ra. */
const voidRequest = obj({
  external_id: str({ format: 'uuid' }),
  reason: str(),
  via: enumOf(['rc', 'ra']),
  status: enumOf(['pending', 'sent', 'accepted', 'observed', 'rejected']),
  document: nullable(obj({ external_id: str({ format: 'uuid' }), filename: str() })),
  // What the last daily summary carrying it answered; null before any (and for an ra: read the ra document).
  result,
  requested_at: dateTime,
});

/** OpenAPI links (what a client, or a stateful fuzzer, can do next with what an answer returned). */
const link = (operationId: string, parameter: string, expression: string, description: string) => ({
  operationId,
  parameters: { [parameter]: expression },
  description,
});
const documentLinks = {
  GetDocument: link('get-document', 'external_id', '$response.body#/external_id', 'The issued document and its result'),
  SendDocument: link('send-document', 'external_id', '$response.body#/external_id', 'Send it (manual sending mode)'),
  ResendDocument: link(
    'resend-document',
    'external_id',
    '$response.body#/external_id',
    'Send the same signed XML again',
  ),
  VoidDocument: link('void-document', 'external_id', '$response.body#/external_id', 'Void it once accepted'),
  GetVoid: link('get-void', 'external_id', '$response.body#/external_id', 'Where its void stands'),
};
const RUC_FROM_COMPANY = '$response.body#/data/company/ruc';
const companyLinks = () => ({
  GetCompany: link('get-company', 'ruc', RUC_FROM_COMPANY, 'The company'),
  NewToken: link('new-token', 'ruc', RUC_FROM_COMPANY, 'Another signing token'),
  ConfigureWebhook: link('configure-webhook', 'ruc', RUC_FROM_COMPANY, 'Its webhook'),
  ListWebhookDeliveries: link('list-webhook-deliveries', 'ruc', RUC_FROM_COMPANY, 'Its webhook deliveries'),
  ...Object.fromEntries(
    SETTINGS.map(([path]) => [
      `Patch${path.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
      link(`patch-${path}`, 'ruc', RUC_FROM_COMPANY, `Change ${path}`),
    ]),
  ),
});
const withLinks = (response: Record<string, unknown>, links: Record<string, unknown>) => ({ ...response, links });

export function openApiDocument() {
  const settingPaths = Object.fromEntries(
    SETTINGS.map(([path, body, summary]) => [
      `/v1/companies/{ruc}/${path}`,
      {
        parameters: [rucParameter],
        patch: managed(
          {
            summary,
            operationId: `patch-${path}`,
            requestBody: jsonBody(body),
            responses: { 200: ok('Updated', companyData) },
          },
          [404, 422],
        ),
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'chasqui',
      version: '1',
      description:
        'Signs Peru electronic tax documents (CPE) and delivers them to SUNAT or an OSE. Company management under /v1/companies, issuing under /v1/cpe. ' +
        'Any method a path does not list here (TRACE, QUERY, PROPFIND…) is answered 405 with an Allow header; every authenticated answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (docs/issuing.md).',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        accountToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'Account token chq_acc_… (scope empresas:manage)',
        },
        signingToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'Company signing token chq_sig_… (scope cpe:sign)',
        },
      },
      schemas: {
        Error: obj(
          {
            success: { const: false },
            message: str(),
            errors: { type: 'object', additionalProperties: { type: 'array', items: str() } },
            data: { type: 'object' },
          },
          ['success', 'message'],
        ),
        TaxProcedure: taxProcedure,
        Company: company,
        WebhookDelivery: webhookDelivery,
        CompanyCheck: companyCheck,
        WebhookAttempt: webhookAttempt,
        IssueError: issueError,
        Document: documentSchema,
        VoidRequest: voidRequest,
      },
    },
    paths: {
      '/healthz': {
        get: {
          tags: ['operations'],
          summary: 'Liveness',
          responses: { 200: ok('Alive', obj({ uptime_seconds: { type: 'integer' } })) },
        },
      },
      '/readyz': {
        get: {
          tags: ['operations'],
          summary:
            "Readiness: PostgreSQL and Temporal reachable, the database migrated, the master key opening the stored secrets, the namespace with chasqui's search attributes (503 names each problem with its fix: `not ready: temporal_namespace: …; fix: …`)",
          responses: {
            200: ok(
              'Ready',
              obj({
                database: str(),
                temporal: str(),
                migrations: str(),
                master_key: str(),
                temporal_namespace: str(),
              }),
            ),
            503: {
              description: 'Not ready',
              content: {
                'application/json': {
                  schema: obj({ success: { const: false }, message: str(), data: { type: 'object' } }),
                },
              },
            },
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          tags: ['operations'],
          summary: 'This document',
          responses: {
            200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/v1/companies': {
        get: managed(
          {
            summary: 'List the account companies, newest first',
            operationId: 'list-companies',
            parameters: [
              limitParameter,
              {
                name: 'before',
                in: 'query',
                required: false,
                schema: str({ pattern: '^\\d{11}$' }),
                description: 'next_before (a RUC) of the previous page',
              },
            ],
            responses: {
              200: ok(
                'Companies',
                obj({
                  companies: { type: 'array', items: ref('Company') },
                  count: { type: 'integer' },
                  next_before: nullable(str()),
                }),
              ),
            },
          },
          [422],
        ),
        post: managed(
          {
            summary: 'Create a company; answers its signing token once',
            operationId: 'create-company',
            parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: str({ maxLength: 255 }) }],
            requestBody: jsonBody(
              obj(
                {
                  ruc: str({ pattern: '^\\d{11}$' }),
                  business_name: str(),
                  plan_type: enumOf(PLAN_TYPES),
                  environment: enumOf(ENVIRONMENTS),
                  destination: enumOf(DESTINATIONS),
                  signing: enumOf(SIGNINGS),
                  confirm: { type: 'boolean' },
                  sol_user: str(),
                  sol_password: str({ writeOnly: true }),
                },
                ['ruc', 'business_name', 'plan_type', 'environment'],
              ),
            ),
            responses: {
              200: withLinks(
                ok(
                  'Already exists in this account; nothing changed',
                  obj({ company: ref('Company'), exists: { const: true } }),
                ),
                companyLinks(),
              ),
              201: withLinks(
                ok(
                  'Created',
                  obj({ company: ref('Company'), token: str({ pattern: '^chq_sig_' }), token_note: str() }),
                ),
                companyLinks(),
              ),
            },
          },
          [409, 422],
        ),
      },
      '/v1/companies/{ruc}': {
        parameters: [rucParameter],
        get: managed(
          {
            summary: 'The company, with tax_procedures',
            operationId: 'get-company',
            responses: { 200: withLinks(ok('Company', companyData), companyLinks()) },
          },
          [404, 422],
        ),
        delete: managed(
          {
            summary: 'Delete a company without production movement; revokes its tokens',
            operationId: 'delete-company',
            responses: { 200: ok('Deleted') },
          },
          [404, 422],
        ),
      },
      '/v1/companies/{ruc}/token': {
        parameters: [rucParameter],
        post: managed(
          {
            summary: 'Generate another signing token',
            operationId: 'new-token',
            responses: { 201: ok('Generated', obj({ token: str({ pattern: '^chq_sig_' }), token_note: str() })) },
          },
          [404, 422],
        ),
      },
      ...settingPaths,
      '/v1/companies/{ruc}/certificate': {
        parameters: [rucParameter],
        post: managed(
          {
            summary: 'Upload the company own certificate (PFX); the password is used once and discarded',
            operationId: 'upload-certificate',
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: obj({
                    certificate: str({ contentMediaType: 'application/x-pkcs12' }),
                    password: str({ writeOnly: true }),
                  }),
                },
              },
            },
            responses: { 201: ok('Stored', companyData) },
          },
          [404, 422],
        ),
      },
      '/v1/companies/{ruc}/checks': {
        parameters: [rucParameter],
        get: managed(
          {
            summary: "The latest result of each of the company's checks, worst first (fail, warn, unknown, ok)",
            operationId: 'get-company-checks',
            responses: {
              200: ok(
                'Checks',
                obj({ checks: { type: 'array', items: ref('CompanyCheck') }, count: { type: 'integer' } }),
              ),
            },
          },
          [404, 422],
        ),
        post: managed(
          {
            summary: 'Run the company checks now; the GET shows them when done (a failing check never blocks issuing)',
            operationId: 'run-company-checks',
            responses: {
              202: ok('The checks are running', obj({ run: obj({ workflow_id: str() }) })),
              503: json(
                'The checks could not be started (Temporal cannot be reached); nothing changed: try again',
                ref('Error'),
              ),
            },
          },
          [404, 422],
        ),
      },
      '/v1/companies/{ruc}/logo': {
        parameters: [rucParameter],
        put: managed(
          {
            summary: 'Store (or replace) the logo printed on the company documents: the image as the body, PNG or JPEG',
            operationId: 'put-logo',
            requestBody: {
              required: true,
              content: {
                'image/png': { schema: str({ contentMediaType: 'image/png' }) },
                'image/jpeg': { schema: str({ contentMediaType: 'image/jpeg' }) },
              },
            },
            responses: {
              200: ok(
                'Stored',
                obj({
                  logo: obj({
                    content_type: enumOf(['image/png', 'image/jpeg']),
                    bytes: { type: 'integer' },
                    width: { type: 'integer' },
                    height: { type: 'integer' },
                    updated_at: dateTime,
                  }),
                }),
              ),
            },
          },
          [404, 413, 415, 422],
        ),
        get: managed(
          {
            summary: 'The stored logo',
            operationId: 'get-logo',
            responses: {
              200: {
                description: 'The image',
                content: { 'image/png': { schema: str() }, 'image/jpeg': { schema: str() } },
              },
            },
          },
          [404, 422],
        ),
        delete: managed(
          { summary: 'Remove the logo', operationId: 'delete-logo', responses: { 200: ok('Removed') } },
          [404, 422],
        ),
      },
      '/v1/cpe': {
        get: {
          tags: ['cpe'],
          security: [{ signingToken: [] }, { accountToken: [] }],
          summary: 'List documents newest first: a company token its own; an account token one of its companies (ruc=)',
          operationId: 'list-documents',
          parameters: [
            query(
              'ruc',
              str({ pattern: '^\\d{11}$' }),
              'Account token only (required there): the company whose documents are listed',
            ),
            {
              ...query(
                'status',
                { type: 'array', items: enumOf(DOCUMENT_STATUSES) },
                'One or several statuses: status=a,b or status=a&status=b',
              ),
              style: 'form',
              explode: true,
            },
            query('tipoDoc', enumOf(DOCUMENT_TYPES), 'Document type'),
            query('serie', str({ pattern: '^[A-Za-z0-9]{4}$' }), 'Series, e.g. F001'),
            query('correlativo', { type: 'integer', minimum: 1, maximum: 99999999 }, 'Number within the series'),
            query('desde', str({ format: 'date' }), 'Issue date from (inclusive)'),
            query('hasta', str({ format: 'date' }), 'Issue date up to (inclusive)'),
            query('resolved', bool, 'true: accepted, observed or rejected; false: no verdict yet'),
            query('cliente', str({ pattern: '^[A-Za-z0-9-]{1,20}$' }), 'Customer document number (RUC, DNI, ...)'),
            limitParameter,
            query('before', str({ format: 'uuid' }), 'next_before of the previous page'),
          ],
          responses: {
            200: ok(
              'Documents (spec 2.5 shape)',
              obj({
                documents: { type: 'array', items: ref('Document') },
                count: { type: 'integer' },
                next_before: nullable(str({ format: 'uuid' })),
              }),
            ),
            ...errors(401, 403, 404, 422, 429),
          },
        },
        post: signing({
          summary:
            'Issue a document: validate, sign, queue (202 with the signed XML; response mode wait adds the verdict when it came in time)',
          operationId: 'issue-document',
          parameters: issueParameters,
          requestBody: issueBodySchema,
          responses: {
            202: withLinks(
              json(
                'Signed and queued (spec 2.4). Response mode wait: the same body plus status_code, resolved, ticket, result and cdr_zip when the verdict or ticket came in time. A byte-identical repeat of an issued document answers it again with Idempotent-Replayed: true',
                obj({ ...issueFields, ...verdictFields }, issueRequired),
              ),
              documentLinks,
            ),
            ...ISSUE_ERRORS,
          },
        }),
      },
      '/api/cpe/enviar': {
        post: signing({
          summary:
            'Legacy send: issue and wait for the verdict (200), or 202 when the authority did not answer in time',
          operationId: 'legacy-send',
          parameters: issueParameters,
          requestBody: issueBodySchema,
          responses: {
            200: json('Verdict or ticket', legacyResponse),
            202: json('No answer in time', legacyResponse),
            ...ISSUE_ERRORS,
          },
        }),
      },
      '/v1/cpe/{external_id}': {
        parameters: [externalIdParameter],
        get: signing(
          {
            summary: 'The document and its result (200 even when rejected)',
            operationId: 'get-document',
            responses: { 200: documentAnswer('Document') },
          },
          [404],
        ),
      },
      '/v1/cpe/{external_id}/xml': {
        parameters: [externalIdParameter],
        get: signing(
          {
            summary: 'The signed XML exactly as stored and sent (Content-Disposition: RUC-TT-SERIE-NUMERO.xml)',
            operationId: 'get-document-xml',
            responses: {
              200: { description: 'Signed UBL XML', content: { 'application/xml': { schema: str() } } },
              ...FILE_ERRORS,
            },
          },
          [404],
        ),
      },
      '/v1/cpe/{external_id}/cdr': {
        parameters: [externalIdParameter],
        get: signing(
          {
            summary:
              'The CDR zip exactly as the authority returned it (R-RUC-TT-SERIE-NUMERO.zip); 404 while there is none',
            operationId: 'get-document-cdr',
            responses: {
              200: {
                description: 'CDR zip',
                content: { 'application/zip': { schema: str({ contentMediaType: 'application/zip' }) } },
              },
              ...FILE_ERRORS,
            },
          },
          [404],
        ),
      },
      '/v1/cpe/{external_id}/pdf': {
        parameters: [externalIdParameter],
        get: signing(
          {
            summary:
              'The printed representation (PDF) of an invoice, receipt, note or despatch guide, rendered from the signed XML',
            operationId: 'get-document-pdf',
            parameters: [
              {
                name: 'format',
                in: 'query',
                required: false,
                schema: { ...enumOf(['a4', 'ticket']), default: 'a4' },
                description: 'a4, or ticket: an 80 mm roll as tall as the content',
              },
            ],
            responses: {
              200: {
                description:
                  "The PDF; Content-Disposition names it with SUNAT's file name (RUC-TT-SERIE-NUMERO.pdf; the ticket RUC-TT-SERIE-NUMERO-ticket.pdf)",
                headers: {
                  'Content-Disposition': {
                    schema: str({ examples: ['attachment; filename="20123456786-01-F001-245.pdf"'] }),
                  },
                },
                content: { 'application/pdf': { schema: str({ contentMediaType: 'application/pdf' }) } },
              },
              ...FILE_ERRORS,
            },
          },
          [404, 422],
        ),
      },
      '/v1/account': {
        get: {
          tags: ['companies'],
          security,
          summary: 'The account balance: plan 01 signatures left and used, OSE package, companies per environment',
          operationId: 'get-account',
          responses: {
            200: ok(
              'Account',
              obj({
                account: obj({
                  id: str({ format: 'uuid' }),
                  name: str(),
                  plan_01: obj({
                    signatures_left: str({ description: 'decimal' }),
                    signatures_used: str({ description: 'decimal' }),
                  }),
                  ose_package: obj({ sends_left: { type: 'integer' } }),
                  companies: { type: 'integer' },
                  environments: obj({
                    demo: obj({ companies: { type: 'integer' }, consumes_quota: { const: false } }),
                    production: obj({
                      companies: { type: 'integer' },
                      documents_signed: { type: 'integer' },
                      consumes_quota: { const: true },
                    }),
                  }),
                }),
              }),
            ),
            ...errors(401, 403, 429),
          },
        },
      },
      '/metrics': {
        get: {
          tags: ['operations'],
          summary: 'Prometheus metrics (chasqui_*, Node process, Temporal SDK runtime); docs/operations.md',
          responses: {
            200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: str() } } },
          },
        },
      },
      '/v1/cpe/{external_id}/send': {
        parameters: [externalIdParameter],
        post: signing(
          {
            summary: 'Send a document waiting in manual mode (to_send)',
            operationId: 'send-document',
            responses: { 202: documentAnswer('Queued for sending') },
          },
          [404, 409],
        ),
      },
      '/v1/cpe/{external_id}/resend': {
        parameters: [externalIdParameter],
        post: signing(
          {
            summary: 'Send the same signed XML again (no signature, no quota); unresolved documents only',
            operationId: 'resend-document',
            responses: { 202: documentAnswer('Will be sent again') },
          },
          [404, 409],
        ),
      },
      '/v1/cpe/{external_id}/email': {
        parameters: [externalIdParameter],
        post: signing(
          {
            summary:
              'E-mail an accepted document to its buyer again: to `to` (1 to 5 addresses), or to cliente.correo; 3 times an hour per document; recorded in the support timeline',
            operationId: 'email-document',
            requestBody: jsonBody(
              obj(
                {
                  to: {
                    oneOf: [
                      str({ format: 'email' }),
                      { type: 'array', items: str({ format: 'email' }), minItems: 1, maxItems: 5 },
                    ],
                  },
                },
                [],
              ),
            ),
            responses: { 202: documentAnswer('The e-mail will be sent (document.email is pending)') },
          },
          [404, 409, 422],
        ),
      },
      '/v1/companies/{ruc}/email': {
        parameters: [rucParameter],
        get: managed(
          {
            summary: "How the company's buyers get their documents by e-mail",
            operationId: 'get-company-email',
            responses: { 200: ok('E-mail settings', obj({ email: emailSettings })) },
          },
          [404, 422],
        ),
        patch: managed(
          {
            summary:
              "The company's e-mail to its buyers: its own SMTP server (password sealed, never shown), sender, reply-to, PDF format, CDR attached, on or off",
            operationId: 'configure-company-email',
            requestBody: jsonBody({
              ...obj(
                {
                  smtp_url: nullable(
                    str({
                      description:
                        "smtp://user:password@host:port (STARTTLS when offered) or smtps://…, nothing else: a path, query or fragment is refused; null: chasqui's server",
                    }),
                  ),
                  from: nullable(
                    str({ description: 'address or "Name <address>"; required with smtp_url, refused without it' }),
                  ),
                  reply_to: nullable(str({ format: 'email' })),
                  format: enumOf(['a4', 'ticket']),
                  attach_cdr: bool,
                  enabled: bool,
                },
                [],
              ),
              minProperties: 1,
            }),
            responses: { 200: ok('Stored', obj({ email: emailSettings })) },
          },
          [404, 422],
        ),
      },
      '/consulta': {
        get: {
          tags: ['buyers'],
          summary:
            "The buyers' consultation page (HTML, Spanish, no token): a form with the five facts printed on every document",
          operationId: 'consulta-form',
          responses: { 200: { description: 'The form', content: { 'text/html': { schema: str() } } } },
        },
        post: {
          tags: ['buyers'],
          summary:
            'Look a document up by RUC, type, series, number, issue date and total: its state and signed links (1 h) to its PDF, XML and CDR. Any mismatch reads like a document that does not exist; rate limited per client address (CHASQUI_CONSULTA_RATE)',
          operationId: 'consulta-lookup',
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: obj(
                  {
                    ruc: str(),
                    tipo: str(),
                    serie: str(),
                    numero: str(),
                    fecha: str({ format: 'date' }),
                    total: str(),
                  },
                  ['ruc', 'tipo', 'serie', 'numero', 'fecha'],
                ),
              },
            },
          },
          responses: {
            200: {
              description: 'Found: the state in words and the download links',
              content: { 'text/html': { schema: str() } },
            },
            404: {
              description: 'No document with these facts (the same page whatever did not match)',
              content: { 'text/html': { schema: str() } },
            },
            422: {
              description: 'A field is malformed (the form says which)',
              content: { 'text/html': { schema: str() } },
            },
            429: {
              description: 'Too many lookups from this address; Retry-After',
              content: { 'text/html': { schema: str() } },
            },
          },
        },
      },
      '/consulta/estilos.css': {
        get: {
          tags: ['buyers'],
          summary: "The page's stylesheet",
          operationId: 'consulta-styles',
          responses: { 200: { description: 'CSS', content: { 'text/css': { schema: str() } } } },
        },
      },
      '/consulta/archivo/{id}/{kind}': {
        get: {
          tags: ['buyers'],
          summary: 'A file behind a signed link of the consultation page (expires in 1 h)',
          operationId: 'consulta-file',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: str() },
            { name: 'kind', in: 'path', required: true, schema: enumOf(['pdf', 'xml', 'cdr']) },
            { name: 'vence', in: 'query', required: true, schema: str() },
            { name: 'firma', in: 'query', required: true, schema: str() },
          ],
          responses: {
            200: {
              description: 'The file (RUC-TT-SERIE-NUMERO.pdf/.xml, R-….zip)',
              content: {
                'application/pdf': { schema: str() },
                'application/xml': { schema: str() },
                'application/zip': { schema: str() },
              },
            },
            404: {
              description: 'Expired, altered or unknown link: a page saying so',
              content: { 'text/html': { schema: str() } },
            },
          },
        },
      },
      '/v1/companies/{ruc}/webhook': {
        parameters: [rucParameter],
        patch: managed(
          {
            summary: 'Configure (public https URL) or disable (null) the cpe.resolved webhook',
            operationId: 'configure-webhook',
            requestBody: jsonBody(obj({ url: nullable(str({ format: 'uri' })) })),
            responses: {
              200: ok(
                'Configured (secret shown once, only when the URL is new) or disabled (no data)',
                obj({
                  webhook: obj(
                    {
                      url: str(),
                      event: str({ const: 'cpe.resolved' }),
                      secret: str({ minLength: 48, maxLength: 48 }),
                      note: str(),
                    },
                    ['url', 'event', 'note'],
                  ),
                }),
                true,
              ),
            },
          },
          [404, 422],
        ),
      },
      '/v1/companies/{ruc}/webhook/deliveries': {
        parameters: [rucParameter],
        get: managed(
          {
            ...webhooksTag,
            summary: 'The company webhook deliveries, newest first',
            operationId: 'list-webhook-deliveries',
            parameters: [
              { name: 'status', in: 'query', required: false, schema: enumOf(DELIVERY_STATUSES) },
              {
                name: 'external_id',
                in: 'query',
                required: false,
                schema: str({ format: 'uuid' }),
                description: 'Only the deliveries of this document',
              },
              {
                name: 'limit',
                in: 'query',
                required: false,
                schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
              },
              {
                name: 'before',
                in: 'query',
                required: false,
                schema: str({ format: 'uuid' }),
                description: 'next_before of the previous page',
              },
            ],
            responses: {
              200: ok(
                'Deliveries',
                obj({
                  deliveries: { type: 'array', items: ref('WebhookDelivery') },
                  count: { type: 'integer' },
                  next_before: nullable(str({ format: 'uuid' })),
                }),
              ),
            },
          },
          [404, 422],
        ),
      },
      '/v1/companies/{ruc}/webhook/deliveries/{id}': {
        parameters: [rucParameter, deliveryParameter],
        get: managed(
          {
            ...webhooksTag,
            summary: 'One delivery with every attempt (time, URL, HTTP status, latency, error)',
            operationId: 'get-webhook-delivery',
            responses: {
              200: ok('Delivery', obj({ delivery: webhookDeliveryDetail })),
            },
          },
          [404, 422],
        ),
      },
      '/v1/companies/{ruc}/webhook/deliveries/{id}/redeliver': {
        parameters: [rucParameter, deliveryParameter],
        post: managed(
          {
            ...webhooksTag,
            summary: 'Deliver the same notice again as a new delivery (new X-Entrega), with the current URL and secret',
            operationId: 'redeliver-webhook',
            responses: { 202: ok('Redelivery queued', obj({ delivery: ref('WebhookDelivery') })) },
          },
          [404, 409, 422],
        ),
      },
      '/v1/cpe/{external_id}/void': {
        parameters: [externalIdParameter],
        post: signing(
          {
            summary:
              'Void an accepted document: a receipt or B note by a condition 3 line of the next daily summary, an invoice or F note by an ra sent now',
            operationId: 'void-document',
            requestBody: jsonBody(obj({ reason: str({ minLength: 1, maxLength: 100 }) })),
            responses: {
              200: ok('Already requested: the existing void', obj({ void: ref('VoidRequest') })),
              202: ok('Void requested', obj({ void: ref('VoidRequest') })),
            },
          },
          [404, 409, 422],
        ),
        get: signing(
          {
            summary: 'Where a void request stands',
            operationId: 'get-void',
            responses: { 200: ok('The void request', obj({ void: ref('VoidRequest') })) },
          },
          [404],
        ),
      },
    },
  };
}

export function openApiRouter(): Router {
  const router = new Router();
  const document = openApiDocument();
  router.get('/v1/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
