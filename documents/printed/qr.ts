/** The QR as vector squares (crisp at any zoom, nothing rasterised): qrcode computes the modules, pdfkit fills them. */
import QRCode from 'qrcode';

/** Draws `text` as a QR `size` points wide (quiet zone included) at (x, y). SUNAT's printed QR uses correction level Q. */
export function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'Q' });
  const quiet = 2;
  const cell = size / (modules.size + 2 * quiet);
  doc.save().fillColor('black');
  for (let row = 0; row < modules.size; row++) {
    // One rectangle per run of dark modules on a row keeps the page stream short.
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      doc.rect(x + (quiet + start) * cell, y + (quiet + row) * cell, (col - start) * cell, cell);
    }
  }
  doc.fill().restore();
}
