import {
  DESTINATIONS,
  ENVIRONMENTS,
  PLAN_TYPES,
  RECEIPTS_MODES,
  RESPONSE_MODES,
  SENDING_MODES,
  SIGNINGS,
} from '../companies/schemas';
import {
  bool,
  dateTime,
  enumOf,
  json,
  jsonBody,
  limitParameter,
  link,
  managed,
  nullable,
  obj,
  ok,
  page,
  ref,
  rucParameter,
  str,
  withLinks,
  type Schema,
} from './shared';
import { emailSettings } from './schemas';

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
    obj({
      client_id: str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$' }),
      client_secret: str({ writeOnly: true }),
    }),
    'Dispatch-guide (GRE) API credentials',
  ],
];

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
/** PATCH /v1/companies/{ruc}/<setting>, one path per setting of SETTINGS. */
const settingPaths = () =>
  Object.fromEntries(
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

const listCompanies = () =>
  managed(
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
        200: ok('Companies', page('companies', ref('Company'), str())),
      },
    },
    [422],
  );

const createCompany = () =>
  managed(
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
          ok('Created', obj({ company: ref('Company'), token: str({ pattern: '^chq_sig_' }), token_note: str() })),
          companyLinks(),
        ),
      },
    },
    [409, 422],
  );

/** Registering, reading and listing companies; their signing tokens and settings. */
export function companyPaths() {
  return {
    '/v1/companies': { get: listCompanies(), post: createCompany() },
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
    ...settingPaths(),
  };
}

/** The logo printed on a company's documents: put, get, delete. */
const logoPath = () => ({
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
});

/** A company's certificate, checks and logo. */
export function companyFilePaths() {
  return {
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
    '/v1/companies/{ruc}/logo': logoPath(),
  };
}

/** The buyer e-mail settings of a company. */
export function companyEmailPaths() {
  return {
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
  };
}
