/**
 * XSD validation with libxml2's xmllint compiled to WebAssembly (xmllint-wasm), against SUNAT's schemas in sunat/xsd.
 * One xmllint run validates many documents against one schema (each run starts a worker and parses the schema).
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateXML, memoryPages, type XMLFileInfo } from 'xmllint-wasm';
import { NS } from './detect';

const SUNAT_XSD = path.resolve(__dirname, '../sunat/xsd');

let schemaFiles: XMLFileInfo[] | null = null;

/** Every schema file, as xmllint's in-memory file system sees it (`xsd/2.1/maindoc/…`, imports resolve relatively). */
function preload(): XMLFileInfo[] {
  if (schemaFiles) return schemaFiles;
  const out: XMLFileInfo[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.xsd'))
        out.push({
          fileName: `xsd/${path.relative(SUNAT_XSD, full).split(path.sep).join('/')}`,
          contents: fs.readFileSync(full),
        });
    }
  };
  walk(SUNAT_XSD);
  schemaFiles = out;
  return out;
}

export interface XsdVerdict {
  ok: boolean;
  /** `line N: message`, prefixes shortened to cbc:/cac:/ext:/ds:. */
  errors: string[];
}

/**
 * Remove the empty `ext:UBLExtension` placeholder of an unsigned document (and `ext:UBLExtensions` when nothing is
 * left), keeping line numbers: UBL 2.1 refuses an empty ExtensionContent, a signed document fills it.
 */
export function stripEmptyExtensions(xml: string): string {
  const prefixes = [
    ...xml.matchAll(
      new RegExp(`xmlns:([A-Za-z_][\\w.-]*)\\s*=\\s*["']${NS.ext.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']`, 'g'),
    ),
  ].map((m) => m[1]);
  const p = prefixes.length ? `(?:${prefixes.map((x) => `${x}:`).join('|')})` : '';
  const blank = '(?:\\s|<!--[\\s\\S]*?-->)*';
  const keepLines = (m: string) => '\n'.repeat(m.split('\n').length - 1);
  const one = new RegExp(
    `<${p}UBLExtension(?:\\s[^>]*)?>${blank}<${p}ExtensionContent(?:\\s[^>]*?)?(?:/>|>${blank}</${p}ExtensionContent\\s*>)${blank}</${p}UBLExtension\\s*>`,
    'g',
  );
  const empty = new RegExp(`<${p}UBLExtensions(?:\\s[^>]*?)?(?:/>|>${blank}</${p}UBLExtensions\\s*>)`, 'g');
  return xml.replace(one, keepLines).replace(empty, keepLines);
}

const PREFIXES = Object.entries(NS).map(([prefix, uri]) => [`{${uri}}`, `${prefix}:`] as const);

function tidy(message: string): string {
  let m = message.replace(/^(?:element \S+: )?(?:Schemas validity error|parser error)\s*: /, '');
  for (const [uri, prefix] of PREFIXES) m = m.replaceAll(uri, prefix);
  return m;
}

/** Validate documents (name → text) against one schema (path under sunat/xsd). */
export async function validateAgainstSchema(
  schema: string,
  documents: { name: string; xml: string }[],
): Promise<Map<string, XsdVerdict>> {
  const out = new Map<string, XsdVerdict>();
  if (!documents.length) return out;
  // Names inside xmllint's file system: short, unique, never read as options.
  const files = documents.map((d, i) => ({ fileName: `doc/${i}.xml`, contents: d.xml }));
  const all = preload();
  const main = all.find((f) => f.fileName === `xsd/${schema}`);
  if (!main) throw new Error(`no schema ${schema} in sunat/xsd`);
  const result = await validateXML({
    xml: files,
    schema: main,
    preload: all.filter((f) => f !== main),
    initialMemoryPages: 64 * memoryPages.MiB,
    maxMemoryPages: 512 * memoryPages.MiB,
  }).catch((err: Error) => ({ valid: false, errors: [], rawOutput: err.message, normalized: '' }));
  const lines = result.rawOutput.split('\n');
  files.forEach((f, i) => {
    const errors: string[] = [];
    let status: boolean | null = null;
    for (const line of lines) {
      if (line === `${f.fileName} validates`) status = true;
      else if (line === `${f.fileName} fails to validate`) status = false;
      else if (line.startsWith(`${f.fileName}:`)) {
        const m = /^(\d+): ([\s\S]*)$/.exec(line.slice(f.fileName.length + 1));
        errors.push(m ? `line ${m[1]}: ${tidy(m[2])}` : tidy(line.slice(f.fileName.length + 1)));
      }
    }
    if (status === null) {
      status = false;
      if (!errors.length) errors.push(`xmllint gave no verdict: ${lines.filter(Boolean).slice(-2).join(' | ')}`);
    }
    out.set(documents[i].name, { ok: status, errors });
  });
  return out;
}
