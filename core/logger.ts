import pino from 'pino';

/** Keys whose values never reach a log line, wherever they appear in a logged object. */
const SECRET_KEYS = [
  'password', 'sol_password', 'solPassword', 'secret', 'client_secret', 'clientSecret', 'token', 'access_token',
  'authorization', 'Authorization', 'private_key', 'privateKey', 'pfx', 'certificate', 'xml', 'contentFile',
];

/**
 * Asynchronous writes: a line costs an append to a buffer, and lines logged while a write is in flight leave together
 * in the next one (a synchronous write per line was a tenth of chasqui's CPU per document at the default level,
 * issue 29). One stream keeps the lines in order; `flushLog`, awaited before every exit (cli/main.ts), writes out the
 * rest after the last shutdown line, and an exit by any other way (a second Ctrl-C, a crash) writes what is left
 * synchronously.
 */
const destination = pino.destination({ dest: 1, sync: false });
process.on('exit', () => {
  try {
    destination.flushSync();
  } catch {
    // Nothing more can be done while exiting (stdout closed).
  }
});

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { service: 'chasqui' },
  redact: {
    paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), ...SECRET_KEYS.map((k) => `*.*.${k}`), 'req.headers.authorization'],
    censor: '[redacted]',
  },
  timestamp: pino.stdTimeFunctions.isoTime,
}, destination);

/**
 * Resolves once every line logged so far is written (at most `ms`, should stdout be stuck): before exiting, and before
 * writing to stdout directly after log lines (`npm start`'s welcome).
 */
export function flushLog(ms = 2_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export type Logger = typeof logger;
