// Loaded by mocha before any suite: quiet logs unless LOG_LEVEL asks for them, and stop shared servers at the end.
// (Set before anything imports core/logger, hence the require below rather than a hoisted import.)
process.env.NODE_ENV = 'test';

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    const { stopTestServices } = require('./support/services') as typeof import('./support/services');
    await stopTestServices();
  },
};
