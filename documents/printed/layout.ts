/**
 * Draws a PrintedDocument on A4 (paginated, header and column titles repeated, "Página x de y") or on an 80 mm
 * ticket (one long page as tall as the content). One flow for both: the format only changes widths, sizes and how a
 * table row is laid out, so a new document type needs a reader, never a new layout.
 */
import PDFDocument from 'pdfkit';
import { fonts } from './fonts';
import { drawQr } from './qr';
import type { Column, Fact, PrintedDocument, PrintedParty } from './model';

export type PaperFormat = 'a4' | 'ticket';

export interface RenderOptions {
  format: PaperFormat;
  /** Words printed across every page when the document is not a valid one (DEMO, RECHAZADO, ANULADO). */
  marks: string[];
  /** The issuer's logo (PNG or JPEG, already validated). */
  logo?: Buffer | null;
}

/** SUNAT's page where anyone checks a comprobante de pago electrónico. */
export const CHECK_PAGE = 'https://e-consulta.sunat.gob.pe/ol-ti-itconsvalicpe/ConsValiCpe.htm';

interface Paper {
  width: number;
  height: number;
  margin: number;
  size: number;
  qr: number;
  logo: [number, number];
}

const MM = 72 / 25.4;
const PAPERS: Record<PaperFormat, Paper> = {
  a4: { width: 595.28, height: 841.89, margin: 36, size: 8, qr: 92, logo: [150, 60] },
  // 80 mm roll, 72 mm printable; drawn on a tall page that is cut to the content at the end.
  ticket: { width: 80 * MM, height: 14_000, margin: 4 * MM, size: 7.5, qr: 110, logo: [120, 50] },
};

const GREY = '#555555';
const RULE = '#999999';
const HEADER_FILL = '#e8e8e8';
const MARK_COLOUR = '#c0392b';

class Printer {
  readonly doc: PDFKit.PDFDocument;
  readonly paper: Paper;
  readonly ticket: boolean;
  y = 0;
  /** Where content starts below the header of a fresh page. */
  private contentTop = 0;
  /** Measuring only: positions advance, nothing is drawn and no page is added. */
  private dry = false;
  private readonly left: number;
  private readonly width: number;

  constructor(
    private readonly printed: PrintedDocument,
    private readonly options: RenderOptions,
  ) {
    this.paper = PAPERS[options.format];
    this.ticket = options.format === 'ticket';
    this.left = this.paper.margin;
    this.width = this.paper.width - 2 * this.paper.margin;
    // Fixed metadata and creation date (the issue date): the same document always gives the same bytes.
    const created = new Date(`${printed.issueDate || '2000-01-01'}T00:00:00-05:00`);
    this.doc = new PDFDocument({
      size: [this.paper.width, this.paper.height],
      margin: this.paper.margin,
      autoFirstPage: false,
      bufferPages: true,
      // No default Helvetica: pdfkit would read and parse its AFM metrics for every document, unused.
      font: null as unknown as string,
      info: {
        Title: `${printed.title} ${printed.id}`,
        Author: printed.issuer.name,
        Creator: 'chasqui',
        Producer: 'chasqui (pdfkit)',
        CreationDate: created,
      },
    });
    const { regular, bold } = fonts();
    this.doc.registerFont('regular', regular as unknown as Buffer);
    this.doc.registerFont('bold', bold as unknown as Buffer);
    this.doc.font('regular');
  }

  private get bottom(): number {
    // A4 keeps room for the page footer; the ticket's page is cut, so its bottom is only a safety limit.
    return this.paper.height - this.paper.margin - (this.ticket ? 0 : 14);
  }

  private font(name: 'regular' | 'bold', size = this.paper.size): this {
    this.doc.font(name).fontSize(size);
    return this;
  }

  private textHeight(text: string, width: number): number {
    return this.doc.heightOfString(text, { width, lineGap: 0.5 });
  }

  /** Text in a box, wrapped to `width`; returns its height. */
  private write(
    text: string,
    x: number,
    y: number,
    width: number,
    align: 'left' | 'right' | 'center' = 'left',
  ): number {
    if (!this.dry) this.doc.text(text, x, y, { width, align, lineGap: 0.5 });
    return this.textHeight(text, width);
  }

  /** Starts a page when `height` does not fit below the current position. */
  private ensure(height: number): void {
    if (!this.dry && this.y + height > this.bottom) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = this.paper.margin;
    this.drawMarks();
    this.header();
    this.contentTop = this.y;
  }

  /** The diagonal words behind the content of every page, and a framed banner under the header. */
  private drawMarks(): void {
    if (!this.options.marks.length || this.ticket) return;
    const { doc, paper } = this;
    doc.save();
    doc.fillColor(MARK_COLOUR).fillOpacity(0.13);
    const text = this.options.marks.join(' · ');
    // One line along the diagonal, as large as 80 % of it allows (at most 60 points).
    this.font('bold', 60);
    const diagonal = Math.hypot(paper.width, paper.height) * 0.8;
    const size = Math.min(60, (60 * diagonal) / doc.widthOfString(text));
    this.font('bold', size);
    const width = doc.widthOfString(text);
    const [cx, cy] = [paper.width / 2, paper.height / 2];
    doc.rotate(-Math.atan2(paper.height, paper.width) * (180 / Math.PI), { origin: [cx, cy] });
    doc.text(text, cx - width / 2, cy - size / 2, { lineBreak: false });
    doc.restore();
  }

  private banner(): void {
    if (!this.options.marks.length) return;
    const text = this.options.marks.join(' · ');
    this.font('bold', this.ticket ? 9 : 11);
    const height = this.textHeight(text, this.width - 8) + 6;
    this.doc
      .save()
      .lineWidth(1.2)
      .strokeColor(MARK_COLOUR)
      .rect(this.left, this.y, this.width, height)
      .stroke()
      .restore();
    this.doc.fillColor(MARK_COLOUR);
    this.write(text, this.left + 4, this.y + 3.5, this.width - 8, 'center');
    this.doc.fillColor('black');
    this.y += height + 6;
  }

  /** The issuer's trade name (when not its legal name) and address, under its name. */
  private issuerLines(party: PrintedParty): string[] {
    return [party.tradeName && party.tradeName !== party.name ? party.tradeName : null, party.address ?? null].filter(
      (l): l is string => !!l,
    );
  }

  /** Logo and issuer on the left, the RUC/title/number box on the right (A4); stacked and centred on a ticket. */
  private header(): void {
    const { doc, printed } = this;
    const issuer = printed.issuer;
    if (this.ticket) {
      if (this.options.logo) {
        const [w, h] = this.paper.logo;
        doc.image(this.options.logo, this.left + (this.width - w) / 2, this.y, {
          fit: [w, h],
          align: 'center',
          valign: 'center',
        });
        this.y += h + 4;
      }
      this.font('bold', 9);
      this.y += this.write(issuer.name, this.left, this.y, this.width, 'center');
      this.font('regular');
      for (const line of this.issuerLines(issuer)) this.y += this.write(line, this.left, this.y, this.width, 'center');
      this.y += 3;
      this.font('bold', 9);
      for (const line of [`RUC ${issuer.idNumber ?? ''}`, printed.title, printed.id])
        this.y += this.write(line, this.left, this.y, this.width, 'center');
      this.font('regular', 6.5);
      this.y += this.write(printed.heading, this.left, this.y + 2, this.width, 'center') + 6;
      this.rule();
      this.banner();
      return;
    }
    const top = this.y;
    const boxWidth = 190;
    const boxX = this.left + this.width - boxWidth;
    const x = this.left;
    const textWidth = this.width - boxWidth - 12;
    let y = top;
    if (this.options.logo) {
      const [w, h] = this.paper.logo;
      doc.image(this.options.logo, x, y, { fit: [w, h] });
      y += h + 4;
    }
    this.font('bold', 11);
    y += this.write(issuer.name, x, y, textWidth);
    this.font('regular', 8);
    for (const line of this.issuerLines(issuer)) y += this.write(line, x, y, textWidth);
    // The box: RUC, document title and number, as SUNAT's printed representations frame them.
    this.font('bold', 11);
    const lines = [`R.U.C. ${issuer.idNumber ?? ''}`, printed.title, printed.id];
    const boxHeight = lines.reduce((h, l) => h + this.textHeight(l, boxWidth - 12) + 3, 10);
    doc.save().lineWidth(1).strokeColor('black').roundedRect(boxX, top, boxWidth, boxHeight, 4).stroke().restore();
    let by = top + 6;
    for (const line of lines) by += this.write(line, boxX + 6, by, boxWidth - 12, 'center') + 3;
    this.y = Math.max(y, top + boxHeight) + 8;
    this.font('bold', 8);
    this.y += this.write(printed.heading, x, this.y, this.width, 'center') + 6;
    this.banner();
  }

  private rule(): void {
    this.doc
      .save()
      .lineWidth(0.5)
      .strokeColor(RULE)
      .moveTo(this.left, this.y)
      .lineTo(this.left + this.width, this.y)
      .stroke()
      .restore();
    this.y += 4;
  }

  /** Label: value pairs, two columns on A4; on a ticket one per line, the value running on after its label. */
  private facts(facts: Fact[], columns = this.ticket ? 1 : 2): void {
    if (this.ticket) {
      for (const fact of facts) {
        this.font('regular');
        const height = this.textHeight(`${fact.label}: ${fact.value}`, this.width);
        this.ensure(height + 1);
        this.font('bold');
        this.doc.text(`${fact.label}: `, this.left, this.y, { width: this.width, continued: true, lineGap: 0.5 });
        this.font('regular');
        this.doc.text(fact.value || ' ', { lineGap: 0.5 });
        this.y += height + 1;
      }
      return;
    }
    const colWidth = (this.width - (columns - 1) * 12) / columns;
    // Two columns share a fixed label width; a single list fits its longest label (within reason).
    this.font('bold');
    const longest = Math.max(...facts.map((f) => this.doc.widthOfString(`${f.label}:`)));
    const labelWidth = columns > 1 ? 100 : Math.min(220, Math.max(100, longest + 10));
    const heightOf = (fact: Fact) => {
      this.font('bold');
      const label = this.textHeight(`${fact.label}:`, labelWidth - 4);
      this.font('regular');
      return Math.max(label, this.textHeight(fact.value || ' ', colWidth - labelWidth));
    };
    for (let i = 0; i < facts.length; i += columns) {
      const row = facts.slice(i, i + columns);
      const height = Math.max(...row.map(heightOf));
      this.ensure(height + 1);
      row.forEach((fact, c) => {
        const x = this.left + c * (colWidth + 12);
        this.font('bold');
        this.write(`${fact.label}:`, x, this.y, labelWidth - 4);
        this.font('regular');
        this.write(fact.value, x + labelWidth, this.y, colWidth - labelWidth);
      });
      this.y += height + 1;
    }
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

  /** A block that starts on a new page when it does not fit (never split between pages). */
  private block(lines: { text: string; bold?: boolean }[]): void {
    if (!lines.length) return;
    const height = lines.reduce(
      (h, l) => (this.font(l.bold ? 'bold' : 'regular'), h + this.textHeight(l.text, this.width) + 1),
      0,
    );
    this.ensure(height + 4);
    for (const line of lines) {
      this.font(line.bold ? 'bold' : 'regular');
      this.y += this.write(line.text, this.left, this.y, this.width) + 1;
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
