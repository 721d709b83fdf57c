import type Mail from 'nodemailer/lib/mailer';
import type { AppDeps } from '../deps';
import type { CompanyRow } from '../../db/companies';
import { DEFAULT_EMAIL_SETTINGS, findCompanyEmailSettings } from '../../db/company-email';
import { admitKeyed } from '../../db/rate-limits';
import { isEmailAddress } from '../../documents/input/parties';
import { mailRoute } from '../../buyers/mail-route';
import { mailCeiling } from '../../buyers/mail-ceiling';
import { sendMail } from '../../buyers/mail';
import { logger } from '../../core/logger';

/** Why a test e-mail was not sent: a bad address, the company's or the account's rate, no server, or the server's answer. */
export type TestEmailRefusal = 'address' | 'rate' | 'ceiling' | 'off' | 'permanent' | 'transient';

export type TestEmailOutcome =
  | { sent: true; from: string; own: boolean }
  | { sent: false; reason: TestEmailRefusal; error: string | null; resetSeconds?: number };

/**
 * Sends a test message to `to` the way buyers' e-mail goes (buyers/mail-route.ts, sendMail: the company's server or
 * the service's, the host judged public again, the account's hourly ceiling taken), so what the person reads is what
 * a buyer gets. Bounded: the address checked as a buyer's is, and CHASQUI_CONSOLE_TEST_EMAIL_RATE per company.
 */
export async function sendTestEmail(deps: AppDeps, company: CompanyRow, to: string): Promise<TestEmailOutcome> {
  if (!isEmailAddress(to)) return { sent: false, reason: 'address', error: null };
  const { limit, windowSeconds } = deps.config.consoleTestEmailRate;
  const rate = await admitKeyed(deps.db, `test-email:${company.id}`, limit, windowSeconds);
  if (!rate.admitted) return { sent: false, reason: 'rate', error: null, resetSeconds: rate.resetSeconds };
  const settings = (await findCompanyEmailSettings(deps.db, company.id)) ?? DEFAULT_EMAIL_SETTINGS;
  const route = await mailRoute(deps, settings, company.business_name);
  if (!route.ok) return { sent: false, reason: route.outcome, error: route.error };
  const ceiling = await mailCeiling(deps.db, deps.config, {
    accountId: company.account_id,
    demo: company.environment === '01',
    take: true,
  });
  if (ceiling.reached)
    return { sent: false, reason: 'ceiling', error: ceiling.message, resetSeconds: ceiling.resetSeconds };
  const message: Mail.Options = {
    from: route.from,
    to,
    ...(settings.reply_to ? { replyTo: settings.reply_to } : {}),
    subject: `Correo de prueba de ${company.business_name}`,
    text:
      `Este es un correo de prueba enviado desde el panel de chasqui para ${company.business_name} ` +
      `(RUC ${company.ruc}). Sus compradores recibirán los comprobantes desde este mismo remitente.`,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const sent = await sendMail(route.server, message, {
    caFile: deps.config.buyers.smtpCaFile,
    connectTo: route.connectTo,
  });
  if (sent.sent) return { sent: true, from: route.from, own: route.own };
  logger.warn({ ruc: company.ruc, error: sent.error }, 'test e-mail not sent');
  return { sent: false, reason: sent.permanent ? 'permanent' : 'transient', error: sent.error };
}
