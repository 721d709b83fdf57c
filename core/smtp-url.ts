import { isIP } from 'node:net';

/**
 * An SMTP server as chasqui sends through it: nothing but these fields ever reaches the mail library. A URL's query,
 * path or fragment would become transport options there (`sendmail`, `path`, `args`, `proxy`, `service`…: issue 32),
 * so `parseSmtpUrl` refuses them instead of passing them on.
 */
export interface SmtpServer {
  /** smtps://: TLS from the first byte; smtp://: STARTTLS when the server offers it. */
  secure: boolean;
  /** The name (or literal address, without brackets) the URL gives. */
  host: string;
  port: number;
  user: string | null;
  password: string | null;
}

export const SMTP_URL_FORM =
  'an smtp:// (STARTTLS when offered) or smtps:// URL with a host and nothing after the port (no path, query or fragment), e.g. smtps://user:password@mail.example.pe:465';

/** smtp://user:password@host:port or smtps://…, percent-encoding allowed in user and password; anything else refused. */
export function parseSmtpUrl(text: string): { ok: true; server: SmtpServer } | { ok: false; message: string } {
  const refused = { ok: false as const, message: `must be ${SMTP_URL_FORM}` };
  const extra = {
    ok: false as const,
    message: `must carry only scheme, user, password, host and port: no path, query or fragment (${SMTP_URL_FORM.replace(/^an .*?, e\.g\. /, 'e.g. ')})`,
  };
  // An unencoded ? or # can only start a query or a fragment: refused before the parser gets to drop an empty one.
  if (/[?#]/.test(text)) return extra;
  if (/[\s\\]/.test(text)) return refused;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused;
  }
  if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) return refused;
  if (url.search || url.hash || !['', '/'].includes(url.pathname)) return extra;
  const port = url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return refused;
  let user: string | null;
  let password: string | null;
  try {
    user = url.username ? decodeURIComponent(url.username) : null;
    password = url.password ? decodeURIComponent(url.password) : null;
  } catch {
    return refused;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A non-special scheme keeps its host as written: only a DNS name or a literal address is a host.
  if (
    !isIP(host) &&
    !/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/.test(host)
  )
    return refused;
  return { ok: true, server: { secure: url.protocol === 'smtps:', host: host.toLowerCase(), port, user, password } };
}

/** CHASQUI_SMTP_URL, already judged by loadConfig: the same five fields. */
export function serviceSmtpServer(text: string): SmtpServer {
  const parsed = parseSmtpUrl(text);
  if (!parsed.ok) throw new Error(`CHASQUI_SMTP_URL ${parsed.message}`);
  return parsed.server;
}
