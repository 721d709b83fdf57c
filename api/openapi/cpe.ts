import { DOCUMENT_STATUSES } from '../../lifecycle/transitions';
import { DOCUMENT_TYPES } from '../cpe/list';
import {
  bool,
  documentAnswer,
  enumOf,
  errors,
  externalIdParameter,
  json,
  jsonBody,
  limitParameter,
  link,
  obj,
  ok,
  page,
  query,
  ref,
  signing,
  str,
  withLinks,
} from './shared';
import { issueFields, issueRequired, legacyResponse, verdictFields } from './schemas';

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
  429: json(
    "Rate limit exceeded (per token or per account: see Retry-After and the RateLimit-* headers), the account past twice its burst while other accounts issue (Retry-After; docs/delivery.md), or, for signed XML, the account's own queue of heavy work full (data.bound account_queue): nothing was signed or issued",
    ref('Error'),
  ),
  503: json(
    "Signing is unavailable (the provider certificate, CHASQUI_PROVIDER_PFX, is not configured or cannot be read), the file store is (Retry-After: 5; docs/files.md), or, for signed XML, the service's queue of heavy work is full (Retry-After, data.bound pool_queue; an account's own full queue is a 429): nothing was signed or issued",
    ref('Error'),
  ),
};
/** A stored file's read (docs/files.md): the store down, or the file damaged. */
const issueParameters = [
  { name: 'Idempotency-Key', in: 'header', required: false, schema: str({ maxLength: 255 }) },
  {
    name: 'X-Environment',
    in: 'header',
    required: false,
    schema: enumOf(['01', '02', 'demo', 'production']),
    description: "Declared environment; 409 when it is not the company's",
  },
  {
    name: 'Chasqui-Priority',
    in: 'header',
    required: false,
    schema: enumOf(['interactive', 'batch']),
    description:
      'batch: a bulk backfill, delivered behind every interactive document and in turn with other accounts (docs/delivery.md); 422 for any other value',
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
          'The document of spec 2.3 (aliases accepted; docs/documents.md), or {"xml": "<base64>"} for a company with signing external. At most 2 MiB (for {"xml"}: the XML itself, and 60,000 elements), nested at most 32 levels, UTF-8 only, no control characters but tab and line breaks (docs/issuing.md, "Input rules")',
      },
      examples: { factura: { summary: 'A factura of one line', value: EXAMPLE_INVOICE } },
    },
  },
};
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
/** Issuing, listing and reading documents. */
export function cpePaths() {
  return {
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
          200: ok('Documents (spec 2.5 shape)', page('documents', ref('Document'), str({ format: 'uuid' }))),
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
        summary: 'Legacy send: issue and wait for the verdict (200), or 202 when the authority did not answer in time',
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
  };
}

/** Sending, resending and e-mailing an issued document. */
export function cpeActionPaths() {
  return {
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
  };
}

/** Voiding an accepted document. */
export function voidPaths() {
  return {
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
  };
}
