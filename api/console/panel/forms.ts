import type { Context } from 'koa';
import { ApiError } from '../../errors';
import type { CompanyRow } from '../../../db/companies';
import type { AuditRow } from '../../../db/audit';
import { html, notice, type Html } from '../html';
import type { Viewer } from '../context';
import { limaLabelled } from '../words';
import { companyPath, writeCompanyPage, type CompanyTab } from './frame';

/**
 * The pieces of the panel's forms (credentials, certificate, e-mail): labelled fields with their error beside them,
 * the API's refusals in Spanish (one table per page, by field), the CSRF field, and the redirect after a change.
 */

/** A field's Spanish error by its name (the API's field names). */
export type FieldErrors = Readonly<Record<string, string>>;

export interface Field {
  name: string;
  label: string;
  type?: 'text' | 'password' | 'email' | 'file';
  hint?: string;
  required?: boolean;
  value?: string | null;
  accept?: string;
  maxlength?: number;
}

export const csrfField = (viewer: Viewer): Html =>
  html`<input type="hidden" name="csrf" value="${viewer.session.csrf}" />`;

/** A labelled input; its hint and its error (if any) named by aria-describedby, the error right under it. */
export function field(form: string, f: Field, errors: FieldErrors): Html {
  const id = `${form}-${f.name}`;
  const error = errors[f.name];
  const described = [f.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const secret = f.type === 'password';
  return html`<div class="field">
    <label for="${id}">${f.label}</label>
    ${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
    <input
      id="${id}"
      name="${f.name}"
      type="${f.type ?? 'text'}"
      ${f.required ? html`required` : ''}
      ${f.accept ? html`accept="${f.accept}"` : ''}
      ${f.maxlength ? html`maxlength="${f.maxlength}"` : ''}
      ${secret ? html`autocomplete="new-password"` : html`autocomplete="off"`}
      ${!secret && f.value ? html`value="${f.value}"` : ''}
      ${described ? html`aria-describedby="${described}"` : ''}
      ${error ? html`aria-invalid="true"` : ''}
    />
    ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
  </div>`;
}

/**
 * An API refusal's fields in Spanish: each field the API names gets the page's sentence for it (`words`, what the
 * field must be); a refusal naming no field of the table gets `general` under the key `form`. Anything but a 4xx
 * refusal is thrown on (the console's 500 page).
 */
export function refusalErrors(err: unknown, words: FieldErrors, general: string): Record<string, string> {
  if (!(err instanceof ApiError) || err.status >= 500) throw err;
  const named = Object.keys(err.extra.errors ?? {}).filter((name) => name in words);
  return named.length ? Object.fromEntries(named.map((name) => [name, words[name]])) : { form: general };
}

/** The form's own error (not tied to one field), shown above its fields. */
export const formError = (errors: FieldErrors): Html => (errors.form ? notice('refused', errors.form) : html``);

/** After a change: 303 to the tab's page, which says what was done (`?hecho=`). */
export function redirectDone(ctx: Context, company: CompanyRow, tab: CompanyTab, done: string): void {
  ctx.status = 303;
  ctx.redirect(`${companyPath(company.ruc, tab)}?hecho=${encodeURIComponent(done)}`);
}

/** The `?hecho=` notice of a tab, from its table of what each change says. */
export function doneNotice(ctx: Context, said: Readonly<Record<string, string>>): Html {
  const done = String(ctx.query.hecho ?? '');
  return Object.hasOwn(said, done) ? notice('ok', said[done]) : html``;
}

/** Who made a recorded change, as a page says it. */
function actorWords(row: AuditRow): string {
  if (row.actor_kind === 'console') return `${row.actor} (consola)`;
  if (row.actor_kind === 'account-token') return `la API con el token de la cuenta`;
  if (row.actor_kind === 'company-token') return `la API con un token de la empresa`;
  return row.actor;
}

/** "configurado el 07/12/2026 11:40 (hora de Lima) por ana (consola)"; without a record, only the date it was saved. */
export function configuredWords(at: Date | null, record: AuditRow | undefined): string {
  if (record) return `Configurado el ${limaLabelled(record.at)} por ${actorWords(record)}.`;
  return `Configurado el ${limaLabelled(at)}.`;
}

/** 404 for a POST to a form the tab does not have. */
export function unknownForm(ctx: Context, viewer: Viewer, company: CompanyRow, tab: CompanyTab): void {
  writeCompanyPage(ctx, viewer, company, tab, notice('refused', 'Ese formulario no existe en esta página.'), 404);
}
