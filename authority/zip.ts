import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/** SUNAT's transport: a zip named like the XML, holding exactly that XML (`RUC-01-F001-1.zip` → `RUC-01-F001-1.xml`). */
export function zipXml(baseName: string, xml: string): Buffer {
  return Buffer.from(zipSync({ [`${baseName}.xml`]: strToU8(xml) }, { level: 6 }));
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
