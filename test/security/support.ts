import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface SmtpProcess {
  port: number;
  /** What the server process reported so far: each connection and each accepted message. */
  events: { event: 'connect' | 'mail'; from?: string; to?: string[] }[];
  close(): Promise<void>;
}

/** The SMTP server of smtp-server-process.ts in a child process of its own (issue 32: a real server process). */
export function startSmtpProcess(): Promise<SmtpProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'smtp-server-process.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events: SmtpProcess['events'] = [];
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP server process exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.port)
        resolve({
          port: message.port,
          events,
          close: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      else events.push(message);
    });
  });
}

/** A TCP listener that only counts who connects: a "proxy" or an internal service nothing may reach. */
export async function startListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A multipart/form-data body with the certificate file and its password. */
export function certificateForm(pfx: Buffer, password: string): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----chasqui${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="c.pfx"\r\n` +
        'Content-Type: application/x-pkcs12\r\n\r\n',
    ),
    pfx,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${password}\r\n`),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}
