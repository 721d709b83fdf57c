import { html, notice, type Html } from '../html';

/**
 * What the token and webhook pages share: a secret shown once on the page that answers its creation, a field's error
 * beside it, and the CSRF field every form carries.
 */

/** The secret, once: never in a redirect's URL, never shown again. */
export function secretOnce(what: string, secret: string, after: Html | string = ''): Html {
  return html`<section class="card secret-once" aria-labelledby="secret-title">
    <h2 id="secret-title">${what}</h2>
    <p>Cópielo ahora: no se volverá a mostrar. Si lo pierde, genere otro.</p>
    <p><code class="secret">${secret}</code></p>
    ${after}
  </section>`;
}

/** A field's error, referenced by the input's aria-describedby. */
export const fieldError = (id: string, text: string | null): Html | string =>
  text ? html`<p class="field-error" id="${id}" role="alert">${text}</p>` : '';

export const csrfField = (csrf: string): Html => html`<input type="hidden" name="csrf" value="${csrf}" />`;

/** The notice after a POST's redirect (`?hecho=`): one of the page's own words, nothing from the URL itself. */
export function doneNotice(done: unknown, words: Readonly<Record<string, string>>): Html | string {
  const text = typeof done === 'string' && Object.hasOwn(words, done) ? words[done] : null;
  return text ? notice('ok', text) : '';
}

/** A URL that a phone may wrap after each slash rather than inside a word. */
export const wrappableUrl = (url: string): Html =>
  html`<code class="url">${url.split(/(?<=\/)/).map((part) => html`${part}<wbr />`)}</code>`;
