import { crc32, deflateSync } from 'node:zlib';
import jsQR from 'jsqr';

// mupdf (MuPDF compiled to WebAssembly) is an ES module only: loaded once with a dynamic import, so the printed-document
// tests read PDFs with what `npm ci` installs and no system program.
type Mupdf = typeof import('mupdf');
let mupdf: Mupdf | undefined;

/** Loads the PDF reader; call it in a `before` hook, then build PdfFiles synchronously. */
export async function loadPdfReader(): Promise<void> {
  mupdf ??= await import('mupdf');
}

function reader(): Mupdf {
  if (!mupdf) throw new Error('PdfFile before loadPdfReader(): await it in a before hook');
  return mupdf;
}

/** Points a line's baseline may move and still be on the same printed row (a bold label beside a regular value). */
const ROW_TOLERANCE = 2.5;
/** Render resolution for reading QR codes: 150 dpi gives every module of the smallest QR (ticket) several pixels. */
const QR_DPI = 150;

/** A PDF read back with mupdf: text laid out as printed, fonts, images, page sizes and the QR codes on a page. */
export class PdfFile {
  private readonly doc: import('mupdf').PDFDocument;

  constructor(bytes: Buffer) {
    this.doc = reader().Document.openDocument(bytes, 'application/pdf') as import('mupdf').PDFDocument;
  }

  pages(): number {
    return this.doc.countPages();
  }

  /** Width and height of a page in points (A4: 595.28 × 841.89). */
  pageSize(page = 1): { width: number; height: number } {
    const [x0, y0, x1, y1] = this.doc.loadPage(page - 1).getBounds();
    return { width: x1 - x0, height: y1 - y0 };
  }

  /**
   * Text of every page (or of pages first–last) as printed: the pieces on one baseline form one row, left to right,
   * separated by two spaces; rows top to bottom, pages separated by a form feed (as pdftotext -layout).
   */
  text(first?: number, last?: number): string {
    const pages: string[] = [];
    for (let page = first ?? 1; page <= (last ?? first ?? this.pages()); page++) pages.push(this.pageText(page));
    return pages.join('\f');
  }

  private pageText(page: number): string {
    type Piece = { x: number; y: number; text: string };
    type Json = { blocks: { type: string; lines?: { x: number; y: number; text: string }[] }[] };
    const stext = this.doc.loadPage(page - 1).toStructuredText('preserve-whitespace');
    const { blocks } = JSON.parse(stext.asJSON()) as Json;
    const pieces: Piece[] = blocks
      .flatMap((b) => b.lines ?? [])
      .map((l) => ({ x: l.x, y: l.y, text: l.text.trimEnd() }));
    pieces.sort((a, b) => a.y - b.y || a.x - b.x);
    const rows: Piece[][] = [];
    for (const piece of pieces) {
      const row = rows[rows.length - 1];
      if (row && piece.y - row[0].y <= ROW_TOLERANCE) row.push(piece);
      else rows.push([piece]);
    }
    return (
      rows
        .map((row) =>
          row
            .sort((a, b) => a.x - b.x)
            .map((p) => p.text)
            .join('  '),
        )
        .join('\n') + '\n'
    );
  }

  /** The fonts the pages use (each once): PostScript name and whether the font program is embedded. */
  fonts(): { name: string; embedded: boolean }[] {
    const seen = new Map<string, { name: string; embedded: boolean }>();
    for (let page = 0; page < this.pages(); page++) {
      this.doc
        .findPage(page)
        .get('Resources', 'Font')
        .forEach((ref) => {
          const font = ref.resolve();
          // A composite (Type0) font carries its program in its descendant's descriptor.
          const descriptor = (font.get('Subtype').asName() === 'Type0' ? font.get('DescendantFonts', 0) : font).get(
            'FontDescriptor',
          );
          const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((key) => !descriptor.get(key).isNull());
          seen.set(ref.isIndirect() ? `obj ${ref.asIndirect()}` : font.toString(), {
            name: font.get('BaseFont').asName(),
            embedded,
          });
        });
    }
    return [...seen.values()];
  }

  /** How many images the pages draw (each drawing counted, as pdfimages -list). */
  images(): number {
    const { Device, Matrix } = reader();
    let drawn = 0;
    const device = new Device({ fillImage: () => void drawn++ });
    for (let page = 0; page < this.pages(); page++) this.doc.loadPage(page).run(device, Matrix.identity);
    device.close();
    return drawn;
  }

  /** The QR codes on a page, in reading order of discovery (none: an empty list). */
  qr(page = 1): string[] {
    const { ColorSpace, Matrix } = reader();
    const scale = QR_DPI / 72;
    const pixmap = this.doc.loadPage(page - 1).toPixmap(Matrix.scale(scale, scale), ColorSpace.DeviceGray, false);
    const [width, height, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride()];
    const grey = pixmap.getPixels();
    // jsQR reads RGBA: each grey byte becomes an opaque pixel of that grey (little-endian ABGR words).
    const rgba = new Uint8ClampedArray(width * height * 4);
    const words = new Uint32Array(rgba.buffer);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) words[y * width + x] = 0xff000000 | (grey[y * stride + x] * 0x010101);
    }
    // jsQR finds one code per call: whiten each one found and look again, so a second code cannot hide.
    const found: string[] = [];
    for (
      let code = jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' });
      code;
      code = jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })
    ) {
      found.push(code.data);
      const corners = Object.values(code.location);
      const [left, right] = [Math.min(...corners.map((p) => p.x)), Math.max(...corners.map((p) => p.x))];
      const [top, bottom] = [Math.min(...corners.map((p) => p.y)), Math.max(...corners.map((p) => p.y))];
      const margin = (right - left) / 10;
      for (let y = Math.max(0, Math.floor(top - margin)); y < Math.min(height, Math.ceil(bottom + margin)); y++) {
        rgba.fill(
          255,
          (y * width + Math.max(0, Math.floor(left - margin))) * 4,
          (y * width + Math.min(width, Math.ceil(right + margin))) * 4,
        );
      }
    }
    return found;
  }
}

/** A small valid PNG (grey w×h) written by hand, so logo checks have real input; `corrupt` breaks the IDAT CRC. */
export function testPng(width: number, height: number, corrupt = false): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(corrupt && type === 'IDAT' ? 0 : crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth; colour type 0 (grey)
  const raw = Buffer.concat(
    Array.from({ length: height }, (_, y) =>
      Buffer.from([0, ...Array.from({ length: width }, (_, x) => ((x + y) % 2 ? 40 : 220))]),
    ),
  );
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
