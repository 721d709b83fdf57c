import { escapeHtml as esc } from '../../core/html';

/**
 * Server-rendered HTML for the console: escaping, the page frame and small pieces. No script runs in these pages
 * (the Content-Security-Policy forbids it), so every action is a form, and every form a real POST with its CSRF token.
 */
export type Html = { readonly html: string };

/** Trusted markup; everything interpolated into `html` is escaped unless it is Html already (or an array of it). */
export function raw(html: string): Html {
  return { html };
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return { html: out };
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && 'html' in (value as Html)) return (value as Html).html;
  return esc(value);
}

export interface Frame {
  title: string;
  /**
   * The signed-in name, who it is (soporte, cuenta, or a user's role) and the CSRF token for the sign-out form; the
   * people's pages it may open (`extra`); absent on the sign-in page.
   */
  session?: { name: string; who: string; csrf: string; extra?: ReadonlyArray<'users' | 'audit'> };
  /** Which navigation entry is the current page. */
  current?: 'documents' | 'stuck' | 'companies' | 'users' | 'audit';
}

type NavId = NonNullable<Frame['current']>;
const NAV: Array<{ id: NavId; href: string; label: string }> = [
  { id: 'documents', href: '/console/documents', label: 'Documentos' },
  { id: 'stuck', href: '/console/stuck', label: 'Atascados' },
  { id: 'companies', href: '/console/companies', label: 'Empresas' },
  { id: 'users', href: '/console/users', label: 'Usuarios' },
  { id: 'audit', href: '/console/audit', label: 'Auditoría' },
];
const ALWAYS: readonly NavId[] = ['documents', 'stuck', 'companies'];

export function page(frame: Frame, body: Html): string {
  const nav = frame.session
    ? html`<nav aria-label="Secciones">
          <ul>
            ${NAV.filter((n) => ALWAYS.includes(n.id) || frame.session!.extra?.includes(n.id as 'users')).map(
              (n) =>
                html`<li>
                  <a href="${n.href}" ${raw(frame.current === n.id ? ' aria-current="page"' : '')}>${n.label}</a>
                </li>`,
            )}
          </ul>
        </nav>
        <form class="signout" method="post" action="/console/logout">
          <input type="hidden" name="csrf" value="${frame.session.csrf}" />
          <span>${frame.session.name} (${frame.session.who})</span>
          <button type="submit">Cerrar sesión</button>
        </form>`
    : '';
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(frame.title)} · chasqui</title>
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body>
<a class="skip" href="#main">Saltar al contenido</a>
<header><a class="brand" href="/console/documents">chasqui · consola</a>${nav ? render(nav) : ''}</header>
<main id="main" tabindex="-1">
<h1>${esc(frame.title)}</h1>
${body.html}
</main>
</body>
</html>`;
}

/**
 * A table with a caption (read first by screen readers) and header cells. Each cell carries its column's name
 * (`data-label`): on a phone the stylesheet shows every row as a card of "label: value" lines, no script needed.
 */
export function table(caption: string, headers: string[], rows: Array<Array<unknown>>): Html {
  return html`<table class="cards">
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        ${headers.map((h) => html`<th scope="col">${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr>
            ${r.map((c, i) => html`<td data-label="${headers[i]}">${c}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function notice(kind: 'ok' | 'refused' | 'info', text: Html | string): Html {
  return html`<p class="notice ${kind}" role="${kind === 'refused' ? 'alert' : 'status'}">${text}</p>`;
}
