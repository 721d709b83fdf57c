import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import type { Context } from 'koa';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { AppDeps } from '../../deps';
import type { CompanyRow } from '../../../db/companies';
import { findDocument, type ListedDocument } from '../../../db/documents';
import { listDocuments } from '../../../db/document-lists';
import { exportSize } from '../../../db/document-export';
import { documentTypeName } from '../../../documents/type-names';
import { STATUS_ES } from '../../../lifecycle/messages';
import { limaDate } from '../../../core/lima';
import { logger } from '../../../core/logger';
import { html, notice, type Html } from '../html';
import type { Viewer } from '../context';
import { companyPath, writeCompanyPage } from './frame';

/**
 * The panel's "Exportar" tab (issue 42 item 11, docs/panel.md): a month's register as CSV and its XML and CDR files as
 * a ZIP, read through the listing `GET /v1/cpe` uses (listDocuments), both bounded (CHASQUI_EXPORT_MAX_DOCUMENTS,
 * CHASQUI_EXPORT_MAX_BYTES) and refused past the bound before anything is sent.
 */
const PAGE = 200;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month's first and last day, or null for anything but YYYY-MM. */
function monthRange(month: string): { from: string; to: string } | null {
  const m = MONTH.exec(month);
  if (!m) return null;
  const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** Every document of the range, newest first, page by page as the API pages. */
async function* monthDocuments(deps: AppDeps, company: CompanyRow, from: string, to: string) {
  let before: string | undefined;
  for (;;) {
    const rows = await listDocuments(deps.db, {
      companyId: company.id,
      issuedFrom: from,
      issuedTo: to,
      before,
      limit: PAGE,
    });
    yield* rows;
    if (rows.length < PAGE) return;
    before = rows[rows.length - 1].id;
  }
}

/** One CSV field: quoted, quotes doubled, and a leading = + - @ disarmed so a spreadsheet never runs it as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

const CSV_HEADER = ['Tipo', 'Serie', 'Número', 'Fecha de emisión', 'Cliente', 'Moneda', 'Tributos', 'Total', 'Estado'];

function csvRow(d: ListedDocument): string {
  return [
    documentTypeName(d.doc_type),
    d.series,
    String(d.number),
    String(d.issue_date).slice(0, 10),
    d.customer_doc ?? '',
    d.currency ?? '',
    d.totals?.TaxAmount ?? '',
    d.totals?.PayableAmount ?? '',
    STATUS_ES[d.status] ?? d.status,
  ]
    .map(csvField)
    .join(',');
}

function exportForm(company: CompanyRow, month: string): Html {
  const base = companyPath(company.ruc, 'export');
  const form = (file: string, label: string, hint: string) =>
    html`<form class="card" method="get" action="${base}/${file}">
      <label for="m-${file}">Mes</label>
      <p class="hint" id="h-${file}">${hint}</p>
      <input id="m-${file}" name="mes" type="month" value="${month}" required aria-describedby="h-${file}" />
      <div><button type="submit">${label}</button></div>
    </form>`;
  return html`<h2>Registro del mes</h2>
    ${form(
      'registro.csv',
      'Descargar el registro (CSV)',
      'Una fila por documento: tipo, serie, número, fecha, cliente, moneda, tributos, total y estado. Se abre en una hoja de cálculo.',
    )}
    <h2>Archivos del mes</h2>
    ${form('archivos.zip', 'Descargar XML y CDR (ZIP)', 'El XML firmado y la constancia (CDR) de cada documento.')}`;
}

function refuse(ctx: Context, viewer: Viewer, company: CompanyRow, status: number, why: string, month: string) {
  writeCompanyPage(
    ctx,
    viewer,
    company,
    'export',
    html`${notice('refused', why)}${exportForm(company, month)}`,
    status,
  );
}

/** The month's ZIP, written as it is read: each document's XML, then its CDR when it has one. */
async function writeZip(deps: AppDeps, company: CompanyRow, range: { from: string; to: string }, out: PassThrough) {
  const { files } = deps;
  const zip = new Zip((err, chunk, final) => {
    if (err) return out.destroy(err);
    out.write(chunk);
    if (final) out.end();
  });
  const add = (name: string, bytes: Buffer, packed: boolean) => {
    const entry = packed ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 1 });
    zip.add(entry);
    entry.push(bytes, true);
  };
  for await (const listed of monthDocuments(deps, company, range.from, range.to)) {
    const row = (await findDocument(deps.db, listed.id))!;
    add(`${row.filename}.xml`, Buffer.from(await files.xmlOf(row), 'utf8'), false);
    const cdr = listed.has_cdr ? await files.cdrOf(row) : null;
    if (cdr) add(`R-${row.filename}.zip`, cdr, true);
    if (out.writableNeedDrain) await once(out, 'drain');
  }
  zip.end();
}

/** The tab's page (a PanelPage of routes.ts, typed here so that routes.ts alone imports the tabs: no cycle). */
export const exportPage = {
  async get(ctx: Context, deps: AppDeps, viewer: Viewer, company: CompanyRow, rest: string): Promise<void> {
    const current = limaDate(new Date()).slice(0, 7);
    if (rest === '') return writeCompanyPage(ctx, viewer, company, 'export', exportForm(company, current));
    const month = String(ctx.query.mes ?? '');
    const range = monthRange(month);
    if (!range || (rest !== 'registro.csv' && rest !== 'archivos.zip'))
      return refuse(ctx, viewer, company, 400, 'Elija un mes (año y mes, por ejemplo 2026-12).', current);
    const { maxDocuments, maxBytes } = deps.config.consoleExport;
    const size = await exportSize(deps.db, company.id, range.from, range.to);
    if (size.count > maxDocuments || (rest === 'archivos.zip' && size.bytes > maxBytes))
      return refuse(
        ctx,
        viewer,
        company,
        413,
        size.count > maxDocuments
          ? `${month} tiene ${size.count} documentos: se exportan hasta ${maxDocuments} a la vez. Pida a soporte una exportación mayor o use la API (GET /v1/cpe).`
          : `Los archivos de ${month} ocupan ${Math.ceil(size.bytes / 1048576)} MB: el ZIP lleva hasta ${Math.floor(maxBytes / 1048576)} MB. Descárguelos por la API.`,
        month,
      );
    const name = `${company.ruc}-${month}`;
    if (rest === 'registro.csv') {
      const lines = [CSV_HEADER.map(csvField).join(',')];
      for await (const d of monthDocuments(deps, company, range.from, range.to)) lines.push(csvRow(d));
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment(`${name}.csv`);
      // The BOM tells a spreadsheet the file is UTF-8 (tildes and ñ stay letters).
      ctx.body = `\uFEFF${lines.join('\r\n')}\r\n`;
      return;
    }
    const out = new PassThrough();
    ctx.type = 'application/zip';
    ctx.attachment(`${name}.zip`);
    ctx.body = out;
    writeZip(deps, company, range, out).catch((err) => {
      logger.error({ err, company: company.ruc, month }, 'panel export: the ZIP could not be written');
      out.destroy(err);
    });
  },
};
