import { DELIVERY_STATUSES } from '../../lifecycle/webhooks';
import { enumOf, jsonBody, managed, nullable, obj, ok, page, ref, rucParameter, str, type Schema } from './shared';
import { webhookDeliveryDetail } from './schemas';

const deliveryParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: str({ format: 'uuid' }),
  description: 'Delivery id (X-Entrega)',
};
const webhooksTag = { tags: ['webhooks'] };
const webhookSecret = obj({
  url: str(),
  event: str({ const: 'cpe.resolved' }),
  secret: str({ minLength: 48, maxLength: 48 }),
  note: str(),
});

/** GET a company's webhook deliveries: filtered by status and document, a page at a time. */
const listDeliveries = () =>
  managed(
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
        200: ok('Deliveries', page('deliveries', ref('WebhookDelivery'), str({ format: 'uuid' }))),
      },
    },
    [404, 422],
  );

/** A company's webhook and its deliveries. */
export function webhookPaths() {
  return {
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
              obj({ webhook: obj(webhookSecret.properties as Record<string, Schema>, ['url', 'event', 'note']) }),
              true,
            ),
          },
        },
        [404, 422],
      ),
    },
    '/v1/companies/{ruc}/webhook/secret': {
      parameters: [rucParameter],
      post: managed(
        {
          summary: 'A new secret for the same URL, shown once; notices not yet attempted are signed with it',
          operationId: 'rotate-webhook-secret',
          responses: { 200: ok('Rotated', obj({ webhook: webhookSecret })) },
        },
        [404, 409, 422],
      ),
    },
    '/v1/companies/{ruc}/webhook/test': {
      parameters: [rucParameter],
      post: managed(
        {
          ...webhooksTag,
          summary:
            'Send a webhook.test notice (X-Evento webhook.prueba, no document), signed and delivered like a real one; 10 an hour',
          operationId: 'test-webhook',
          responses: { 202: ok('Test notice queued', obj({ delivery: ref('WebhookDelivery') })) },
        },
        [404, 409, 422],
      ),
    },
    '/v1/companies/{ruc}/webhook/deliveries': {
      parameters: [rucParameter],
      get: listDeliveries(),
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
  };
}
