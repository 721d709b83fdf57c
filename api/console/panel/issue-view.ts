import type { CompanyRow } from '../../../db/companies';
import { GENERAL_IGV_RATE } from '../../../documents/calendar/igv-rates';
import { html, raw, type Html } from '../html';
import { companyPath } from './frame';
import {
  AFFECTATIONS,
  CURRENCIES,
  CUSTOMER_TYPES,
  MAX_FORM_LINES,
  NOTE_REASONS,
  SALE_TYPES,
  UNITS,
  type FieldErrors,
  type IssueForm,
} from './issue-form';

/** What the issue page shows besides the form: the proposals for its lists and, after "Calcular", the totals. */
export interface IssueView {
  csrf: string;
  series: string[];
  customers: string[];
  /** The special IGV rate the company may choose on the form's date; null: only the general rate is offered. */
  special: number | null;
  totals: Record<string, string> | null;
  warnings: string[];
}

/** The problems of one field, next to it (its input names them with aria-describedby). */
function problems(errors: FieldErrors, name: string): Html {
  const list = errors[name];
  return list?.length ? html`<p class="field-error" id="e-${name}">${list.join(' ')}</p>` : html``;
}

function described(errors: FieldErrors, name: string): Html {
  return errors[name]?.length ? html`aria-invalid="true" aria-describedby="e-${name}"` : html``;
}

function input(errors: FieldErrors, name: string, label: string, value: string, attrs = '', className = ''): Html {
  return html`<div class="${className}">
    <label for="i-${name}">${label}</label
    ><input id="i-${name}" name="${name}" value="${value}" ${raw(attrs)} ${described(errors, name)} />${problems(
      errors,
      name,
    )}
  </div>`;
}

function select(
  errors: FieldErrors,
  name: string,
  label: string,
  value: string,
  options: Record<string, string>,
): Html {
  return html`<div>
    <label for="i-${name}">${label}</label
    ><select id="i-${name}" name="${name}" ${described(errors, name)}>
      ${Object.entries(options).map(
        ([v, text]) => html`<option value="${v}" ${raw(v === value ? 'selected' : '')}>${text}</option>`,
      )}
    </select>
    ${problems(errors, name)}
  </div>`;
}

function lineRows(form: IssueForm, errors: FieldErrors): Html[] {
  return form.lines.map(
    (l, i) =>
      html`<fieldset class="issue-line">
        <legend>Línea ${i + 1}</legend>
        ${input(errors, `l${i}_descripcion`, 'Descripción', l.descripcion, 'maxlength="500"', 'wide')}
        ${input(errors, `l${i}_cantidad`, 'Cantidad', l.cantidad, 'inputmode="decimal" maxlength="20"')}
        ${select(errors, `l${i}_unidad`, 'Unidad', l.unidad, { ...UNITS, ...(l.unidad in UNITS ? {} : { [l.unidad]: l.unidad }) })}
        ${input(errors, `l${i}_precio`, 'Precio unitario', l.precio, 'inputmode="decimal" maxlength="20"')}
        ${select(errors, `l${i}_afectacion`, 'IGV', l.afectacion, AFFECTATIONS)}
        ${input(errors, `l${i}_codigo`, 'Código del producto (opcional)', l.codigo, 'maxlength="30"')}
      </fieldset>`,
  );
}

function noteFields(form: IssueForm, errors: FieldErrors): Html {
  if (form.tipo !== '07' && form.tipo !== '08') return html``;
  return html`<fieldset class="issue-grid">
    <legend>Documento que modifica</legend>
    ${select(errors, 'ref_tipo', 'Tipo', form.refTipo, { '01': 'Factura', '03': 'Boleta' })}
    ${input(errors, 'ref_numero', 'Serie y número (F001-25)', form.refNumero, 'maxlength="13"')}
    ${select(errors, 'motivo', 'Motivo', form.motivo, NOTE_REASONS[form.tipo])}
    ${input(errors, 'motivo_texto', 'Sustento (en sus palabras)', form.motivoTexto, 'maxlength="250"', 'wide')}
  </fieldset>`;
}

function paymentFields(form: IssueForm, errors: FieldErrors): Html {
  if (form.tipo !== '01') return html``;
  return html`<fieldset class="issue-grid">
    <legend>Forma de pago</legend>
    <div class="wide">
      ${select(errors, 'pago', 'Pago', form.pago, { Contado: 'Al contado', Credito: 'Al crédito (en cuotas)' })}
      <p class="hint">Las cuotas, solo al crédito: cada una con su monto y su fecha de pago.</p>
      ${problems(errors, 'cuotas')}
    </div>
    ${form.cuotas.map(
      (c, i) =>
        html`${input(errors, `c${i}_monto`, `Cuota ${i + 1}: monto`, c.monto, 'inputmode="decimal" maxlength="20"')}
        ${input(errors, `c${i}_fecha`, `Cuota ${i + 1}: fecha de pago`, c.fecha, 'type="date"')}`,
    )}
  </fieldset>`;
}

/** The totals "Calcular" found, as the engine writes them (two-decimal strings), and its warnings in Spanish. */
function totalsCard(form: IssueForm, view: IssueView): Html {
  if (!view.totals) return html``;
  const t = view.totals;
  const rows: Array<[string, string | undefined]> = [
    ['Valor de venta', t.LineExtensionAmount],
    ['IGV', t['TaxAmount.1000']],
    ['IVAP', t['TaxAmount.1016']],
    ['Total de tributos', t.TaxAmount],
    ['Importe total', t.PayableAmount],
  ];
  return html`<section class="card issue-totals" aria-labelledby="totals-title">
    <h2 id="totals-title">Totales calculados</h2>
    <dl class="facts">
      ${rows
        .filter(([, v]) => v !== undefined)
        .map(
          ([k, v]) =>
            html`<dt>${k}</dt>
              <dd class="number">${form.moneda} ${v}</dd>`,
        )}
    </dl>
    ${
      view.warnings.length
        ? html`<h3>Avisos</h3>
            <ul class="plain">
              ${view.warnings.map((w) => html`<li>${w}</li>`)}
            </ul>`
        : html`<p>Sin avisos: puede emitirlo.</p>`
    }
  </section>`;
}

/** The whole issue form: type links, document, customer, reference or payment, lines, buttons, totals. */
export function issueFormHtml(company: CompanyRow, form: IssueForm, errors: FieldErrors, view: IssueView): Html {
  const base = companyPath(company.ruc, 'issue');
  return html`<nav class="doc-types" aria-label="Tipo de comprobante">
      <ul>
        ${Object.entries(SALE_TYPES).map(
          ([t, name]) =>
            html`<li>
              <a href="${base}?tipo=${t}" ${raw(t === form.tipo ? 'aria-current="page"' : '')}>${name}</a>
            </li>`,
        )}
      </ul>
    </nav>
    ${
      errors.general?.length
        ? html`<div class="notice refused" role="alert">
            <p>No se emitió nada. Corrija lo indicado:</p>
            <ul class="plain">
              ${errors.general.map((e) => html`<li>${e}</li>`)}
            </ul>
          </div>`
        : Object.keys(errors).length
          ? html`<p class="notice refused" role="alert">No se emitió nada. Corrija los datos marcados.</p>`
          : ''
    }
    ${totalsCard(form, view)}
    <form class="card issue-form" method="post" action="${base}">
      <input type="hidden" name="csrf" value="${view.csrf}" />
      <input type="hidden" name="idem" value="${form.idem}" />
      <input type="hidden" name="tipo" value="${form.tipo}" />
      <input type="hidden" name="lineas" value="${form.lines.length}" />
      <fieldset class="issue-grid">
        <legend>${SALE_TYPES[form.tipo]}</legend>
        ${input(errors, 'serie', 'Serie', form.serie, 'maxlength="4" list="series" autocomplete="off"')}
        ${input(errors, 'numero', 'Número', form.numero, 'inputmode="numeric" maxlength="8"')}
        ${input(errors, 'fecha', 'Fecha de emisión', form.fecha, 'type="date"')}
        ${select(errors, 'moneda', 'Moneda', form.moneda, CURRENCIES)}
        ${select(errors, 'precios', 'Precios de las líneas', form.precios, {
          precio: 'Con IGV',
          valor: 'Sin IGV (valor unitario)',
        })}
        ${
          view.special === null
            ? ''
            : select(errors, 'tasa', 'Tasa del IGV', form.tasa, {
                general: `General (${GENERAL_IGV_RATE} %)`,
                especial: `Especial (${view.special} %)`,
              })
        }
      </fieldset>
      <datalist id="series">${view.series.map((s) => html`<option value="${s}"></option>`)}</datalist>
      <fieldset class="issue-grid">
        <legend>Cliente</legend>
        ${select(errors, 'cliente_tipo', 'Documento del cliente', form.clienteTipo, CUSTOMER_TYPES)}
        ${input(errors, 'cliente_doc', 'Número de documento', form.clienteDoc, 'maxlength="15" list="clientes" autocomplete="off"')}
        ${input(errors, 'cliente_nombre', 'Nombre o razón social', form.clienteNombre, 'maxlength="1500"', 'wide')}
        ${input(errors, 'cliente_direccion', 'Dirección (opcional)', form.clienteDireccion, 'maxlength="200"', 'wide')}
        ${input(errors, 'cliente_correo', 'Correo para enviarle el comprobante (opcional)', form.clienteCorreo, 'type="email" maxlength="254"', 'wide')}
      </fieldset>
      <datalist id="clientes">${view.customers.map((c) => html`<option value="${c}"></option>`)}</datalist>
      ${noteFields(form, errors)} ${paymentFields(form, errors)}
      <h2>Líneas</h2>
      ${lineRows(form, errors)}
      <div class="issue-buttons">
        <!-- Calcular first: the Enter key in a field presses the first button, which neither issues nor adds. -->
        <button type="submit" name="accion" value="calcular" class="secondary">Calcular</button>
        ${
          form.lines.length < MAX_FORM_LINES
            ? html`<button type="submit" name="accion" value="linea" class="secondary">Añadir línea</button>`
            : ''
        }
        <button type="submit" name="accion" value="emitir">Emitir</button>
      </div>
    </form>`;
}
