/** SUNAT's text for a return code, from sunat/codes/return-codes.csv (SUNAT's and greenter's error catalogs). */
import fs from 'node:fs';
import path from 'node:path';

let texts: Map<string, string> | null = null;

/** One CSV line: fields separated by commas, a field in double quotes may hold commas and doubled quotes. */
export function fields(line: string): string[] {
  const out: string[] = [];
  const re = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
  for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
    out.push(m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]);
    if (re.lastIndex === m.index) re.lastIndex++;
  }
  return out;
}

export function sunatMessage(code: string): string | null {
  if (!texts) {
    texts = new Map();
    const csv = fs.readFileSync(path.resolve(__dirname, '../sunat/codes/return-codes.csv'), 'utf8');
    for (const line of csv.split('\n').slice(1)) {
      const [c, , description] = fields(line);
      if (c && description) texts.set(c, description);
    }
  }
  return texts.get(code) ?? null;
}
