import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server in its own process (test/security/support.ts starts it): prints `{"port":N}`, then one JSON line
 * per connection (`{"event":"connect","from":address}`) and per accepted message (`{"event":"mail","to":[…]}`), so the
 * attack tests see whether chasqui's worker reached it at all.
 */
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const server = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  logger: false,
  onConnect(session, callback) {
    say({ event: 'connect', from: session.remoteAddress });
    callback();
  },
  onData(stream, session, callback) {
    stream.resume();
    stream.on('end', () => {
      say({ event: 'mail', to: session.envelope.rcptTo.map((r) => r.address) });
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => say({ port: (server.server.address() as AddressInfo).port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
