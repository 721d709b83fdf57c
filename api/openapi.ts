import Router from '@koa/router';
import { healthPaths, accountPaths } from './openapi/operations';
import { companyPaths, companyFilePaths, companyEmailPaths } from './openapi/companies';
import { cpePaths, cpeActionPaths, voidPaths } from './openapi/cpe';
import { filePaths } from './openapi/files';
import { consultaPaths } from './openapi/consulta';
import { webhookPaths } from './openapi/webhooks';
import { tokenPaths } from './openapi/tokens';
import {
  company,
  companyCheck,
  documentSchema,
  issueError,
  taxProcedure,
  voidRequest,
  webhookAttempt,
  webhookDelivery,
} from './openapi/schemas';
import { obj, str } from './openapi/shared';

/**
 * OpenAPI 3.1 description of every route that exists, served at /v1/openapi.json. Tests compare it with the
 * routers (every route documented, every documented route answering) and validate real responses against it.
 * The paths live per room under api/openapi/; they are spread here in the order the document has always served.
 */

export function openApiDocument() {
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
      ...healthPaths(),
      ...companyPaths(),
      ...tokenPaths(),
      ...companyFilePaths(),
      ...cpePaths(),
      ...filePaths(),
      ...accountPaths(),
      ...cpeActionPaths(),
      ...companyEmailPaths(),
      ...consultaPaths(),
      ...webhookPaths(),
      ...voidPaths(),
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
