import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { TlsFiles } from '../webhooks/support';
import { issue, payload, until, type TestCompany } from '../issuing/support';
import type { TestStack } from '../support/stack';
import type { DocumentRow } from '../../db/documents';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  recipients: string[];
  /** Whether the conversation was upgraded with STARTTLS before the message. */
  secure: boolean;
  /** The user that authenticated, if any. */
  user: string | null;
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpServerHandle {
  port: number;
  url(credentials?: string): string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1 that keeps every message it accepts, parsed by a real
 * MIME parser (mailparser). With `tls`, it offers STARTTLS with that certificate; `refuse` answers RCPT TO with a
 * permanent 550; `users` turns on AUTH PLAIN/LOGIN with those passwords.
 */
export async function startSmtpServer(
  options: { tls?: TlsFiles; refuse?: boolean; users?: Record<string, string> } = {},
): Promise<SmtpServerHandle> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    ...(options.tls ? { key: options.tls.keyPem, cert: options.tls.certPem } : {}),
    disabledCommands: [...(options.tls ? [] : ['STARTTLS']), ...(options.users ? [] : ['AUTH'])],
    authOptional: !options.users,
    // Only offered over TLS, as real servers do.
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.users && options.users[auth.username ?? ''] === auth.password)
        return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse)
        return callback(
          Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 }),
        );
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            mails.push({
              recipients: session.envelope.rcptTo.map((r) => r.address),
              secure: session.secure,
              user: (session.user as string | undefined) ?? null,
              raw,
              parsed,
            });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: (credentials) => `smtp://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (the SMTP server is down). */
export async function closedPort(): Promise<number> {
  const server = await startSmtpServer();
  await server.close();
  return server.port;
}

/** Issues an invoice (demo unless the company is not) with these buyer addresses and waits until SUNAT (the simulator) accepted it. */
export async function acceptedWithEmail(stack: TestStack, company: TestCompany, correo: unknown): Promise<DocumentRow> {
  const body = payload('invoice-basic.json', company.ruc);
  if (correo !== undefined) body.cliente = { ...body.cliente, correo };
  const res = await issue(stack, company.token, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(202);
  return until(stack, res.body.external_id, ['accepted']);
}
