/**
 * SUNAT's validation sheets as chasqui carries them (sunat/rules/, sunat/SOURCES.md): one CSV per sheet of the
 * workbook "Reglas de validación" v20260212, and `revisions` for rows SUNAT's later revisions and its GRE XSL add.
 * What a citation (a rule's rows, documents/calendar/rules/) names is a file and a row number; this reads them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { csvFields } from '../documents/csv';

export type Severity = 'ERROR' | 'OBSERV';

export interface SheetRow {
  sheet: string;
  /** The validation's place in its file, from 1. */
  row: number;
  field: string;
  fieldName: string;
  tag: string;
  /** null where the transcription lost the column. */
  severity: Severity | null;
  /** Several when the code was read from a message more than one code carries. */
  codes: string[];
  /** sheet, condition:sheets, message:sheets, message:catalog, message-ambiguous, xsl, reported (sunat/SOURCES.md). */
  codeFrom: string;
  condition: string;
  message: string;
  lists: string;
  /** First issue date the row judges, for dated rows. */
  date: string | null;
  source: string;
}

const SHEETS = path.resolve(__dirname, '../sunat/rules');
const COLUMNS = ['sheet', 'row', 'field', 'field_name', 'tag', 'severity', 'code', 'code_from'] as const;

/** Rows of one carried sheet's CSV text. Pure: the caller reads the file. */
export function parseSheet(text: string): SheetRow[] {
  const [header, ...lines] = text.split('\n').filter((l) => l.trim() !== '');
  const names = csvFields(header);
  if (COLUMNS.some((c, i) => names[i] !== c)) throw new Error(`not a carried sheet: columns ${names.join(',')}`);
  return lines.map((line) => {
    const v = Object.fromEntries(csvFields(line).map((value, i) => [names[i], value])) as Record<string, string>;
    return {
      sheet: v.sheet,
      row: Number(v.row),
      field: v.field,
      fieldName: v.field_name,
      tag: v.tag,
      severity: v.severity === 'ERROR' || v.severity === 'OBSERV' ? v.severity : null,
      codes: v.code ? v.code.split('|') : [],
      codeFrom: v.code_from,
      condition: v.condition,
      message: v.message,
      lists: v.lists,
      date: v.date || null,
      source: v.source,
    };
  });
}

/** The carried files, by name without `.csv`. */
export function sheetFiles(): string[] {
  return fs
    .readdirSync(SHEETS)
    .filter((f) => f.endsWith('.csv'))
    .map((f) => f.slice(0, -4))
    .sort();
}

const cache = new Map<string, SheetRow[]>();

/** Every row of a carried file (`Factura2_0`, `revisions`, …); throws for a file chasqui does not carry. */
export function readSheet(file: string): SheetRow[] {
  if (!sheetFiles().includes(file)) throw new Error(`sunat/rules has no sheet '${file}'`);
  if (!cache.has(file)) cache.set(file, parseSheet(fs.readFileSync(path.join(SHEETS, `${file}.csv`), 'utf8')));
  return cache.get(file)!;
}

export function sheetRow(file: string, row: number): SheetRow | null {
  return readSheet(file).find((r) => r.row === row) ?? null;
}
