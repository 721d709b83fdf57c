/**
 * The issuer's logo, checked once when it is uploaded so that printing never meets a broken image: PNG (every chunk's
 * CRC, the image data inflates to exactly the size its header declares) or baseline/progressive JPEG (a frame header
 * with its size), within size limits. The header's dimensions are read and bounded before anything inflates or
 * decodes the image (a decompression bomb inflates no further than the declared size), and printing checks a stored
 * logo again before pdfkit decodes it (docs/security.md, "Logo").
 */
import { crc32, inflateSync } from 'node:zlib';

export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

export type LogoCheck = { ok: true; type: LogoType; width: number; height: number } | { ok: false; reason: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Larger logos only make every PDF heavier; 2000 px is far more than a 150-point logo needs at 300 dpi. */
const MAX_SIDE = 2000;
/** What a decoder may be asked to hold: 2 million pixels (2000 × 1000), at most 16 MB raw at 8 bytes a pixel. */
export const LOGO_MAX_PIXELS = 2_000_000;

/** Samples per pixel of each PNG colour type, with the bit depths it allows. */
const PNG_COLOUR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};

/** Adam7's passes: starting column and row, column and row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The bytes a PNG's image data inflates to (each row's filter byte included), from its header alone. */
function pngRawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w && h ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0);
  if (!interlaced) return rows(width, height);
  return ADAM7.reduce(
    (sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)),
    0,
  );
}

/** A PNG's IHDR fields, or why they cannot be printed. */
function pngHeader(
  bytes: Buffer,
): { ok: true; width: number; height: number; rawSize: number } | { ok: false; reason: string } {
  if (bytes.length < 33 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return { ok: false, reason: 'the PNG does not start with its header (IHDR)' };
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [depth, colour, compression, filter, interlace] = bytes.subarray(24, 29);
  const kind = PNG_COLOUR_TYPES[colour];
  if (!kind || !kind.depths.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1)
    return { ok: false, reason: 'the PNG header (IHDR) is not valid' };
  const bounded = checkDimensions(width, height);
  if (!bounded.ok) return bounded;
  return { ok: true, width, height, rawSize: pngRawSize(width, height, kind.channels * depth, interlace === 1) };
}

function checkDimensions(width: number, height: number): { ok: true } | { ok: false; reason: string } {
  if (!width || !height) return { ok: false, reason: 'the image has no size' };
  if (width > MAX_SIDE || height > MAX_SIDE)
    return { ok: false, reason: `the image is ${width}×${height} px; at most ${MAX_SIDE} px a side` };
  if (width * height > LOGO_MAX_PIXELS)
    return { ok: false, reason: `the image is ${width}×${height} px; at most ${LOGO_MAX_PIXELS} pixels` };
  return { ok: true };
}

function checkPng(bytes: Buffer): LogoCheck {
  const header = pngHeader(bytes);
  if (!header.ok) return header;
  const { width, height, rawSize } = header;
  let offset = 8;
  const data: Buffer[] = [];
  let ended = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (offset + 12 + length > bytes.length) return { ok: false, reason: `the PNG is truncated in its ${type} chunk` };
    const crc = bytes.readUInt32BE(offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== crc)
      return { ok: false, reason: `the PNG's ${type} chunk is corrupt (CRC)` };
    if (type === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length));
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  if (!ended) return { ok: false, reason: 'the PNG is truncated (no IEND chunk)' };
  if (!data.length) return { ok: false, reason: 'the PNG has no image data' };
  // Never more than the header declares: a bomb stops at `rawSize` instead of filling the memory.
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(data), { maxOutputLength: rawSize });
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? { ok: false, reason: `the PNG image data inflates to more than the ${rawSize} bytes its header declares` }
      : { ok: false, reason: 'the PNG image data does not decompress' };
  }
  if (raw.length !== rawSize)
    return {
      ok: false,
      reason: `the PNG image data inflates to ${raw.length} bytes, not the ${rawSize} its header declares`,
    };
  return { ok: true, type: 'image/png', width, height };
}

function checkJpeg(bytes: Buffer): LogoCheck {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return { ok: false, reason: 'the JPEG is malformed (marker expected)' };
    const marker = bytes[offset + 1];
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): the frame header with the image size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (offset + 9 > bytes.length) break;
      return {
        ok: true,
        type: 'image/jpeg',
        height: bytes.readUInt16BE(offset + 5),
        width: bytes.readUInt16BE(offset + 7),
      };
    }
    offset += 2 + length;
  }
  return { ok: false, reason: 'the JPEG has no frame header (truncated or not a JPEG)' };
}

/**
 * Whether `bytes` can be printed as a logo; `declared` is the Content-Type it was sent with. Printing calls it again
 * without `maxBytes` (the upload's limit may have changed since), so a logo stored before a check existed is never
 * handed to a decoder unchecked.
 */
export function validateLogo(bytes: Buffer, declared: string, maxBytes = Infinity): LogoCheck {
  if (!bytes.length) return { ok: false, reason: 'the image is empty' };
  if (bytes.length > maxBytes) return { ok: false, reason: `the image is larger than ${maxBytes} bytes` };
  const png = bytes.subarray(0, 8).equals(PNG_SIGNATURE);
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!png && !jpeg) return { ok: false, reason: 'the image is neither PNG nor JPEG' };
  const actual = png ? 'image/png' : 'image/jpeg';
  if (declared !== actual)
    return { ok: false, reason: `the image is a ${actual}, not the ${declared} its Content-Type says` };
  const check = png ? checkPng(bytes) : checkJpeg(bytes);
  if (!check.ok) return check;
  const bounded = checkDimensions(check.width, check.height);
  return bounded.ok ? check : bounded;
}
