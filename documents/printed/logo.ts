/**
 * The issuer's logo, checked once when it is uploaded so that printing never meets a broken image: PNG (every chunk's
 * CRC, the image data inflates) or baseline/progressive JPEG (a frame header with its size), within size limits.
 */
import { crc32, inflateSync } from 'node:zlib';

export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

export type LogoCheck = { ok: true; type: LogoType; width: number; height: number } | { ok: false; reason: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Larger logos only make every PDF heavier; 2000 px is far more than a 150-point logo needs at 300 dpi. */
const MAX_SIDE = 2000;

function checkPng(bytes: Buffer): LogoCheck {
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  let ended = false;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (offset + 12 + length > bytes.length) return { ok: false, reason: `the PNG is truncated in its ${type} chunk` };
    const crc = bytes.readUInt32BE(offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== crc)
      return { ok: false, reason: `the PNG's ${type} chunk is corrupt (CRC)` };
    if (offset === 8 && type !== 'IHDR') return { ok: false, reason: 'the PNG does not start with its header (IHDR)' };
    if (type === 'IHDR') {
      width = bytes.readUInt32BE(offset + 8);
      height = bytes.readUInt32BE(offset + 12);
    } else if (type === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length));
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  if (!ended) return { ok: false, reason: 'the PNG is truncated (no IEND chunk)' };
  if (!data.length) return { ok: false, reason: 'the PNG has no image data' };
  try {
    inflateSync(Buffer.concat(data));
  } catch {
    return { ok: false, reason: 'the PNG image data does not decompress' };
  }
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

/** Whether `bytes` can be printed as a logo; `declared` is the Content-Type it was sent with. */
export function validateLogo(bytes: Buffer, declared: string, maxBytes: number): LogoCheck {
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
  if (!check.width || !check.height) return { ok: false, reason: 'the image has no size' };
  if (check.width > MAX_SIDE || check.height > MAX_SIDE)
    return { ok: false, reason: `the image is ${check.width}×${check.height} px; at most ${MAX_SIDE} px a side` };
  return check;
}
