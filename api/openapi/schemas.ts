import { CHECK_IDS } from '../../db/company-checks';
import { DOCUMENT_STATUSES } from '../../lifecycle/transitions';
import { DELIVERY_STATUSES } from '../../lifecycle/webhooks';
import {
  DESTINATIONS,
  ENVIRONMENTS,
  PLAN_TYPES,
  RECEIPTS_MODES,
  RESPONSE_MODES,
  SENDING_MODES,
  SIGNINGS,
} from '../companies/schemas';
import { PROCEDURES } from '../../db/procedures';
import { bool, dateTime, enumOf, nullable, nullableEnum, num, obj, ref, str, type Schema } from './shared';

// The shapes answers carry: components.schemas and what the paths build on.

/** Spec 2.4, and the shapes built on it (docs/issuing.md). */
export const issueFields: Record<string, Schema> = {
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
export const issueRequired = Object.keys(issueFields).filter((k) => k !== 'warnings');
export const result = nullable({
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
export const documentSchema = obj({
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
export const emailSettings = obj({
  smtp_url: nullable(
    str({
      description:
        "the password shown as ****; one not used (smtp_url_usable false) as scheme, user, host and port only, or **** when it is no URL at all; null: chasqui's server",
    }),
  ),
  smtp_url_usable: nullable({
    type: 'boolean',
    description:
      'false: the stored smtp_url (saved before paths, queries and fragments were refused) is not used, every e-mail fails until it is stored again; null without smtp_url',
  }),
  smtp_url_problem: nullable(str({ description: 'why smtp_url is not used, and how to fix it; null when it is used' })),
  from: nullable(str()),
  reply_to: nullable(str()),
  format: enumOf(['a4', 'ticket']),
  attach_cdr: bool,
  enabled: bool,
  updated_at: nullable(dateTime),
});
export const verdictFields = {
  status_code: str(),
  resolved: bool,
  ticket: nullable(str()),
  result,
  cdr_zip: nullable(str({ contentEncoding: 'base64' })),
};
export const legacyResponse = obj({
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
export const issueError = obj(
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
export const taxProcedure = obj({
  state: enumOf(['pending', 'running', 'done', 'failed', 'not_applicable']),
  attempts: { type: 'integer' },
  last_error: nullable(str()),
  updated_at: nullable(dateTime),
  done_at: nullable(dateTime),
  next_attempt_at: nullable(dateTime),
});

export const company = obj({
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

export const webhookDelivery = obj({
  id: str({ format: 'uuid', description: 'The X-Entrega header of every attempt of this delivery' }),
  external_id: nullable(
    str({
      format: 'uuid',
      description: 'The document of a cpe.resolved notice; null for company.check and webhook.test',
    }),
  ),
  check_event_id: nullable(
    str({ format: 'uuid', description: 'The change a company.check notice carries; null for the others' }),
  ),
  event: enumOf(['cpe.resolved', 'company.check', 'webhook.test']),
  status: enumOf(DELIVERY_STATUSES),
  attempts_made: { type: 'integer' },
  max_attempts: { type: 'integer' },
  next_attempt_at: nullable(dateTime),
  last_error: nullable(str()),
  redelivery_of: nullable(str({ format: 'uuid' })),
  created_at: dateTime,
  completed_at: nullable(dateTime),
});

export const companyCheck = {
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

export const webhookAttempt = obj({
  number: { type: 'integer' },
  url: str(),
  started_at: dateTime,
  http_status: nullable({ type: 'integer' }),
  latency_ms: nullable({ type: 'integer' }),
  error: nullable(str()),
  delivered: { type: 'boolean' },
});

export const webhookDeliveryDetail = obj({
  ...(webhookDelivery.properties as Record<string, Schema>),
  attempts: { type: 'array', items: ref('WebhookAttempt') },
});

export const deliveryParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: str({ format: 'uuid' }),
  description: 'Delivery id (X-Entrega)',
};
export const webhooksTag = { tags: ['webhooks'] };

/** A void request (docs/summaries.md): receipts through the next daily summary (rc, condition 3), invoices through an ra. */
export const voidRequest = obj({
  external_id: str({ format: 'uuid' }),
  reason: str(),
  via: enumOf(['rc', 'ra']),
  status: enumOf(['pending', 'sent', 'accepted', 'observed', 'rejected']),
  document: nullable(obj({ external_id: str({ format: 'uuid' }), filename: str() })),
  // What the last daily summary carrying it answered; null before any (and for an ra: read the ra document).
  result,
  requested_at: dateTime,
});
