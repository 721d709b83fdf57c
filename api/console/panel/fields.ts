import { html, raw, type Html } from '../html';
import type { Viewer } from '../context';

/** The panel's form fields: a label on every input, its hint and its error beside it (read with it by screen readers). */

interface FieldOptions {
  hint?: string;
  error?: string | null;
}

const described = (name: string, o: FieldOptions) =>
  [o.hint ? `h-${name}` : '', o.error ? `e-${name}` : ''].filter(Boolean).join(' ');

function around(name: string, label: string, o: FieldOptions, control: Html): Html {
  return html`<div class="field">
    <label for="f-${name}">${label}</label>
    ${o.hint ? html`<p class="hint" id="h-${name}">${o.hint}</p>` : ''}${control}
    ${o.error ? html`<p class="field-error" id="e-${name}">${o.error}</p>` : ''}
  </div>`;
}

const aria = (name: string, o: FieldOptions) =>
  raw(
    `${described(name, o) ? ` aria-describedby="${described(name, o)}"` : ''}${o.error ? ' aria-invalid="true"' : ''}`,
  );

export function textField(
  name: string,
  label: string,
  value: string,
  o: FieldOptions & { maxLength: number; inputMode?: 'numeric' },
): Html {
  return around(
    name,
    label,
    o,
    html`<input
      id="f-${name}"
      name="${name}"
      value="${value}"
      maxlength="${o.maxLength}"
      required
      ${o.inputMode ? raw(` inputmode="${o.inputMode}"`) : ''}${aria(name, o)}
    />`,
  );
}

export function selectField(
  name: string,
  label: string,
  options: Readonly<Record<string, string>>,
  selected: string,
  o: FieldOptions = {},
): Html {
  return around(
    name,
    label,
    o,
    html`<select id="f-${name}" name="${name}" ${aria(name, o)}>
      ${Object.entries(options).map(
        ([value, text]) => html`<option value="${value}" ${raw(value === selected ? 'selected' : '')}>${text}</option>`,
      )}
    </select>`,
  );
}

/** The session's CSRF token, as every POST form of the console carries it. */
export const csrfField = (viewer: Viewer) => html`<input type="hidden" name="csrf" value="${viewer.session.csrf}" />`;
