// Loaded by mocha before any suite: quiet logs unless LOG_LEVEL asks for them.
process.env.NODE_ENV = 'test';
