/**
 * The consultation page's HTML (docs/buyers.md): Spanish, rendered on the server, no script at all, its stylesheet a
 * file of the repository (the CSP allows nothing inline). Every value written into the page is escaped.
 */
import { escapeHtml } from '../../core/html';
import { documentTypeName } from '../../documents/type-names';

/**
 * The document types a buyer holds a printed copy of (catalog 01), in the order the form offers them: the invoice first.
 * A list, not an object: an object would put the integer-like key 31 before 01.
 */
export const CONSULTA_TYPES: ReadonlyArray<readonly [code: string, name: string]> = [
  '01',
  '03',
  '07',
  '08',
  '04',
  '09',
  '31',
].map((code) => [code, documentTypeName(code)] as const);
export const isConsultaType = (code: string) => CONSULTA_TYPES.some(([known]) => known === code);

export interface ConsultaForm {
  ruc: string;
  tipo: string;
  serie: string;
  numero: string;
  fecha: string;
  total: string;
}

export interface FoundDocument {
  company: string;
  ruc: string;
  title: string;
  number: string;
  date: string;
  total: string | null;
  /** `valid: false` (rejected, voided): the page says so first and offers no PDF to use as if it were valid. */
  state: { word: string; tone: 'aceptado' | 'rechazado' | 'anulado' | 'proceso'; detail: string; valid: boolean };
  links: { pdf: string | null; xml: string; cdr: string | null };
}

function layout(base: string, title: string, content: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${base}/consulta/estilos.css">
</head>
<body>
<header><h1>Consulta de comprobantes electrónicos</h1><p>Verifique y descargue el comprobante que recibió</p></header>
<main>
${content}
</main>
<footer>Los datos se comparan con el comprobante tal como fue emitido.</footer>
</body>
</html>
`;
}

const field = (name: keyof ConsultaForm, label: string, value: string, attributes: string, hint = '') =>
  `<label>${label}${hint ? ` <span class="hint">${hint}</span>` : ''}<input name="${name}" value="${escapeHtml(value)}" ${attributes}></label>`;

/** GET /consulta, and the answer to a lookup that matched nothing (the same page whatever did not match). */
export function formPage(
  base: string,
  values: Partial<ConsultaForm> = {},
  notice: { text: string; tone: 'error' | 'info' } | null = null,
): string {
  const v = (k: keyof ConsultaForm) => values[k] ?? '';
  const options = CONSULTA_TYPES.map(
    ([code, name]) =>
      `<option value="${code}"${v('tipo') === code ? ' selected' : ''}>${code} · ${escapeHtml(name)}</option>`,
  ).join('');
  return layout(
    base,
    'Consulta de comprobantes electrónicos',
    `${notice ? `<div class="notice${notice.tone === 'info' ? ' info' : ''}" role="alert">${escapeHtml(notice.text)}</div>` : ''}
<section class="card">
<h2>Datos del comprobante</h2>
<p class="small">Ingrese los datos tal como aparecen impresos en su comprobante.</p>
<form method="post" action="${base}/consulta">
${field('ruc', 'RUC del emisor', v('ruc'), 'inputmode="numeric" pattern="[0-9]{11}" maxlength="11" required autocomplete="off"')}
<label>Tipo de comprobante<select name="tipo" required><option value="">Elija…</option>${options}</select></label>
${field('serie', 'Serie', v('serie'), 'pattern="[A-Za-z0-9]{4}" maxlength="4" required autocomplete="off"', 'ej. F001')}
${field('numero', 'Número', v('numero'), 'inputmode="numeric" pattern="[0-9]{1,8}" maxlength="8" required autocomplete="off"')}
${field('fecha', 'Fecha de emisión', v('fecha'), 'type="date" required')}
${field('total', 'Importe total', v('total'), 'inputmode="decimal" maxlength="20" autocomplete="off"', 'como está impreso, p. ej. S/ 1,180.00; las guías no tienen importe')}
<button type="submit">Consultar</button>
</form>
</section>`,
  );
}

/** The answer when all six facts match one document: its state in words and its files. */
export function resultPage(base: string, found: FoundDocument): string {
  const link = (href: string | null, text: string) =>
    href ? `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>` : '';
  const { valid } = found.state;
  // A document that is not valid offers no PDF (a printed copy reads like a valid one): only SUNAT's evidence.
  const files = valid
    ? [
        link(found.links.pdf, 'Descargar PDF'),
        link(found.links.xml, 'Descargar XML'),
        link(found.links.cdr, 'Descargar CDR'),
      ]
    : [link(found.links.xml, 'XML tal como fue emitido'), link(found.links.cdr, 'Respuesta de SUNAT (CDR)')];
  return layout(
    base,
    `${found.title} ${found.number}`,
    `<section class="card">
<h2>${escapeHtml(found.title)} ${escapeHtml(found.number)}</h2>
<p><span class="status ${found.state.tone}">${escapeHtml(found.state.word)}</span></p>
<p${valid ? '' : ' class="invalid" role="alert"'}>${escapeHtml(found.state.detail)}</p>
<dl>
<dt>Emisor</dt><dd>${escapeHtml(found.company)}</dd>
<dt>RUC</dt><dd>${escapeHtml(found.ruc)}</dd>
<dt>Fecha de emisión</dt><dd>${escapeHtml(found.date)}</dd>
${found.total ? `<dt>Importe total</dt><dd>${escapeHtml(found.total)}</dd>` : ''}
</dl>
${valid ? '' : '<h3>Constancias</h3>'}
<ul class="files">${files.join('')}</ul>
<p class="small">Los enlaces vencen en una hora. <a href="${base}/consulta">Hacer otra consulta</a></p>
</section>`,
  );
}

/** A download link that expired or was altered. */
export function expiredLinkPage(base: string): string {
  return formPage(
    base,
    {},
    {
      text: 'El enlace de descarga venció o no es válido. Consulte el comprobante nuevamente para obtener uno nuevo.',
      tone: 'info',
    },
  );
}
