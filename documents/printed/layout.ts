/**
 * Draws a PrintedDocument on A4 (paginated, header and column titles repeated, "Página x de y") or on an 80 mm
 * ticket (one long page as tall as the content). One flow for both: the format only changes widths, sizes and how a
 * table row is laid out, so a new document type needs a reader, never a new layout. The paper and its primitives
 * are in sheet.ts, what tops every page in page-top.ts.
 */
import { drawPageTop } from './page-top';
import { drawQr } from './qr';
import { Sheet, type RenderOptions } from './sheet';
import type { Column, Fact, PrintedDocument } from './model';

export type { PaperFormat, RenderOptions } from './sheet';

/** SUNAT's page where anyone checks a comprobante de pago electrónico. */
export const CHECK_PAGE = 'https://e-consulta.sunat.gob.pe/ol-ti-itconsvalicpe/ConsValiCpe.htm';

const GREY = '#555555';
const HEADER_FILL = '#e8e8e8';

class Printer extends Sheet {
  /** Where content starts below the header of a fresh page. */
  private contentTop = 0;

  newPage(): void {
    this.doc.addPage();
    this.y = this.paper.margin;
    drawPageTop(this);
    this.contentTop = this.y;
  }

  private counterpart(): void {
    const counterpart = this.printed.counterpart;
    if (!counterpart) return;
    const { party, label } = counterpart;
    const facts: Fact[] = [{ label, value: party.name || '-' }];
    if (party.idNumber) facts.push({ label: party.idLabel ?? 'Documento', value: party.idNumber });
    if (party.address) facts.push({ label: 'Dirección', value: party.address });
    this.facts(facts, 1);
  }

  private columnWidths(columns: Column[]): number[] {
    return columns.map((c) => c.width * this.width);
  }

  private tableHeader(): void {
    const columns = this.printed.table.columns;
    if (this.ticket) {
      this.font('bold');
      const main = columns.find((c) => c.ticket === 'main')!;
      const detail = columns
        .filter((c) => c.ticket === 'detail')
        .map((c) => c.header)
        .join(' · ');
      this.y += this.write(`${main.header}\n${detail}`, this.left, this.y, this.width) + 2;
      this.rule();
      return;
    }
    const widths = this.columnWidths(columns);
    this.font('bold');
    const height = 14;
    this.doc.save().fillColor(HEADER_FILL).rect(this.left, this.y, this.width, height).fill().restore();
    let x = this.left;
    columns.forEach((c, i) => {
      this.doc.text(c.header, x + 2, this.y + 3, { width: widths[i] - 4, align: c.align, lineBreak: false });
      x += widths[i];
    });
    this.y += height + 2;
  }

  private table(): void {
    const { columns, rows } = this.printed.table;
    this.ensure(40);
    this.tableHeader();
    const widths = this.columnWidths(columns);
    const mainIndex = columns.findIndex((c) => c.ticket === 'main');
    for (const row of rows) {
      this.font('regular');
      if (this.ticket) {
        const detail = columns
          .map((c, i) => (c.ticket === 'detail' && row[i] ? row[i] : null))
          .filter(Boolean)
          .join('  ');
        const height = this.textHeight(row[mainIndex], this.width) + this.textHeight(detail, this.width) + 2;
        if (this.y + height > this.bottom) {
          this.newPage();
          this.tableHeader();
          this.font('regular');
        }
        this.y += this.write(row[mainIndex], this.left, this.y, this.width);
        this.y += this.write(detail, this.left, this.y, this.width, 'right') + 2;
        continue;
      }
      const height = Math.max(...row.map((cell, i) => (cell ? this.textHeight(cell, widths[i] - 4) : 0)), 9) + 3;
      if (this.y + height > this.bottom) {
        this.newPage();
        this.tableHeader();
        this.font('regular');
      }
      let x = this.left;
      row.forEach((cell, i) => {
        if (cell) this.write(cell, x + 2, this.y + 1, widths[i] - 4, columns[i].align);
        x += widths[i];
      });
      this.y += height;
      this.doc
        .save()
        .lineWidth(0.3)
        .strokeColor('#cccccc')
        .moveTo(this.left, this.y)
        .lineTo(this.left + this.width, this.y)
        .stroke()
        .restore();
    }
    this.y += 6;
  }

  private amounts(): void {
    const rows = this.printed.amounts;
    if (!rows.length) return;
    const width = this.ticket ? this.width : 230;
    const x = this.left + this.width - width;
    this.ensure(rows.length * 11 + 4);
    for (const row of rows) {
      this.font(row.strong ? 'bold' : 'regular', row.strong ? this.paper.size + 1.5 : this.paper.size);
      const height = this.textHeight(row.label, width * 0.6);
      this.write(row.label, x, this.y, width * 0.6);
      this.write(row.value, x + width * 0.6, this.y, width * 0.4, 'right');
      this.y += height + 1.5;
    }
    this.y += 4;
  }

  private sections(): void {
    for (const section of this.printed.sections) {
      this.font('regular');
      const height = section.facts.reduce((h, f) => h + this.textHeight(f.value || ' ', this.width - 100) + 1, 14);
      this.ensure(Math.min(height, 200));
      this.font('bold');
      this.y += this.write(section.title, this.left, this.y, this.width) + 2;
      this.facts(section.facts, 1);
      for (const note of section.notes ?? []) {
        this.font('regular');
        this.ensure(10);
        this.y += this.write(note, this.left, this.y, this.width);
      }
      this.y += 4;
    }
  }

  /** QR, hash and where to check it: the closing block, never split. */
  private closing(): void {
    const { printed, paper } = this;
    const qr = printed.qr;
    const check =
      qr.kind === 'content'
        ? `Consulte la validez de este comprobante en:\n${CHECK_PAGE}`
        : 'Escanee el código QR para ver la guía en SUNAT.';
    const lines = [`Valor resumen (hash): ${printed.hash}`, qr.kind === 'pending' ? qr.text : check];
    this.font('regular');
    const textWidth = this.ticket ? this.width : this.width - paper.qr - 12;
    const textHeight = lines.reduce((h, l) => h + this.textHeight(l, textWidth) + 2, 0);
    const qrHeight = qr.kind === 'pending' ? 0 : paper.qr;
    this.ensure(this.ticket ? qrHeight + textHeight + 6 : Math.max(qrHeight, textHeight) + 6);
    const top = this.y;
    if (qr.kind !== 'pending' && !this.dry) {
      const x = this.ticket ? this.left + (this.width - paper.qr) / 2 : this.left;
      drawQr(this.doc, qr.text, x, top, paper.qr);
    }
    const x = this.ticket ? this.left : this.left + (qrHeight ? paper.qr + 12 : 0);
    let y = this.ticket ? top + qrHeight + 2 : top + 8;
    for (const line of lines) {
      if (line === qr.text && qr.kind === 'pending') this.font('bold');
      else this.font('regular');
      y +=
        this.write(
          line,
          x,
          y,
          this.ticket ? this.width : this.width - (x - this.left),
          this.ticket ? 'center' : 'left',
        ) + 2;
    }
    this.y = this.ticket ? y : Math.max(top + qrHeight, y);
  }

  /** "Página x de y" on every A4 page; the ticket's last page is cut to what was drawn. */
  private finish(): void {
    const { doc, paper } = this;
    if (this.ticket) {
      const page = doc.page;
      const used = Math.min(this.y + paper.margin, paper.height);
      // pdfkit draws from the top of the page: keeping the top `used` points is a MediaBox that starts lower.
      (page.dictionary.data as unknown as { MediaBox: number[] }).MediaBox = [
        0,
        paper.height - used,
        paper.width,
        paper.height,
      ];
      return;
    }
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      this.font('regular', 7);
      doc.fillColor(GREY);
      const y = paper.height - paper.margin - 8;
      doc.text(`${this.printed.id} · ${this.printed.title}`, this.left, y, {
        width: this.width / 2,
        lineBreak: false,
        height: 10,
      });
      doc.text(`Página ${i - range.start + 1} de ${range.count}`, this.left + this.width / 2, y, {
        width: this.width / 2,
        align: 'right',
        lineBreak: false,
        height: 10,
      });
      doc.fillColor('black');
    }
  }

  /** Totals, words, legends, sections and QR: the end of the document. */
  private tail(): void {
    this.amounts();
    if (this.printed.amountInWords) this.block([{ text: this.printed.amountInWords, bold: true }]);
    this.block(this.printed.legends.map((text) => ({ text })));
    this.sections();
    this.closing();
  }

  /** On A4 the last page shows the totals with the QR: the tail moves to a new page whole when it does not fit. */
  private keepTailTogether(): void {
    if (this.ticket) return;
    const start = this.y;
    this.dry = true;
    this.y = 0;
    this.tail();
    const height = this.y;
    this.dry = false;
    this.y = start;
    if (height <= this.bottom - this.contentTop) this.ensure(height);
  }

  render(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    const { printed } = this;
    this.newPage();
    this.counterpart();
    this.y += 2;
    this.facts(printed.facts);
    this.y += 6;
    this.table();
    this.keepTailTogether();
    this.tail();
    this.finish();
    this.doc.end();
    return done;
  }
}

export function renderPrinted(printed: PrintedDocument, options: RenderOptions): Promise<Buffer> {
  return new Printer(printed, options).render();
}
