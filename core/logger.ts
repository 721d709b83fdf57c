import pino from 'pino';

/** Keys whose values never reach a log line, wherever they appear in a logged object. */
const SECRET_KEYS = [
  'password', 'sol_password', 'solPassword', 'secret', 'client_secret', 'clientSecret', 'token', 'access_token',
  'authorization', 'Authorization', 'private_key', 'privateKey', 'pfx', 'certificate', 'xml', 'contentFile',
];

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  base: { service: 'chasqui' },
  redact: {
    paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), ...SECRET_KEYS.map((k) => `*.*.${k}`), 'req.headers.authorization'],
    censor: '[redacted]',
  },
  timestamp: pino.stdTimeFunctions.isoTime,
  // Synchronous writes: lines reach stdout in the order they were logged, also in the last moments before exit
  // (with the default asynchronous writer the last shutdown lines came out swapped).
}, pino.destination({ dest: 1, sync: true }));

export type Logger = typeof logger;
