import { errors, nullable, obj, ok, security, str } from './shared';

/** Liveness, readiness and this document. */
export function healthPaths() {
  return {
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
  };
}

/** The account behind a token, and the Prometheus metrics. */
export function accountPaths() {
  return {
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
    '/v1/account/audit': {
      get: {
        tags: ['companies'],
        security,
        summary:
          "The account's audit log, newest first: who (a user, a token, support), when, from where, what changed (old → new, secrets masked)",
        operationId: 'get-account-audit',
        parameters: [
          { name: 'ruc', in: 'query', schema: str({ pattern: '^\\d{11}$' }), description: 'only this company' },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          { name: 'before', in: 'query', schema: str(), description: 'next_before of the previous page' },
        ],
        responses: {
          200: ok(
            'Audit entries',
            obj({
              entries: {
                type: 'array',
                items: obj({
                  id: str(),
                  at: str({ format: 'date-time' }),
                  company_ruc: nullable(str()),
                  actor: obj({
                    kind: str({ enum: ['account-token', 'company-token', 'console', 'support', 'user', 'system'] }),
                    name: str(),
                    address: nullable(str()),
                    request_id: nullable(str()),
                  }),
                  action: str({ description: 'dotted: user.invite, user.role, company.sol_credentials, …' }),
                  changes: { type: 'object', description: 'field → { from, to }; a secret shows only that it changed' },
                }),
              },
              count: { type: 'integer' },
              next_before: nullable(str()),
            }),
          ),
          ...errors(401, 403, 404, 422, 429),
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
  };
}
