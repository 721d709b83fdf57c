import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { DocumentRow } from '../db/documents';
import type { CompanyRow } from '../db/companies';
import { TITLES } from '../documents/printed/labels';
import { escapeHtml } from '../core/html';
import { downloadName, STORED_FILE_NAMES } from '../core/download-name';
import type { SmtpServer } from '../core/smtp-url';

/** The files of one e-mail: named like the document (`RUC-TT-SERIE-NUMERO.pdf/.xml`, SUNAT's `R-….zip` for the CDR). */
export interface EmailFiles {
  pdf: Buffer | null;
  xml: string;
  cdrZip: Buffer | null;
}

const CURRENCY_SIGNS: Record<string, string> = { PEN: 'S/', USD: 'US$', EUR: '€' };

/** Nothing that reaches a header may break a line. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001F\u007F]+/g, ' ').trim();

/** `1234567.5` → `1,234,567.50`: the amount as a Peruvian invoice prints it (decimal string in, no float). */
export function formatAmount(amount: string): string {
  const [whole, fraction = ''] = amount.replace(/^-/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount.startsWith('-') ? '-' : ''}${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

/** `2026-11-26` → `26/11/2026`. */
export const formatDate = (isoDate: string) => isoDate.split('-').reverse().join('/');

/** The facts a buyer recognises a document by: what it is, its number, date and total. */
export function documentFacts(
  row: Pick<DocumentRow, 'doc_type' | 'series' | 'number' | 'issue_date' | 'currency' | 'totals'>,
) {
  const total = row.totals?.PayableAmount ?? null;
  return {
    title: TITLES[row.doc_type]?.title ?? `DOCUMENTO ELECTRÓNICO ${row.doc_type}`,
    number: `${row.series}-${Number(row.number)}`,
    date: formatDate(String(row.issue_date)),
    total:
      total === null
        ? null
        : `${CURRENCY_SIGNS[row.currency ?? ''] ?? row.currency ?? ''} ${formatAmount(total)}`.trim(),
  };
}

/**
 * The e-mail to the buyer, in Spanish: subject and body name the company, the document's type, number, date and total;
 * a demo document says DEMO in the subject and that it has no tax value. Text and HTML carry the same words.
 */
export function composeBuyerEmail(
  row: DocumentRow,
  company: Pick<CompanyRow, 'ruc' | 'business_name'>,
  files: EmailFiles,
  options: { from: string; replyTo: string | null; to: string[]; consultaUrl: string | null; ownServer: boolean },
): Mail.Options {
  const facts = documentFacts(row);
  const demo = row.environment === '01';
  const name = oneLine(company.business_name);
  const subject = `${demo ? '[DEMO] ' : ''}${facts.title} ${facts.number} de ${name}`;
  const listed = [
    ...(files.pdf ? ['la representación impresa (PDF)'] : []),
    'el archivo XML firmado',
    ...(files.cdrZip ? ['la constancia de recepción (CDR) de SUNAT'] : []),
  ];
  const attached = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} y ${listed[listed.length - 1]}`;
  const intro = `${name} (RUC ${company.ruc}) le envía su ${facts.title} ${facts.number}, emitida el ${facts.date}${facts.total ? ` por un total de ${facts.total}` : ''}.`;
  const closing = [
    ...(demo ? ['Este es un documento de prueba (DEMO): no tiene valor tributario.'] : []),
    // Answers reach the company only when it named where (reply_to) or sends through its own server.
    options.replyTo || options.ownServer
      ? 'Si tiene alguna consulta sobre este comprobante, responda a este correo.'
      : `Este mensaje fue enviado automáticamente; si tiene alguna consulta, comuníquese con ${name.replace(/\.$/, '')}.`,
  ];
  const text = [
    'Estimado cliente:',
    intro,
    `Adjuntamos ${attached}.`,
    ...(options.consultaUrl ? [`También puede consultar y descargar el comprobante en ${options.consultaUrl}`] : []),
    ...closing,
  ].join('\n\n');
  const rows = [
    ['Comprobante', `${facts.title}`],
    ['Número', facts.number],
    ['Fecha de emisión', facts.date],
    ...(facts.total ? [['Importe total', facts.total]] : []),
  ];
  const cell = 'padding:6px 12px;border-bottom:1px solid #e3e7ec';
  const html = `<!doctype html><html lang="es"><body style="margin:0;padding:16px;background:#f3f5f8;font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#1d2733;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d9dee5;border-radius:8px;overflow:hidden">
<div style="background:#123a5f;color:#ffffff;padding:14px 20px;font-size:16px;font-weight:bold">${escapeHtml(name)}${demo ? ' &middot; DEMO' : ''}</div>
<div style="padding:16px 20px">
<p style="margin:0 0 12px">Estimado cliente:</p>
<p style="margin:0 0 12px">${escapeHtml(intro)}</p>
<table role="presentation" style="border-collapse:collapse;width:100%;margin:0 0 12px">${rows
    .map(
      ([label, value]) =>
        `<tr><td style="${cell};color:#5a6775">${escapeHtml(label)}</td><td style="${cell};font-weight:bold">${escapeHtml(value)}</td></tr>`,
    )
    .join('')}</table>
<p style="margin:0 0 12px">Adjuntamos ${escapeHtml(attached)}.</p>
${options.consultaUrl ? `<p style="margin:0 0 12px">También puede consultar y descargar el comprobante en <a href="${escapeHtml(options.consultaUrl)}" style="color:#1f6fb5">${escapeHtml(options.consultaUrl)}</a>.</p>` : ''}
${closing.map((line) => `<p style="margin:0 0 12px;color:#5a6775;font-size:13px">${escapeHtml(line)}</p>`).join('')}
</div></div></body></html>`;
  const attachments: Mail.Attachment[] = [
    ...(files.pdf
      ? [{ filename: downloadName(row.filename, '.pdf'), content: files.pdf, contentType: 'application/pdf' }]
      : []),
    {
      filename: downloadName(row.filename, STORED_FILE_NAMES.xml.suffix),
      content: Buffer.from(files.xml, 'utf8'),
      contentType: 'application/xml',
    },
    ...(files.cdrZip
      ? [
          {
            filename: downloadName(row.filename, STORED_FILE_NAMES.cdr.suffix, STORED_FILE_NAMES.cdr.prefix),
            content: files.cdrZip,
            contentType: 'application/zip',
          },
        ]
      : []),
  ];
  return {
    from: options.from,
    to: options.to,
    ...(options.replyTo ? { replyTo: options.replyTo } : {}),
    subject,
    text,
    html,
    attachments,
    // Attachments are the buffers above: nothing in a message may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** `"Company" <address>` on the service's server: the company's name before the service's own address. */
export function senderFor(serviceFrom: string, companyName: string): string {
  const address = /<([^>]+)>\s*$/.exec(serviceFrom)?.[1] ?? serviceFrom;
  return `"${oneLine(companyName).replace(/["\\]/g, '')}" <${address}>`;
}

export type SendOutcome = { sent: true } | { sent: false; permanent: boolean; error: string };

/**
 * Sends one message to `server` (smtp:// upgrades with STARTTLS when the server offers it; smtps:// is TLS from the
 * start), trusting `caFile` besides the system's CAs. The transport is built from the server's fields only, never from
 * a URL, so nothing stored can turn into a mail-library option. With `connectTo` (the address the host check
 * accepted), the connection goes there and TLS still verifies the name: a DNS answer that changed since is never used.
 * A 5xx answer is a permanent refusal (retrying cannot help); anything else (connection, timeout, 4xx) may pass later.
 */
export async function sendMail(
  server: SmtpServer,
  message: Mail.Options,
  options: { caFile: string | null; connectTo?: string },
): Promise<SendOutcome> {
  const transport = nodemailer.createTransport({
    host: options.connectTo ?? server.host,
    port: server.port,
    secure: server.secure,
    ...(server.user !== null ? { auth: { user: server.user, pass: server.password ?? '' } } : {}),
    tls: {
      ...(options.caFile ? { ca: [readFileSync(options.caFile)] } : {}),
      // SNI and the certificate's check are for the name, whatever address the socket went to.
      ...(isIP(server.host) ? {} : { servername: server.host }),
    },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  } satisfies SMTPTransport.Options);
  try {
    await transport.sendMail(message);
    return { sent: true };
  } catch (err) {
    const e = err as { responseCode?: number; code?: string; message?: string };
    const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
    const error = oneLine(
      `${e.responseCode ? `SMTP ${e.responseCode}: ` : e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`,
    ).slice(0, 500);
    return { sent: false, permanent, error };
  } finally {
    transport.close();
  }
}
