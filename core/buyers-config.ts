/**
 * The buyer's e-mail and the consultation page's settings (docs/configuration.md), read for core/config.ts through
 * env-values.ts as heavy-config.ts reads the heavy-work pool's.
 */
import { parseSmtpUrl } from './smtp-url';
import { ConfigError, int, rateOf, str, type Rate } from './env-values';

/** The buyer's e-mail and the consultation page (docs/buyers.md). */
export interface BuyersConfig {
  /** The service's SMTP server (smtp:// with STARTTLS when offered, or smtps://); a company may set its own. */
  smtpUrl: string | null;
  /** The service's sender (`Name <address>` or an address). */
  mailFrom: string | null;
  /** PEM file of an extra CA trusted for SMTP servers (a test or in-house server). */
  smtpCaFile: string | null;
  /** chasqui's public address: the links of the e-mail and of /consulta; https makes console cookies Secure. */
  publicUrl: string | null;
  /** /consulta: at most `limit` lookups per client address in `windowSeconds`. */
  consultaRate: Rate;
  /** /consulta's file links: downloads per client address, and per document from all addresses together. */
  consultaDownloadRate: Rate;
  consultaDocumentRate: Rate;
  /** Buyer e-mails an account may send in any hour (CHASQUI_MAIL_PER_ACCOUNT_HOUR; 0: no ceiling). */
  mailPerAccountHour: number;
  /** The same ceiling for demo documents, lower: their text is the account's own (…_DEMO). */
  mailPerAccountHourDemo: number;
}

export function buyersConfigOf(env: NodeJS.ProcessEnv): BuyersConfig {
  return {
    smtpUrl: smtpUrlOf(env),
    mailFrom: mailFromOf(env),
    smtpCaFile: str(env, 'CHASQUI_SMTP_CA_FILE'),
    publicUrl: publicUrlOf(env),
    consultaRate: rateOf(env, 'CHASQUI_CONSULTA_RATE', '10/60'),
    consultaDownloadRate: rateOf(env, 'CHASQUI_CONSULTA_DOWNLOAD_RATE', '30/60'),
    consultaDocumentRate: rateOf(env, 'CHASQUI_CONSULTA_DOCUMENT_RATE', '20/60'),
    mailPerAccountHour: int(env, 'CHASQUI_MAIL_PER_ACCOUNT_HOUR', 1000),
    mailPerAccountHourDemo: int(env, 'CHASQUI_MAIL_PER_ACCOUNT_HOUR_DEMO', demoMailDefault(env)),
  };
}

/** `smtp://` or `smtps://` with a host and nothing but user, password and port (core/smtp-url.ts); the password is never echoed back. */
function smtpUrlOf(env: NodeJS.ProcessEnv): string | null {
  const raw = str(env, 'CHASQUI_SMTP_URL');
  if (!raw) return null;
  const parsed = parseSmtpUrl(raw);
  if (!parsed.ok) throw new ConfigError(`CHASQUI_SMTP_URL ${parsed.message}`);
  return raw;
}

/** A sender: `address` or `Name <address>`, on one line. */
export function isMailbox(value: string): boolean {
  return (
    /^(?:[^<>\r\n\u0000-\u001F]{1,100} )?<?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/.test(value) &&
    value.includes('<') === value.endsWith('>')
  );
}

function mailFromOf(env: NodeJS.ProcessEnv): string | null {
  const raw = str(env, 'CHASQUI_MAIL_FROM');
  if (raw && !isMailbox(raw))
    throw new ConfigError(`CHASQUI_MAIL_FROM must be an address or "Name <address>" on one line, got '${raw}'`);
  return raw;
}

function publicUrlOf(env: NodeJS.ProcessEnv): string | null {
  const raw = str(env, 'CHASQUI_PUBLIC_URL');
  if (!raw) return null;
  if (!/^https?:\/\/[^\s/]+/.test(raw))
    throw new ConfigError(`CHASQUI_PUBLIC_URL must be an http(s) URL (https://facturas.example.pe), got '${raw}'`);
  return raw.replace(/\/+$/, '');
}

/** 50 demo e-mails an hour, or the production ceiling when that one is lower: the demo one is never the higher. */
function demoMailDefault(env: NodeJS.ProcessEnv): number {
  const production = int(env, 'CHASQUI_MAIL_PER_ACCOUNT_HOUR', 1000);
  return production > 0 ? Math.min(50, production) : 50;
}
