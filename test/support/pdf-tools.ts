import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/** The Debian tools the printed-document tests read PDFs with; a missing one fails in one line naming its package. */
const TOOLS: Record<string, string> = { pdftoppm: 'poppler-utils', pdftotext: 'poppler-utils', pdfinfo: 'poppler-utils', pdffonts: 'poppler-utils', pdfimages: 'poppler-utils', zbarimg: 'zbar-tools' };

export function requirePdfTools(): void {
  const missing = Object.keys(TOOLS).filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length) {
    const packages = [...new Set(missing.map((t) => TOOLS[t]))].join(' ');
    throw new Error(`missing ${missing.join(', ')}: install them with apt-get install -y ${packages}`);
  }
}

/** A PDF on disk, read by poppler and zbar. */
export class PdfFile {
  readonly file: string;
  constructor(bytes: Buffer, name = 'document') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-pdf-'));
    this.file = path.join(dir, `${name}.pdf`);
    fs.writeFileSync(this.file, bytes);
  }

  /** Text of every page (or of pages first–last), laid out as printed. */
  text(first?: number, last?: number): string {
    const range = first ? ['-f', String(first), '-l', String(last ?? first)] : [];
    return execFileSync('pdftotext', ['-layout', ...range, this.file, '-'], { encoding: 'utf8' });
  }

  info(): Record<string, string> {
    const out = execFileSync('pdfinfo', [this.file], { encoding: 'utf8' });
    return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
  }

  pages(): number {
    return Number(this.info().Pages);
  }

  /** pdffonts rows: name, and whether the font is embedded. */
  fonts(): { name: string; embedded: boolean }[] {
    const lines = execFileSync('pdffonts', [this.file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
    return lines.map((l) => {
      const cols = l.trim().split(/\s+/);
      return { name: cols[0], embedded: cols[cols.length - 5] === 'yes' };
    });
  }

  images(): number {
    return execFileSync('pdfimages', ['-list', this.file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean).length;
  }

  /** Renders page `page` to PNG at `dpi`; returns the file (kept for a human to look at). */
  png(page = 1, dpi = 150): string {
    const prefix = this.file.replace(/\.pdf$/, `-p${page}`);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', this.file, prefix]);
    return `${prefix}.png`;
  }

  /** The QR codes zbar reads on a page (none: an empty list). */
  qr(page = 1): string[] {
    const run = spawnSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', this.png(page)], { encoding: 'utf8' });
    // zbarimg exits 4 when it finds no symbol.
    if (run.status !== 0 && run.status !== 4) throw new Error(`zbarimg failed: ${run.stderr}`);
    return run.stdout.split('\n').filter(Boolean);
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
  const raw = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (_, x) => ((x + y) % 2 ? 40 : 220))])));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
