import { findCompanyEmailSettings } from '../../db/company-email';
import { checkPublicHost } from '../../core/net-guard';
import { parseSmtpUrl } from '../../core/smtp-url';
import { result, type Check } from './context';

/**
 * A company's own SMTP server as the buyer's e-mail would use it: a setting stored before issue 32 with anything but
 * scheme, user, password, host and port is not used (the e-mail fails), and a host that stopped being public neither.
 * Only for companies with their own server (or that had one: the row then says it is gone).
 */
export const emailServerCheck: Check = async ({ config, db, secrets, lookup }, { company, previous }) => {
  const sealed = (await findCompanyEmailSettings(db, company.id))?.smtp_url_sealed ?? null;
  if (!sealed)
    return previous.has('email_server')
      ? [result('email_server', 'ok', "no own SMTP server: buyers' e-mails go through chasqui's")]
      : [];
  const parsed = parseSmtpUrl(secrets.open(sealed));
  const fix = `store it again with PATCH /v1/companies/${company.ruc}/email (smtp://user:password@host:port)`;
  if (!parsed.ok)
    return [
      result(
        'email_server',
        'fail',
        `the company's SMTP setting is not used, so its buyers get no e-mail: it ${parsed.message}; ${fix}`,
      ),
    ];
  const { host, port } = parsed.server;
  const target = await checkPublicHost(host, { allowPrivate: config.webhookAllowPrivate, lookup });
  if (!target.ok)
    return [result('email_server', 'fail', `the company's SMTP server ${target.message}; ${fix}`, { host, port })];
  return [result('email_server', 'ok', `the company's SMTP server ${host}:${port} is a public host`, { host, port })];
};
