import type { AppDeps } from '../../deps';
import { sendMail } from '../../../buyers/mail';
import { parseSmtpUrl } from '../../../core/smtp-url';
import { escapeHtml } from '../../../core/html';

/** The one-time links the console mails: where each lands and the words of its message. */
export const LINK_PATHS = { invite: '/console/invitacion', reset: '/console/restablecer' } as const;

export interface PeopleMail {
  to: string;
  subject: string;
  /** Paragraphs, in order; the link goes after them. */
  lines: string[];
  link: string;
}

/**
 * The absolute address of a one-time link: under CHASQUI_PUBLIC_URL only. Never the request's Host header, which a
 * sender can choose: a reset link pointing elsewhere would hand the secret to whoever names the host.
 */
export function linkUrl(deps: AppDeps, kind: keyof typeof LINK_PATHS, secret: string): string | null {
  const base = deps.config.buyers.publicUrl;
  return base ? `${base}${LINK_PATHS[kind]}?t=${secret}` : null;
}

/** Whether the service can mail people at all (its SMTP server, sender and public address configured). */
export const canMail = (deps: AppDeps) =>
  !!(deps.config.buyers.smtpUrl && deps.config.buyers.mailFrom && deps.config.buyers.publicUrl);

/** Sends through the service's SMTP server (CHASQUI_SMTP_URL), as buyers' e-mail is; true when the server took it. */
export async function sendPeopleMail(deps: AppDeps, mail: PeopleMail): Promise<boolean> {
  const parsed = parseSmtpUrl(deps.config.buyers.smtpUrl ?? '');
  if (!parsed.ok || !deps.config.buyers.mailFrom) return false;
  const text = [...mail.lines, mail.link, 'Si no esperaba este correo, ignórelo: sin el enlace nada cambia.'];
  const outcome = await sendMail(
    parsed.server,
    {
      from: deps.config.buyers.mailFrom,
      to: mail.to,
      subject: mail.subject,
      text: text.join('\n\n'),
      html: `<!doctype html><html lang="es"><body>${text.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</body></html>`,
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { caFile: deps.config.buyers.smtpCaFile },
  );
  return outcome.sent;
}
