import { ROLL_OVERLAPS, TOKEN_NAME_MAX } from '../companies/schemas';
import { dateTime, enumOf, jsonBody, managed, nullable, obj, ok, rucParameter, str } from './shared';

/** A company's named signing tokens (issue 42; docs/companies.md, "Signing tokens"). */

const signingToken = obj({
  id: str({ format: 'uuid' }),
  name: nullable(str({ description: 'Null for tokens made by POST …/token or before tokens had names' })),
  prefix: nullable(str({ description: 'The first 12 characters; null for tokens made before prefixes were stored' })),
  created_at: dateTime,
  last_used_at: nullable(str({ format: 'date-time', description: 'Written at most once a minute per token' })),
  expires_at: nullable(str({ format: 'date-time', description: 'Set when the token was rolled with an overlap' })),
});
const secret = { token: str({ pattern: '^chq_sig_' }), token_note: str() };
const tokenParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: str({ format: 'uuid' }),
  description: 'The signing token id (from the list)',
};

export function tokenPaths() {
  return {
    '/v1/companies/{ruc}/tokens': {
      parameters: [rucParameter],
      get: managed(
        {
          summary: 'The company signing tokens that still work, oldest first (never their secret)',
          operationId: 'list-tokens',
          responses: {
            200: ok('Tokens', obj({ tokens: { type: 'array', items: signingToken }, count: { type: 'integer' } })),
          },
        },
        [404, 422],
      ),
      post: managed(
        {
          summary: 'Generate a named signing token; its secret is answered once',
          operationId: 'create-token',
          requestBody: jsonBody(obj({ name: str({ minLength: 1, maxLength: TOKEN_NAME_MAX }) })),
          responses: { 201: ok('Generated', obj({ ...secret, signing_token: signingToken })) },
        },
        [404, 422],
      ),
    },
    '/v1/companies/{ruc}/tokens/{id}': {
      parameters: [rucParameter, tokenParameter],
      delete: managed(
        {
          summary: 'Revoke the token now: its next request answers 401',
          operationId: 'revoke-token',
          responses: { 200: ok('Revoked', obj({ signing_token: signingToken })) },
        },
        [404, 422],
      ),
    },
    '/v1/companies/{ruc}/tokens/{id}/roll': {
      parameters: [rucParameter, tokenParameter],
      post: managed(
        {
          summary:
            'Generate a successor with the same name; the old token works for expires_in more (none: stops now), then answers 401',
          operationId: 'roll-token',
          requestBody: jsonBody(obj({ expires_in: enumOf(Object.keys(ROLL_OVERLAPS)) })),
          responses: {
            201: ok(
              'Rolled',
              obj({
                ...secret,
                signing_token: signingToken,
                rolled: obj({ id: str({ format: 'uuid' }), expires_at: dateTime }),
              }),
            ),
          },
        },
        [404, 422],
      ),
    },
  };
}
