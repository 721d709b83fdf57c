import Koa from 'koa';
import type Router from '@koa/router';
import type { AppDeps } from './deps';
import { envelope, onAppError } from './middleware/envelope';
import { requestId } from './middleware/request-id';
import { hsts } from './middleware/hsts';
import { nosniff } from './middleware/nosniff';
import { healthRouter } from './health';
import { companiesRouter } from './companies/routes';
import { openApiRouter } from './openapi';
import { cpeRouter } from './cpe/routes';
import { voidRouter } from './cpe/void';
import { webhooksRouter } from './webhooks/routes';
import { pdfRouter } from './cpe/pdf';
import { logoRouter } from './companies/logo';
import { checksRouter } from './companies/checks';
import { metricsRouter, requestMetrics } from './metrics';
import { accountRouter } from './account';
import { cpeListRouter } from './cpe/list';
import { cpeFilesRouter } from './cpe/files';
import { consolePages } from './console/router';
import { companyEmailRouter } from './companies/email';
import { consultaRouter } from './consulta/routes';
import { captureClientAddress } from './client-address';

/** One router per resource (the OpenAPI test walks these to check every route is documented). */
export function createRouters(deps: AppDeps): Router[] {
  return [
    healthRouter(deps),
    companiesRouter(deps),
    logoRouter(deps),
    checksRouter(deps),
    accountRouter(deps),
    cpeListRouter(deps),
    cpeRouter(deps),
    cpeFilesRouter(deps),
    pdfRouter(deps),
    voidRouter(deps),
    webhooksRouter(deps),
    metricsRouter(deps),
    openApiRouter(),
    companyEmailRouter(deps),
    consultaRouter(deps),
  ];
}

/** The Koa application: cross-cutting middleware first, then the routers. */
export function createApp(deps: AppDeps): Koa {
  // The client's address (per-address limits, logs): the socket's, or with CHASQUI_TRUST_PROXY=N the one N hops from
  // the right of X-Forwarded-For; what a client writes further left is never believed.
  const trusted = deps.config.trustProxy;
  const app = new Koa({ proxy: trusted > 0, maxIpsCount: trusted });
  app.on('error', onAppError);
  app.use(captureClientAddress);
  app.use(requestMetrics);
  app.use(requestId);
  app.use(hsts(deps));
  app.use(nosniff);
  // The console's pages answer HTML and read forms: they sit before the JSON envelope. JSON bodies are read by each
  // route once its token and limits admitted the request (api/guard.ts).
  app.use(consolePages(deps));
  app.use(envelope);
  for (const router of createRouters(deps)) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
