import { findCompanyEmailSettings } from '../../db/company-email';
import { checkPublicHost } from '../../core/net-guard';
import { parseSmtpUrl } from '../../core/smtp-url';
import { result, type Check } from './context';
import { message } from '../../lifecycle/messages';

/**
 * A company's own SMTP server as the buyer's e-mail would use it: a setting stored before issue 32 with anything but
 * scheme, user, password, host and port is not used (the e-mail fails), and a host that stopped being public neither.
 * Only for companies with their own server (or that had one: the row then says it is gone).
 */
export const emailServerCheck: Check = async ({ config, db, secrets, lookup }, { company, previous }) => {
  const sealed = (await findCompanyEmailSettings(db, company.id))?.smtp_url_sealed ?? null;
  if (!sealed)
    return previous.has('email_server') ? [result('email_server', 'ok', message('check.email.chasqui'))] : [];
  const parsed = parseSmtpUrl(secrets.open(sealed));
  if (!parsed.ok)
    return [
      result('email_server', 'fail', message('check.email.unusable', { reason: parsed.message, ruc: company.ruc })),
    ];
  const { host, port } = parsed.server;
  const target = await checkPublicHost(host, { allowPrivate: config.webhookAllowPrivate, lookup });
  if (!target.ok)
    return [
      result(
        'email_server',
        'fail',
        message('check.email.refused', { reason: target.message, ruc: company.ruc, host }),
        {
          host,
          port,
        },
      ),
    ];
  return [result('email_server', 'ok', message('check.email.public', { host, port }), { host, port })];
};
