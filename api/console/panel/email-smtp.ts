import type { CompanyRow } from '../../../db/companies';
import type { CompanyEmailSettings } from '../../../db/company-email';
import type { SmtpServer } from '../../../core/smtp-url';
import { html, type Html } from '../html';
import type { Viewer } from '../context';
import { companyPath } from './frame';
import { csrfField, field, formError, type FieldErrors } from './forms';

/**
 * The e-mail tab's SMTP form: the five parts PATCH /email's smtp_url is made of (security, host, port, user,
 * password), From, Reply-To, the PDF's format, the CDR attached and whether buyers get e-mail at all.
 */

/** The API's refused fields in Spanish (the host's error stands for smtp_url). */
export const SMTP_WORDS: FieldErrors = {
  smtp_url: 'El servidor debe ser un nombre de host o una dirección pública, con un puerto de 1 a 65535.',
  from: 'Con servidor propio, escriba el remitente: una dirección o «Nombre <dirección>» en una línea. Con el servidor de chasqui se deja vacío.',
  reply_to: 'Escriba una sola dirección de correo (nombre@dominio).',
};

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^[0-9A-Fa-f:.]+$/;

function choice(name: string, label: string, options: Array<[value: string, words: string]>, selected: string): Html {
  return html`<div class="field">
    <label for="smtp-${name}">${label}</label>
    <select id="smtp-${name}" name="${name}">
      ${options.map(([value, words]) => html`<option value="${value}" ${value === selected ? html`selected` : ''}>${words}</option>`)}
    </select>
  </div>`;
}

function checkbox(name: string, label: string, checked: boolean): Html {
  return html`<div class="field check-field">
    <input id="smtp-${name}" name="${name}" type="checkbox" value="1" ${checked ? html`checked` : ''} />
    <label for="smtp-${name}">${label}</label>
  </div>`;
}

function stateWords(settings: Pick<CompanyEmailSettings, 'smtp_url_sealed' | 'enabled'>, server: SmtpServer | null) {
  const sending = !settings.smtp_url_sealed
    ? 'Se envía con el servidor de chasqui, a nombre de la empresa.'
    : server
      ? `Servidor propio: ${server.host}, puerto ${server.port} (${server.secure ? 'TLS' : 'STARTTLS'}); usuario ${server.user ?? '—'}; ${server.password ? 'clave guardada' : 'sin clave'}.`
      : 'La configuración guardada del servidor propio no se usa (tiene partes de más): guárdela de nuevo.';
  return settings.enabled ? sending : `${sending} El envío a los compradores está desactivado.`;
}

/** The form, filled with what is stored (or what was typed, after a refusal); the password is never filled in. */
export function smtpForm(
  viewer: Viewer,
  company: CompanyRow,
  settings: Omit<CompanyEmailSettings, 'company_id' | 'updated_at'>,
  server: SmtpServer | null,
  errors: FieldErrors,
  typed?: URLSearchParams,
): Html {
  const value = (name: string, stored: unknown) => (typed ? (typed.get(name) ?? '') : stored ? String(stored) : '');
  const shown = { ...errors, host: errors.host ?? errors.smtp_url };
  const own = typed ? typed.get('server') === 'own' : settings.smtp_url_sealed !== null;
  return html`<h2>Correo a los compradores</h2>
    <p>${stateWords(settings, server)}</p>
    <form class="card" method="post" action="${companyPath(company.ruc, 'email')}/settings">
      ${csrfField(viewer)}${formError(errors)}
      ${choice(
        'server',
        'Servidor de salida',
        [
          ['service', 'El de chasqui'],
          ['own', 'Uno propio (SMTP)'],
        ],
        own ? 'own' : 'service',
      )}
      ${choice(
        'security',
        'Seguridad del servidor propio',
        [
          ['starttls', 'STARTTLS (puerto 587)'],
          ['tls', 'TLS (puerto 465)'],
        ],
        value('security', server?.secure ? 'tls' : 'starttls'),
      )}
      ${field('smtp', { name: 'host', label: 'Servidor (nombre o dirección)', value: value('host', server?.host), maxlength: 253 }, shown)}
      ${field('smtp', { name: 'port', label: 'Puerto', value: value('port', server?.port), maxlength: 5 }, shown)}
      ${field('smtp', { name: 'user', label: 'Usuario', value: value('user', server?.user), maxlength: 200 }, shown)}
      ${field(
        'smtp',
        {
          name: 'password',
          label: 'Clave',
          type: 'password',
          maxlength: 200,
          hint: 'Vacía: se conserva la guardada, si el servidor, el puerto y el usuario no cambian.',
        },
        shown,
      )}
      ${field(
        'smtp',
        {
          name: 'from',
          label: 'Remitente',
          value: value('from', settings.from_address),
          maxlength: 300,
          hint: 'Solo con servidor propio: «Nombre <facturas@empresa.pe>».',
        },
        shown,
      )}
      ${field('smtp', { name: 'reply_to', label: 'Responder a', value: value('reply_to', settings.reply_to), maxlength: 254 }, shown)}
      ${choice(
        'format',
        'Formato del PDF',
        [
          ['a4', 'A4'],
          ['ticket', 'Ticket'],
        ],
        value('format', settings.format),
      )}
      ${checkbox('attach_cdr', 'Adjuntar la constancia de SUNAT (CDR)', typed ? typed.has('attach_cdr') : settings.attach_cdr)}
      ${checkbox('enabled', 'Enviar los comprobantes por correo a los compradores', typed ? typed.has('enabled') : settings.enabled)}
      <button type="submit">Guardar correo</button>
    </form>`;
}

/**
 * The PATCH /email body the form asks for, or the errors of what it cannot be: an own server's URL is built from its
 * parts here (a host of letters, digits, dots and dashes, or an address; a port of digits). An empty password keeps
 * the stored one only for the same server, port and user: it never goes to a server other than the one it was for.
 */
export function smtpBody(
  form: URLSearchParams,
  stored: SmtpServer | null,
): { input: Record<string, unknown> } | { errors: FieldErrors } {
  const text = (name: string) => (form.get(name) ?? '').trim();
  const common = {
    reply_to: text('reply_to') || null,
    format: text('format') === 'ticket' ? 'ticket' : 'a4',
    attach_cdr: form.has('attach_cdr'),
    enabled: form.has('enabled'),
  };
  if (form.get('server') !== 'own') return { input: { ...common, smtp_url: null } };
  const [host, port, user, secure] = [
    text('host').toLowerCase(),
    text('port'),
    text('user'),
    text('security') === 'tls',
  ];
  const errors: Record<string, string> = {};
  if (!HOST.test(host))
    errors.host = 'Escriba el nombre del servidor (letras, dígitos, puntos y guiones) o su dirección IP.';
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    errors.port = 'El puerto es un número de 1 a 65535.';
  if (Object.keys(errors).length) return { errors };
  const same =
    stored &&
    stored.host === host &&
    stored.port === Number(port) &&
    stored.user === (user || null) &&
    stored.secure === secure;
  const password = form.get('password') || (same ? stored.password : null);
  const credentials = user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : '';
  const smtpUrl = `${secure ? 'smtps' : 'smtp'}://${credentials}${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { input: { ...common, smtp_url: smtpUrl, from: text('from') || null } };
}
