import type { Config } from '../core/config';
import type { SecretBox } from '../core/secretbox';
import { checkPublicHost, type Lookup } from '../core/net-guard';
import { parseSmtpUrl, serviceSmtpServer, type SmtpServer } from '../core/smtp-url';
import type { CompanyEmailSettings } from '../db/company-email';
import { senderFor } from './mail';

/** Where a company's e-mail goes out and as whom, or why it cannot (`off`: nothing to send with; `permanent`: refused). */
export type MailRoute =
  | { ok: true; server: SmtpServer; connectTo?: string; from: string; own: boolean }
  | { ok: false; outcome: 'off' | 'permanent'; error: string };

/**
 * The company's own SMTP server (sending as its `from`) or the service's (as the service, named after the company):
 * what the buyer's e-mail (activities/buyer-email.ts) and the panel's test e-mail both send through.
 */
export async function mailRoute(
  deps: { config: Config; secrets: SecretBox; lookup?: Lookup },
  settings: Pick<CompanyEmailSettings, 'smtp_url_sealed' | 'from_address'>,
  companyName: string,
): Promise<MailRoute> {
  const own = settings.smtp_url_sealed ? parseSmtpUrl(deps.secrets.open(settings.smtp_url_sealed)) : null;
  // Stored before the URL was limited to its five parts (issue 32): not used, never retried, until PATCHed again.
  if (own && !own.ok)
    return {
      ok: false,
      outcome: 'permanent',
      error: `the company's SMTP setting (smtp_url) is not used: it ${own.message}; store it again with PATCH /v1/companies/{ruc}/email`,
    };
  if (own) {
    // The company's server is an address its integrator chose: public when configured, and still public now;
    // the connection goes to the address judged here, never to a second answer of the DNS.
    const target = await checkPublicHost(own.server.host, {
      allowPrivate: deps.config.webhookAllowPrivate,
      lookup: deps.lookup,
    });
    if (!target.ok) return { ok: false, outcome: 'permanent', error: `the company's SMTP server ${target.message}` };
    return { ok: true, server: own.server, connectTo: target.addresses[0], from: settings.from_address!, own: true };
  }
  const { smtpUrl, mailFrom } = deps.config.buyers;
  if (!smtpUrl)
    return { ok: false, outcome: 'off', error: "no SMTP server configured (CHASQUI_SMTP_URL, or the company's own)" };
  return { ok: true, server: serviceSmtpServer(smtpUrl), from: senderFor(mailFrom!, companyName), own: false };
}
