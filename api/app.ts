import Koa from 'koa';
import type { AppDeps } from './deps';
import { envelope } from './middleware/envelope';
import { requestId } from './middleware/request-id';
import { jsonBody } from './middleware/body';
import { healthRouter } from './health';

/** The Koa application: cross-cutting middleware first, then one router per resource. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: true });
  app.use(requestId);
  app.use(envelope);
  app.use(jsonBody());
  for (const router of [healthRouter(deps)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
