import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { citationOf, RULES, type RuleAnswer, type RuleCitation, type RuleDefinition } from '../../documents/calendar';
import { sunatCode } from '../../documents/sunat-codes';
import { parseSheet, readSheet, sheetFiles, sheetRow, type SheetRow } from '../../validator/sheets';

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * What a citation and the carried sheets say against what the calendar says: empty when they agree. `lookup` reads
 * the carried sheets; a test hands it altered rows to show each disagreement is caught.
 */
function disagreements(
  rule: RuleDefinition,
  citation: RuleCitation | undefined,
  lookup: (file: string, row: number) => SheetRow | null = sheetRow,
): string[] {
  if (!citation) return [`${rule.id}: no citation`];
  const out: string[] = [];
  const cited = new Set<string>();
  const divergent = Object.keys(citation.divergences ?? {});
  let reported = citation.reading === 'reported';
  for (const c of citation.rows) {
    const row = lookup(c.file, c.row);
    if (!row) {
      out.push(`${rule.id}: ${c.file} has no row ${c.row}`);
      continue;
    }
    const at = `${rule.id}: ${c.file} row ${c.row}`;
    if (!row.codes.includes(c.code)) out.push(`${at} carries ${row.codes.join('|') || 'no code'}, not ${c.code}`);
    if (row.severity && row.severity !== c.severity) out.push(`${at} is ${row.severity}, not ${c.severity}`);
    if (!squash(row.condition).includes(squash(c.condition)))
      out.push(`${at}: its condition does not say "${c.condition}"`);
    if (row.date && row.date !== rule.effective) out.push(`${at} is dated ${row.date}, the calendar ${rule.effective}`);
    // A refusal the sheets date on the rule's day is what the rule is for: chasqui answers with it, or says what instead.
    if (row.date === rule.effective && c.severity === 'ERROR' && !rule.codes.includes(c.code) && !divergent.length)
      out.push(`${at}: error ${c.code} from ${row.date}, which the rule does not answer with`);
    reported ||= row.source.startsWith('reported');
    cited.add(c.code);
  }
  for (const code of rule.codes)
    if (!cited.has(code) && !divergent.includes(code))
      out.push(`${rule.id}: answers ${code}, which no cited row carries`);
  for (const code of divergent)
    if (!rule.codes.includes(code)) out.push(`${rule.id}: divergence for ${code}, which the rule does not answer with`);
  if ((rule.confidence === 'reported') !== reported)
    out.push(`${rule.id}: ${rule.confidence} in the calendar, ${reported ? 'reported' : 'sure'} by its sources`);
  return out;
}

describe("SUNAT's validation sheets (sunat/rules) and the calendar's citations", () => {
  it('carries the sheets of the documents chasqui issues, every validation numbered in order with its condition', () => {
    expect(sheetFiles()).to.include.members([
      'Factura2_0',
      'NotaCredito2_0',
      'NotaDebito2_0',
      'LiquidacionCompra2_0',
      'Resumen_Diario1_1',
      'Comunicacion_de_Baja1_0',
      'Resumen_de_reversiones1_0',
      'Percepciones1_0',
      'Retenciones1_0',
      'revisions',
    ]);
    for (const file of sheetFiles()) {
      const rows = readSheet(file);
      expect(rows.length, file).to.be.greaterThan(0);
      rows.forEach((r, i) => {
        expect(r.row, `${file} row ${i + 1}`).to.equal(i + 1);
        expect(r.condition || r.message, `${file} row ${r.row}`).to.not.equal('');
        for (const code of r.codes) expect(code, `${file} row ${r.row}`).to.match(/^\d{4}$/);
      });
    }
    expect(readSheet('Factura2_0').length).to.be.greaterThan(800);
  });

  it('reads a CSV the way the files are written, quoted commas included, and refuses another table', () => {
    const [row] = parseSheet(
      'sheet,row,field,field_name,tag,severity,code,code_from,condition,message,lists,date,source\n' +
        'S,1,28,"Código, SUNAT",/x,OBSERV,4332|3496,message-ambiguous,"Si el tag existe, el ""valor""",M,,2027-01-01,src\n',
    );
    expect(row).to.deep.include({ fieldName: 'Código, SUNAT', severity: 'OBSERV', codes: ['4332', '3496'] });
    expect(row).to.deep.include({ condition: 'Si el tag existe, el "valor"', lists: '', date: '2027-01-01' });
    expect(() => parseSheet('code,category,description,source\n')).to.throw('not a carried sheet');
    expect(() => readSheet('../codes/return-codes')).to.throw("no sheet '../codes/return-codes'");
  });

  it("a Factura2_0 or LiquidacionCompra2_0 row carries the code the notes' sheets give its condition and message", () => {
    // Those two transcriptions lost the code column, so their codes are read: never against SUNAT's own column where
    // a note's sheet writes the same validation (Factura2_0 rows 119 and 120 were read as 4332; the notes say 3496).
    const key = (r: { condition: string; message: string }) =>
      squash(`${r.condition} ${r.message}`)
        .replace(/(CreditNote|DebitNote)Line/g, 'InvoiceLine')
        .replace(/\/(Invoice|CreditNote|DebitNote|SelfBilledInvoice)\b/g, '/Root');
    const written = new Map<string, { severity: string | null; code: string }[]>();
    for (const file of ['NotaCredito2_0', 'NotaDebito2_0'])
      for (const r of readSheet(file))
        if (r.codeFrom === 'sheet')
          for (const code of r.codes)
            written.set(key(r), [...(written.get(key(r)) ?? []), { severity: r.severity, code }]);
    let compared = 0;
    for (const file of ['Factura2_0', 'LiquidacionCompra2_0'])
      for (const r of readSheet(file)) {
        const same = written.get(key(r));
        if (!same) continue;
        const bySeverity = same.filter((w) => w.severity === r.severity);
        const expected = (bySeverity.length ? bySeverity : same.filter((w) => !w.severity)).map((w) => w.code);
        expect(r.codes, `${file} row ${r.row}`).to.include.members([...new Set(expected)]);
        compared++;
      }
    expect(compared).to.be.greaterThan(500);
    expect(sheetRow('Factura2_0', 119)).to.deep.include({ codes: ['3496'], codeFrom: 'condition:sheets' });
  });

  it('every code a sheet writes with its message is in return-codes.csv with a text the sheets give it', () => {
    const plain = (text: string) => squash(text).replace(/\.$/, '');
    const written = new Map<string, { at: string; messages: Set<string> }>();
    for (const file of sheetFiles())
      for (const r of readSheet(file)) {
        if (r.codeFrom !== 'sheet' || r.codes.length !== 1 || !r.message || r.message === '-') continue;
        const entry = written.get(r.codes[0]) ?? { at: `${file} row ${r.row}`, messages: new Set<string>() };
        written.set(r.codes[0], entry.messages.add(plain(r.message)) && entry);
      }
    const missing = [...written]
      .filter(([code, { messages }]) => !messages.has(plain(sunatCode(code).text ?? '')))
      .map(([code, { at }]) => `${code} (${at}): ${sunatCode(code).text ?? 'no row'}`);
    expect(written.size).to.be.greaterThan(400);
    expect(missing).to.deep.equal([]);
  });

  it('SUNAT judges the product code only when the tag exists: no row of the field refuses a line without one', () => {
    const fields: [string, string][] = [
      ['Factura2_0', '28'],
      ['NotaCredito2_0', '26'],
      ['NotaDebito2_0', '26'],
      ['LiquidacionCompra2_0', '25'],
    ];
    for (const [file, field] of fields) {
      const rows = readSheet(file).filter(
        (r) => r.field === field && r.tag.endsWith('cbc:ItemClassificationCode') && r.codes.some((c) => c !== '3181'),
      );
      expect(rows.length, file).to.be.greaterThan(1);
      for (const r of rows) {
        // The one rule about an absent code reads the register of those obliged to send it (ind_padron 12): 4331.
        if (r.condition.includes('no existe el Tag UBL'))
          expect(r.codes, `${file} row ${r.row}`).to.deep.equal(['4331']);
        else
          expect(r.condition, `${file} row ${r.row}`).to.match(
            /^Si el (tag (UBL )?existe|valor del Tag UBL es diferente de vacío)/,
          );
        expect(r.severity, `${file} row ${r.row}`).to.not.equal('ERROR');
      }
    }
  });

  it("a note's referenced document: 2524 spares credit notes of reason 10 and debit notes of reason 03", () => {
    const credit = sheetRow('NotaCredito2_0', 73)!;
    expect(credit).to.deep.include({ codes: ['2524'], severity: 'ERROR' });
    expect(credit.condition).to.contain("es diferente de '10-Otros', y no existe un tag");
    const debit = sheetRow('NotaDebito2_0', 73)!;
    expect(debit.codes).to.deep.equal(['2524']);
    expect(debit.condition).to.contain("es diferente de '03-Penalidades', y no existe un tag");
  });

  it('every citation names a row the sheets carry, with its code, severity and words', () => {
    for (const { id, ...declared } of RULES) {
      const citation = citationOf({ id, ...declared });
      expect(citation.rows.length, id).to.be.greaterThan(0);
      expect(citation.date, id).to.not.equal('');
      const rule = { id, effective: '', codes: citation.rows.map((r) => r.code), confidence: citation.reading };
      const problems = disagreements({ ...rule, docTypes: [], summary: '', source: '' } as never, citation);
      // Only the calendar's side can disagree here (dates, divergences): the rows themselves must match.
      expect(
        problems.filter((p) => !/is dated|divergence|sources$/.test(p)),
        id,
      ).to.deep.equal([]);
    }
  });

  it('every dated row that answers with a code is cited by a rule of the calendar: no change of SUNAT left unapplied', () => {
    const cited = new Set(RULES.flatMap((rule) => citationOf(rule).rows.map((r) => `${r.file}:${r.row}`)));
    const uncited = sheetFiles()
      .flatMap((file) => readSheet(file).map((r) => ({ file, r })))
      .filter(({ file, r }) => r.date && r.codes.length && !cited.has(`${file}:${r.row}`))
      .map(({ file, r }) => `${file} row ${r.row} (${r.codes.join('|')}, ${r.date})`);
    expect(uncited).to.deep.equal([]);
  });

  it("every document type a rule judges is one of its cited rows' sheets: no rule reaches a document SUNAT's rows do not", () => {
    // Boleta2_0 is not carried; its rows are Factura2_0's (issue 33), so Factura2_0 stands for both.
    const judges: Record<string, readonly string[]> = {
      Factura2_0: ['01', '03'],
      NotaCredito2_0: ['07'],
      NotaDebito2_0: ['08'],
      LiquidacionCompra2_0: ['04'],
      'Resumen Diario1_1': ['rc'],
      'GRE-Remitente2_0': ['09'],
      'GRE-Transportista2_0': ['31'],
    };
    for (const rule of RULES) {
      const sheets = citationOf(rule).rows.map((c) => sheetRow(c.file, c.row)?.sheet ?? '');
      const covered = new Set(sheets.flatMap((sheet) => judges[sheet] ?? []));
      expect(
        rule.docTypes.filter((t) => !covered.has(t)),
        `${rule.id} (cites ${[...new Set(sheets)].join(', ')})`,
      ).to.deep.equal([]);
    }
  });

  describe('every dated rule of the calendar agrees with its sheet rows', () => {
    for (const rule of RULES) {
      it(`${rule.id}: codes, severity, condition, date and confidence`, () => {
        expect(disagreements(rule, citationOf(rule))).to.deep.equal([]);
      });
    }
  });

  it("the catalog answers a rule's code with the text the rule declares, else with its own (none for 3503, 3504)", () => {
    const declared = RULES.flatMap((rule) => Object.values<RuleAnswer>(rule.answers)).filter((a) => a.text);
    expect(declared.map((a) => a.code)).to.deep.equal(['3507']);
    for (const rule of RULES)
      for (const answer of Object.values<RuleAnswer>(rule.answers)) {
        const { text, answer: answered } = sunatCode(answer.code);
        expect(answered, `${rule.id} ${answer.code}`).to.equal(answer.text ?? text);
      }
  });

  it("docs/rules.md's calendar lists every rule with its date, codes and confidence as the calendar holds them", () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/rules.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## The calendar'), doc.indexOf('## What each rule does'));
    const rows = new Map(
      table
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .map((l) => l.split('|').map((c) => c.trim()))
        .map(([, id, date, codes, , confidence]) => [id.replaceAll('`', ''), { date, codes, confidence }]),
    );
    expect([...rows.keys()].sort()).to.deep.equal(RULES.map((r) => r.id).sort());
    for (const rule of RULES)
      expect(rows.get(rule.id), rule.id).to.deep.equal({
        date: rule.effective,
        codes: rule.codes.join(', '),
        confidence: rule.confidence,
      });
  });

  it('fails every rule when a cited row of the carried sheets says another code, severity, condition or date', () => {
    // What a later revision of SUNAT's workbook does to a row, applied to each cited row in turn.
    const changes: Record<string, (row: SheetRow, cited: RuleCitation['rows'][number]) => Partial<SheetRow>> = {
      code: (row) => ({ codes: row.codes.map((c) => String(Number(c) + 1).padStart(4, '0')) }),
      severity: (_, cited) => ({ severity: cited.severity === 'ERROR' ? 'OBSERV' : 'ERROR' }),
      condition: () => ({ condition: 'Si el Tag UBL no existe' }),
      date: () => ({ date: '2030-01-01' }),
    };
    let caught = 0;
    for (const rule of RULES) {
      const citation = citationOf(rule);
      for (const cited of citation.rows)
        for (const [what, change] of Object.entries(changes)) {
          const altered = (file: string, n: number) => {
            const row = sheetRow(file, n);
            return row && file === cited.file && n === cited.row ? { ...row, ...change(row, cited) } : row;
          };
          expect(disagreements(rule, citation, altered), `${rule.id}, ${cited.file} row ${cited.row}: ${what}`).to.not
            .be.empty;
          caught++;
        }
    }
    expect(caught).to.be.greaterThan(4 * RULES.length);
  });

  it('fails a rule the sheets do not carry: the product code required on every line (chasqui before issue 33)', () => {
    const valid = RULES.find((r) => r.id === 'product-code-valid')!;
    const required: RuleDefinition = {
      ...valid,
      id: 'product-code-required' as never,
      codes: ['3496'],
      docTypes: ['01'],
      summary: "Every line carries SUNAT's product code",
      confidence: 'sure',
    };
    // No row refuses a line without a code (above), so nothing can be cited for it; cited to the rows it misreads,
    // its confidence gives it away: error 3496 is an implementer's reading of SUNAT's revisions.
    expect(disagreements(required, undefined)).to.deep.equal(['product-code-required: no citation']);
    expect(disagreements(required, citationOf(valid))).to.deep.equal([
      'product-code-required: sure in the calendar, reported by its sources',
    ]);
    // A rate the sheets do not carry, and a date other than the sheets'.
    const rate = { ...RULES.find((r) => r.id === 'mype-rate-end')!, codes: ['3103', '2800'] };
    expect(disagreements(rate, citationOf(rate))).to.deep.equal([
      'mype-rate-end: answers 2800, which no cited row carries',
    ]);
    const early = { ...RULES.find((r) => r.id === 'gre-loading-date')!, effective: '2026-05-01' };
    expect(disagreements(early, citationOf(early))).to.have.length(3);
  });
});
