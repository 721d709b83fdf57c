import Router from '@koa/router';
import Joi from 'joi';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { guard } from '../guard';
import { ACCOUNT_SCOPE } from '../../db/tokens';
import {
  DEFAULT_EMAIL_SETTINGS,
  findCompanyEmailSettings,
  saveCompanyEmailSettings,
  type CompanyEmailSettings,
} from '../../db/company-email';
import { isMailbox } from '../../core/config';
import { checkPublicHost } from '../../core/net-guard';
import { parseSmtpUrl, type SmtpServer } from '../../core/smtp-url';
import { isEmailAddress } from '../../documents/input/parties';
import type { SecretBox } from '../../core/secretbox';
import { loadCompany } from './routes';
import { validate } from './schemas';
import type { CompanyRow } from '../../db/companies';
import { recordChange, type Actor } from '../../db/audit';
import { requestActor } from '../audit';

const smtpUrl = Joi.string()
  .max(2000)
  .custom((value: string, helpers) => {
    const parsed = parseSmtpUrl(value);
    return parsed.ok ? value : helpers.error('smtp.url', { why: parsed.message });
  })
  .messages({ 'smtp.url': '{#label} {#why}' });

const emailSettingsSchema = Joi.object({
  smtp_url: smtpUrl.allow(null),
  from: Joi.string()
    .max(300)
    .custom((value: string, helpers) => (isMailbox(value) ? value : helpers.error('mail.from')))
    .allow(null)
    .messages({ 'mail.from': '{#label} must be an address or "Name <address>" on one line' }),
  reply_to: Joi.string()
    .max(254)
    .custom((value: string, helpers) => (isEmailAddress(value) ? value : helpers.error('mail.address')))
    .allow(null)
    .messages({ 'mail.address': '{#label} must be one e-mail address (name@domain)' }),
  format: Joi.string().valid('a4', 'ticket'),
  attach_cdr: Joi.boolean(),
  enabled: Joi.boolean(),
}).min(1);

interface EmailSettingsInput {
  smtp_url?: string | null;
  from?: string | null;
  reply_to?: string | null;
  format?: 'a4' | 'ticket';
  attach_cdr?: boolean;
  enabled?: boolean;
}

/**
 * The stored SMTP URL as the API shows it, the password as ****, and whether the e-mail can use it. One stored before
 * the five-part parser (issue 32) with a path, query or fragment is not used (activities/buyer-email.ts): it is shown
 * as scheme, user, host and port only, since what follows may hold other secrets (a proxy's credentials, say).
 */
function presentSmtpUrl(ruc: string, stored: string) {
  const parsed = parseSmtpUrl(stored);
  const url = URL.canParse(stored) ? new URL(stored) : null;
  if (url?.password) url.password = '****';
  if (parsed.ok) return { smtp_url: url!.toString(), smtp_url_usable: true, smtp_url_problem: null };
  if (url) {
    url.search = '';
    url.hash = '';
    url.pathname = '';
  }
  return {
    smtp_url: url?.toString() ?? '****',
    smtp_url_usable: false,
    smtp_url_problem: `not used, so the buyers get no e-mail: it ${parsed.message}; store it again with PATCH /v1/companies/${ruc}/email`,
  };
}

/** The settings as the API shows them: the SMTP URL without its password, and whether it is used. */
function presentSettings(
  ruc: string,
  secrets: SecretBox,
  settings: Omit<CompanyEmailSettings, 'company_id' | 'updated_at'> & { updated_at?: Date },
) {
  const smtp = settings.smtp_url_sealed
    ? presentSmtpUrl(ruc, secrets.open(settings.smtp_url_sealed))
    : { smtp_url: null, smtp_url_usable: null, smtp_url_problem: null };
  return {
    ...smtp,
    from: settings.from_address,
    reply_to: settings.reply_to,
    format: settings.format,
    attach_cdr: settings.attach_cdr,
    enabled: settings.enabled,
    updated_at: settings.updated_at ? settings.updated_at.toISOString() : null,
  };
}

/**
 * `GET|PATCH /v1/companies/{ruc}/email` (docs/buyers.md): how the company's buyers get their documents by e-mail.
 * Without settings the service's SMTP server sends, as the service, an A4 PDF and the XML.
 */
export function companyEmailRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/companies' });
  const guarded = guard(deps, ACCOUNT_SCOPE);

  router.get('/:ruc/email', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const settings = (await findCompanyEmailSettings(deps.db, company.id)) ?? DEFAULT_EMAIL_SETTINGS;
    ctx.body = {
      success: true,
      message: `E-mail settings of ${company.ruc}`,
      data: { email: presentSettings(company.ruc, deps.secrets, settings) },
    };
  });

  router.patch('/:ruc/email', ...guarded, async (ctx) => {
    const company = await loadCompany(deps, ctx);
    const saved = await saveEmailSettings(deps, company, ctx.request.body, requestActor(ctx));
    ctx.body = {
      success: true,
      message: 'E-mail settings stored',
      data: { email: presentSettings(company.ruc, deps.secrets, saved) },
    };
  });

  return router;
}

/** The audit log's view of the settings: the SMTP URL with its password as ****, never the password. */
function audited(ruc: string, secrets: SecretBox, settings: Omit<CompanyEmailSettings, 'company_id' | 'updated_at'>) {
  const {
    updated_at: _at,
    smtp_url_usable: _usable,
    smtp_url_problem: _problem,
    ...shown
  } = presentSettings(ruc, secrets, settings);
  return shown;
}

/**
 * Validates `body` as PATCH /email does (422 naming the field), checks the SMTP server's host is public, and stores
 * the settings with their audit row (SMTP password masked) in one transaction: the API's and the panel's one path.
 */
export async function saveEmailSettings(
  deps: AppDeps,
  company: CompanyRow,
  body: unknown,
  actor: Actor,
): Promise<CompanyEmailSettings> {
  const input = validate<EmailSettingsInput>(emailSettingsSchema, body);
  const stored = (await findCompanyEmailSettings(deps.db, company.id)) ?? DEFAULT_EMAIL_SETTINGS;
  const ownServer = input.smtp_url !== undefined ? input.smtp_url !== null : stored.smtp_url_sealed !== null;
  const from = input.from !== undefined ? input.from : stored.from_address;
  // The service's server sends as the service (its domain's SPF/DKIM): a company's sender needs its own server.
  if (ownServer && !from)
    throw badRequest('Your own SMTP server needs the sender it sends as', { from: ['required with smtp_url'] });
  if (!ownServer && input.from)
    throw badRequest("chasqui's SMTP server sends as chasqui, named after the company", {
      from: ['needs smtp_url (your own server); set reply_to to receive the answers'],
    });
  if (input.smtp_url) {
    const { server } = parseSmtpUrl(input.smtp_url) as { ok: true; server: SmtpServer };
    const target = await checkPublicHost(server.host, {
      allowPrivate: deps.config.webhookAllowPrivate,
      lookup: deps.lookup,
    });
    if (!target.ok) throw badRequest(`The SMTP server ${target.message}`, { smtp_url: [target.message] });
  }
  return deps.db.transaction(async (trx) => {
    const saved = await saveCompanyEmailSettings(trx, company.id, {
      ...(input.smtp_url !== undefined ? { smtp_url_sealed: input.smtp_url && deps.secrets.seal(input.smtp_url) } : {}),
      ...(input.from !== undefined || !ownServer ? { from_address: ownServer ? from : null } : {}),
      ...(input.reply_to !== undefined ? { reply_to: input.reply_to } : {}),
      ...(input.format ? { format: input.format } : {}),
      ...(input.attach_cdr !== undefined ? { attach_cdr: input.attach_cdr } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    });
    const [was, is] = [audited(company.ruc, deps.secrets, stored), audited(company.ruc, deps.secrets, saved)];
    await recordChange(trx, {
      accountId: company.account_id,
      companyId: company.id,
      companyRuc: company.ruc,
      actor,
      action: 'company.email',
      changes: Object.fromEntries(
        (Object.keys(is) as Array<keyof typeof is>)
          .filter((key) =>
            key === 'smtp_url' ? stored.smtp_url_sealed !== saved.smtp_url_sealed : was[key] !== is[key],
          )
          .map((key) => [key, { from: was[key], to: is[key] }]),
      ),
    });
    return saved;
  });
}
