/**
 * The paper a printed document is drawn on and the drawing primitives every part of it uses: a cursor that moves
 * down the page, wrapped text, rules, label/value facts, blocks never split between pages, and a dry mode that
 * measures without drawing. Widths and sizes come from the paper format (A4 or the 80 mm ticket).
 */
import PDFDocument from 'pdfkit';
import { fonts } from './fonts';
import type { Fact, PrintedDocument } from './model';

export type PaperFormat = 'a4' | 'ticket';

export interface RenderOptions {
  format: PaperFormat;
  /** Words printed across every page when the document is not a valid one (DEMO, RECHAZADO, ANULADO). */
  marks: string[];
  /** The issuer's logo (PNG or JPEG, already validated). */
  logo?: Buffer | null;
}

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

const RULE = '#999999';

export abstract class Sheet {
  readonly doc: PDFKit.PDFDocument;
  readonly paper: Paper;
  readonly ticket: boolean;
  y = 0;
  /** Measuring only: positions advance, nothing is drawn and no page is added. */
  dry = false;
  readonly left: number;
  readonly width: number;

  constructor(
    readonly printed: PrintedDocument,
    readonly options: RenderOptions,
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

  get bottom(): number {
    // A4 keeps room for the page footer; the ticket's page is cut, so its bottom is only a safety limit.
    return this.paper.height - this.paper.margin - (this.ticket ? 0 : 14);
  }

  font(name: 'regular' | 'bold', size = this.paper.size): this {
    this.doc.font(name).fontSize(size);
    return this;
  }

  textHeight(text: string, width: number): number {
    return this.doc.heightOfString(text, { width, lineGap: 0.5 });
  }

  /** Text in a box, wrapped to `width`; returns its height. */
  write(text: string, x: number, y: number, width: number, align: 'left' | 'right' | 'center' = 'left'): number {
    if (!this.dry) this.doc.text(text, x, y, { width, align, lineGap: 0.5 });
    return this.textHeight(text, width);
  }

  /** Starts a page when `height` does not fit below the current position. */
  ensure(height: number): void {
    if (!this.dry && this.y + height > this.bottom) this.newPage();
  }

  /** Adds a page and draws what tops every page. */
  abstract newPage(): void;

  rule(): void {
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
  facts(facts: Fact[], columns = this.ticket ? 1 : 2): void {
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

  /** A block that starts on a new page when it does not fit (never split between pages). */
  block(lines: { text: string; bold?: boolean }[]): void {
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
}
