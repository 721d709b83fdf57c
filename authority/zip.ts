import { crc32, deflateRawSync } from 'node:zlib';
import { strFromU8, unzipSync } from 'fflate';

/** SUNAT's transport: a zip named like the XML, holding exactly that XML (`RUC-01-F001-1.zip` → `RUC-01-F001-1.xml`). */
export function zipXml(baseName: string, xml: string): Buffer {
  return zipEntries([{ name: `${baseName}.xml`, data: Buffer.from(xml, 'utf8') }]);
}

/**
 * A zip written with Node's native deflate: about five times faster than fflate's JavaScript deflate, which was a
 * seventh of the simulator's time per sendBill (it zips every CDR). Entries without data are folders (`dummy/`).
 */
export function zipEntries(entries: { name: string; data?: Buffer }[], date = new Date()): Buffer {
  const dosTime = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const dosDate = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.data ? entry.name : entry.name.replace(/\/?$/, '/'), 'utf8');
    const data = entry.data ?? Buffer.alloc(0);
    const packed = entry.data ? deflateRawSync(data) : data;
    const method = entry.data ? 8 : 0;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    local.copy(central, 8, 6, 28);
    central.writeUInt32LE(entry.data ? 0 : 0x10, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export type UnzipOutcome =
  | { ok: true; entries: { name: string; data: Uint8Array }[] }
  | { ok: false; reason: 'empty' | 'corrupt' };

/** Files of a zip (directory entries such as SUNAT's `dummy/` left out). */
export function unzipFiles(zip: Uint8Array): UnzipOutcome {
  if (zip.length === 0) return { ok: false, reason: 'empty' };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip);
  } catch {
    return { ok: false, reason: 'corrupt' };
  }
  const entries = Object.entries(files)
    .filter(([name]) => !name.endsWith('/'))
    .map(([name, data]) => ({ name, data }));
  return { ok: true, entries };
}

/**
 * XML bytes as text, honouring the declared encoding: SUNAT's older CDRs are ISO-8859-1, everything else UTF-8.
 */
export function decodeXml(bytes: Uint8Array): string {
  const head = strFromU8(bytes.subarray(0, 100), true);
  const declared = /^\s*<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8') return new TextDecoder(declared).decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
