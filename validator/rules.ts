/**
 * SUNAT's own validation rules (the `ValidaExprReg*` XSLs in sunat/xsl) run by SaxonJS.
 *
 * SUNAT writes these XSLs for IBM DataPower and its Facturador (SFS); a standard XSLT 3.0 processor needs them
 * adapted. sunat/xsl stays as SUNAT publishes it: `prepareRules` makes a working copy in the cache directory
 * (outside the clone) and edits only the copy:
 *  - SFS variants: the include of the SFS installation path → `../error/validate_utils.xsl`;
 *  - DataPower variants: `local:///commons/` → `commons/`, `dp:variable('var://context/cpe/nombreArchivoEnviado')`
 *    → the stylesheet parameter `$nombreArchivoEnviado`;
 *  - `validator/xsl/exslt-shim.xsl` (regexp:match, date:*, dyn:evaluate) is copied beside validate_utils.xsl and
 *    included from error_utils.xsl;
 *  - error_utils.xsl's rejection and observation messages are tagged `@@CPE-REJECT code …` / `@@CPE-OBS code …` so
 *    that the code is read from the template parameter (not every message carries it);
 *  - bytes that are not UTF-8 (stray Latin-1 in some comments) are dropped.
 *  - 04 (DataPower): a misplaced xsl:param and three undeclared variables, see adaptLiquidacion.
 * Each stylesheet is then compiled once by xslt3 into a SEF file kept in the same working copy; the working copy is
 * keyed by a hash of sunat/xsl, the shim, the code of these edits and the SaxonJS version, so a change of any of them
 * recompiles. Compiling is slow (tens of seconds for the invoice rules), running is fast, hence the cache.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// SaxonJS ships no type declarations; the three calls used here are typed below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SaxonJS = require('saxon-js') as {
  transform(options: Record<string, unknown>, mode?: 'sync'): { principalResult?: unknown };
  setLogLevel(level: number): void;
};

const run = promisify(execFile);
const SUNAT_XSL = path.resolve(__dirname, '../sunat/xsl');
const SHIM = path.join(__dirname, 'xsl/exslt-shim.xsl');

const LIQUIDACION = 'ValidaExprRegLiquidacion-2.0.1.xsl';

/** Document type → SUNAT validation XSL (relative to sunat/xsl). */
export const RULE_FILES: Record<string, string> = {
  // SFS variants: the DataPower copies of 01/03/07/08 do not compile in a standard processor (dead code with
  // undeclared variables, concat() with one argument).
  '01': 'commons/xsl/ValidaExprRegFactura-2.0.1.xsl',
  '03': 'commons/xsl/ValidaExprRegBoleta-2.0.1.xsl',
  '07': 'commons/xsl/ValidaExprRegNC-2.0.1.xsl',
  '08': 'commons/xsl/ValidaExprRegND-2.0.1.xsl',
  '09': 'commons/xsl/ValidaExprRegGreRemitente-2.0.1.xsl',
  '31': 'commons/xsl/ValidaExprRegGreTransportista-2.0.1.xsl',
  // DataPower variants. 04: the SFS ValidaExprLiq is an empty stub that checks nothing; the DataPower copy runs
  // after the edits of adaptLiquidacion (a misplaced xsl:param, three undeclared variables).
  '04': LIQUIDACION,
  RC: 'ValidaExprRegSummary-1.1.0.xsl',
  RA: 'ValidaExprRegSummaryVoided-1.0.1.xsl',
  RR: 'ValidaExprRegOtrosVoided-1.0.1.xsl',
  // Retention and perception: beyond SUNAT's kit (cpe-validate gives them XSD and signature only).
  '20': 'ValidaExprRegRetencion-1.0.3.xsl',
  '40': 'ValidaExprRegPercepcion-1.0.2.xsl',
};

export interface RuleMessage {
  code: string;
  message: string;
}

export interface RulesVerdict {
  /** accepted / observed: SUNAT would accept; rejected: its first rejection; error: the XSL itself failed. */
  result: 'accepted' | 'observed' | 'rejected' | 'error';
  rejection: RuleMessage | null;
  observations: RuleMessage[];
  error: string | null;
}

function hashTree(dir: string, hash: ReturnType<typeof createHash>): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(full, hash);
    else hash.update(`${path.relative(SUNAT_XSL, full)}\n`).update(fs.readFileSync(full));
  }
}

function saxonVersion(): string {
  return (JSON.parse(fs.readFileSync(require.resolve('saxon-js/package.json'), 'utf8')) as { version: string }).version;
}

function insertAfterStylesheetTag(text: string, snippet: string): string {
  const out = text.replace(/(<xsl:stylesheet\b[^>]*>)/, (m) => `${m}\n${snippet}`);
  if (out === text) throw new Error('no <xsl:stylesheet> start tag');
  return out;
}

/** Replace exactly `count` occurrences, or fail loudly: a new SUNAT release must not be adapted half-way. */
function replaceCounted(text: string, pattern: RegExp, replacement: string, count: number, file: string): string {
  const all = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const found = text.match(all)?.length ?? 0;
  if (found !== count) throw new Error(`unexpected layout of ${file}: ${found} × ${pattern} (expected ${count})`);
  return text.replace(all, replacement);
}

/** The edits, file by file (relative to the working copy of sunat/xsl). */
function adapt(rel: string, text: string): string {
  if (rel.startsWith('commons/xsl/')) {
    const t = text.replace(
      /href="sunat_archivos\/sfs\/VALI\/commons\/error\/validate_utils\.xsl"/g,
      'href="../error/validate_utils.xsl"',
    );
    return SPECIAL_RATE_FILES.has(rel) ? adaptSpecialRate(rel, t) : t;
  }
  if (!rel.includes('/') && rel.endsWith('.xsl')) {
    let t = text.replaceAll('href="local:///commons/', 'href="commons/');
    t = t.replaceAll('href="commons/error/validate_utils.xsl"', `href="commons/error/${DATAPOWER_UTILS}"`);
    t = t.replaceAll("dp:variable('var://context/cpe/nombreArchivoEnviado')", '$nombreArchivoEnviado');
    if (!t.includes('xsl:param name="nombreArchivoEnviado"'))
      t = insertAfterStylesheetTag(t, '<xsl:param name="nombreArchivoEnviado"/>');
    // dp:ignore-multiple="yes": DataPower skips a module included twice (error_utils.xsl, directly and through
    // validate_utils.xsl); XSLT refuses the duplicate templates (XTSE0660).
    if (t.includes(`href="commons/error/${DATAPOWER_UTILS}"`)) {
      t = t.replace(/<xsl:include\s+href="commons\/error\/error_utils\.xsl"[^>]*\/>/g, '');
    }
    return rel === LIQUIDACION ? adaptLiquidacion(t) : t;
  }
  if (rel === 'commons/error/validate_utils.xsl') {
    // matches(…, '!'): Saxon-HE 9.9's flag for its native (Java) regex engine, which SaxonJS refuses (FORX0001) and
    // SUNAT's patterns need (lookaheads, `\/`): the shim's native-matches uses JavaScript's engine instead.
    return replaceCounted(
      text,
      /matches\((\$node|string\(\$node\)), \$regexp,'!'\)/,
      'Q{urn:chasqui:validator}native-matches($1, $regexp)',
      2,
      rel,
    );
  }
  if (rel === `commons/error/${DATAPOWER_UTILS}`) {
    // The only copy of validate_utils.xsl SUNAT publishes is the SFS one, where findElementInCatalogProperty looks
    // up the catalog attribute `gre-r` whatever property it is asked for (an SFS edit for the guides), so a
    // retention (2619) or perception (2603, 2891 in an rc) is always rejected. The DataPower variants get a copy
    // with DataPower's own test back: the dyn:evaluate line SUNAT left commented beside it.
    return replaceCounted(
      text,
      /<xsl:if test="count\(\$idCatalogo\) &gt;= 1 and count\(document\(\$url_catalogo\)\/l\/c\[@id=\$idCatalogo and @gre-r=\$valorPropiedad\]\) &lt; 1 ">(\s*)<!-- (<xsl:if test="count\(dyn:evaluate\(\$dynEval\)\) &lt; 1 ">) -->/,
      '$2$1',
      1,
      rel,
    );
  }
  if (rel === 'commons/error/error_utils.xsl') {
    let t = insertAfterStylesheetTag(text, '<xsl:include href="exslt-shim.xsl"/>');
    t = replaceCounted(
      t,
      /<xsl:value-of select="concat\('ERROR: ', \$errorMessage\)"\s*\/>/,
      `<xsl:value-of select="concat('@@CPE-REJECT ', $errorCode, ' ', $errorMessage)"/>`,
      1,
      rel,
    );
    return replaceCounted(
      t,
      /<xsl:value-of select="\$newWarning"\s*\/>/,
      `<xsl:value-of select="concat('@@CPE-OBS ', $warningCode, ' ', $warningMessage)"/>`,
      1,
      rel,
    );
  }
  return text;
}

/** The sales rules whose IGV rate checks (3462, 4438, 3291, 3279) know 18 and 10 only. */
const SPECIAL_RATE_FILES = new Set(
  ['Factura', 'Boleta', 'NC', 'ND'].map((name) => `commons/xsl/ValidaExprReg${name}-2.0.1.xsl`),
);

/**
 * SUNAT's June 2024 rules know the special rate as 10; its sheets of 2026 (Factura2_0 fields 46/47: "la tasa vigente
 * al IGV (18.00 o 10.50) a la fecha de emisión … realizando el cálculo según la tasa consignada en las líneas") take
 * 10.5 beside it. Until SUNAT's 2026 XSL is carried, the rate checks take 10.5 where they take 10 and compute with it
 * when the document's first IGV line carries it; which rate a date allows stays the dated rules' question (3103,
 * validator/dated-rules.ts). A copy that already knows 10.5 is left as it is.
 */
function adaptSpecialRate(rel: string, text: string): string {
  if (text.includes('10.5')) return text;
  let t = replaceCounted(
    text,
    /cac:TaxCategory\/cbc:Percent = 10\.0 and/,
    '(cac:TaxCategory/cbc:Percent = 10.0 or cac:TaxCategory/cbc:Percent = 10.5) and',
    1,
    rel,
  );
  t = replaceCounted(
    t,
    /cac:TaxCategory\/cbc:Percent != 18\.0 and cac:TaxCategory\/cbc:Percent != 10\.0 and/,
    'cac:TaxCategory/cbc:Percent != 18.0 and cac:TaxCategory/cbc:Percent != 10.0 and cac:TaxCategory/cbc:Percent != 10.5 and',
    1,
    rel,
  );
  // XPath 1.0: number(true()) is 1, so the factor is 0.105 exactly when the first IGV line carries 10.5.
  return t.replace(/\* 0\.10"/g, '* (0.10 + 0.005 * number($TasaPercent = 0.105))"');
}

/**
 * The 04 rules (DataPower) as a standard processor accepts them; what they check is unchanged:
 *  - in the cac:InvoiceLine template, its two xsl:params come after two xsl:variables (XTSE0010): the params go first;
 *    its 2337 messages name `$codigoTributo`, undeclared there: declared as the siblings declare it (it names no
 *    tribute at line level, so the message just has none; the checks do not use it);
 *  - the root template passes `$nroLinea` to the line-level templates it applies (tributes, properties, charges)
 *    without declaring it (XPST0008). It is declared there as every sibling declares it (`cbc:ID` of the context):
 *    at the root that is the document's number; it only feeds messages and the per-line duplicate-tribute key, which
 *    a document number never matches (line numbers are 1–3 digits, 2023), so that check stays as inert as SUNAT wrote it;
 *  - the cac:AccountingCustomerParty template (the issuer of a 04 is its buyer) compares `$numeroRuc` with the buyer's
 *    RUC (1034) but only the root template declares it: declared there too, from the file name as the root does.
 */
function adaptLiquidacion(text: string): string {
  let t = replaceCounted(
    text,
    /(<xsl:template match="cac:InvoiceLine">\s*)(<xsl:variable name="nroLinea" select="cbc:ID" \/>\s*<xsl:variable name="valorVenta" select="cbc:LineExtensionAmount" \/>\s*)(<xsl:param name="root" \/>\s*<xsl:param name="tipoOperacion" \/>\s*)/,
    '$1$3$2<xsl:variable name="codigoTributo" select="cac:TaxCategory/cac:TaxScheme/cbc:ID"/>\n\t\t',
    1,
    LIQUIDACION,
  );
  t = replaceCounted(
    t,
    /(<xsl:template match="\/\*">)/,
    '$1\n\t\t<xsl:variable name="nroLinea" select="cbc:ID"/>',
    1,
    LIQUIDACION,
  );
  return replaceCounted(
    t,
    /(<xsl:template match="cac:AccountingCustomerParty">\s*<xsl:param name="tipoOperacion" select="'-'" \/>)/,
    `$1\n\t\t<xsl:variable name="numeroRuc" select="substring($nombreArchivoEnviado, 1, 11)"/>`,
    1,
    LIQUIDACION,
  );
}

function copyAdapted(from: string, to: string, rel = ''): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const r = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) copyAdapted(path.join(from, entry.name), path.join(to, entry.name), r);
    else if (entry.name.endsWith('.xsl')) {
      // Several SUNAT files carry stray Latin-1 bytes although declared UTF-8: drop what is not UTF-8.
      const text = new TextDecoder('utf-8', { fatal: false })
        .decode(fs.readFileSync(path.join(from, entry.name)))
        .replaceAll('\uFFFD', '');
      fs.writeFileSync(path.join(to, entry.name), adapt(r, text));
    } else fs.copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
  }
}

/** validate_utils.xsl as the DataPower variants need it (see adapt). */
const DATAPOWER_UTILS = 'validate_utils-datapower.xsl';

export interface PreparedRules {
  /** The adapted working copy of sunat/xsl. */
  dir: string;
}

/** The adapted working copy under `cacheDir`, made once per content of sunat/xsl, the shim and this file's edits. */
export function prepareRules(cacheDir: string): PreparedRules {
  const hash = createHash('sha256')
    .update(`${saxonVersion()}\n`)
    .update(fs.readFileSync(SHIM))
    .update(
      [adapt, adaptLiquidacion, adaptSpecialRate, copyAdapted, replaceCounted, insertAfterStylesheetTag]
        .map(String)
        .join('\n'),
    );
  hashTree(SUNAT_XSL, hash);
  const dir = path.join(cacheDir, `rules-${hash.digest('hex').slice(0, 16)}`);
  const marker = path.join(dir, '.prepared');
  if (fs.existsSync(marker)) {
    const now = new Date();
    fs.utimesSync(marker, now, now); // in use: kept by the clean-up below
    return { dir };
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  removeUnused(cacheDir);
  const tmp = fs.mkdtempSync(path.join(cacheDir, '.prep-'));
  try {
    copyAdapted(SUNAT_XSL, path.join(tmp, 'xsl'));
    const utils = path.join(tmp, 'xsl/commons/error');
    fs.writeFileSync(
      path.join(utils, DATAPOWER_UTILS),
      adapt(`commons/error/${DATAPOWER_UTILS}`, fs.readFileSync(path.join(utils, 'validate_utils.xsl'), 'utf8')),
    );
    fs.copyFileSync(SHIM, path.join(tmp, 'xsl/commons/error/exslt-shim.xsl'));
    fs.mkdirSync(path.join(tmp, 'sef'));
    fs.writeFileSync(path.join(tmp, '.prepared'), `${new Date().toISOString()}\n`);
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Prepared meanwhile by another process: use theirs.
      if (!fs.existsSync(path.join(dir, '.prepared'))) throw err;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { dir };
}

/** Working copies of other versions (another checkout, an older SUNAT release) unused for a week: 16 MB each. */
function removeUnused(cacheDir: string): void {
  const weekAgo = Date.now() - 7 * 86_400_000;
  for (const name of fs.readdirSync(cacheDir)) {
    if (!name.startsWith('rules-')) continue;
    const marker = fs.statSync(path.join(cacheDir, name, '.prepared'), { throwIfNoEntry: false });
    if (marker && marker.mtimeMs < weekAgo) fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true });
  }
}

const XSLT3 = require.resolve('xslt3/xslt3.js');

function sefPath(rules: PreparedRules, type: string): string {
  const file = RULE_FILES[type];
  if (!file) throw new Error(`no SUNAT validation rules for document type ${type}`);
  return path.join(rules.dir, 'sef', `${type}.sef.json`);
}

function compileArgs(rules: PreparedRules, type: string, out: string): string[] {
  return [XSLT3, `-xsl:${path.join(rules.dir, 'xsl', RULE_FILES[type])}`, `-export:${out}`, '-nogo'];
}

function compileFailed(type: string, err: unknown): Error {
  const e = err as { stderr?: string | Buffer; message: string };
  const detail = String(e.stderr || e.message)
    .trim()
    .split('\n')
    .slice(0, 5)
    .join(' | ');
  return new Error(`compiling SUNAT's rules for ${type} (${RULE_FILES[type]}) failed: ${detail}`);
}

/** The compiled stylesheet of one document type: from the cache, or compiled now by xslt3 in a child process. */
export async function compiledRules(
  rules: PreparedRules,
  type: string,
  onCompile?: (type: string, file: string) => void,
): Promise<string> {
  const sef = sefPath(rules, type);
  if (fs.existsSync(sef)) return sef;
  onCompile?.(type, RULE_FILES[type]);
  // Written aside and renamed: a concurrent process compiling the same type never reads half a file.
  const tmp = `${sef}.${process.pid}.${Date.now()}.tmp`;
  try {
    await run(process.execPath, compileArgs(rules, type, tmp), { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw compileFailed(type, err);
  }
  fs.renameSync(tmp, sef);
  return sef;
}

/** The same, blocking: for callers that must answer synchronously (the simulator); instant once cached. */
export function compiledRulesSync(rules: PreparedRules, type: string): string {
  const sef = sefPath(rules, type);
  if (fs.existsSync(sef)) return sef;
  const tmp = `${sef}.${process.pid}.${Date.now()}.tmp`;
  try {
    execFileSync(process.execPath, compileArgs(rules, type, tmp), { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw compileFailed(type, err);
  }
  fs.renameSync(tmp, sef);
  return sef;
}
/** The JavaScript the shim calls (namespace http://saxonica.com/ns/globalJS): installed once per process. */
function installShimFunctions(): void {
  const g = globalThis as Record<string, unknown>;
  if (g.chasquiRegexpTest) return;
  const cache = new Map<string, RegExp>();
  g.chasquiRegexpTest = (value: string, pattern: string, flags: string): boolean => {
    const key = `${flags}/${pattern}`;
    let re = cache.get(key);
    if (!re) {
      re = new RegExp(pattern, flags.replace(/[^imsu]/g, ''));
      cache.set(key, re);
    }
    return re.test(value);
  };
  // Java's current-date() in America/Lima (what SUNAT's servers use), as the shared shim saw it: YYYY-MM-DD-05:00.
  g.chasquiLimaToday = (): string =>
    `${new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Lima' }).format(new Date())}-05:00`;
}

const loaded = new Map<string, unknown>();
// SaxonJS logs a stack trace for every terminating xsl:message, which here is an ordinary rejection.
SaxonJS.setLogLevel(0);

/** Run a compiled rule set (compiledRules) on one document, given the name of the file as it would be sent. */
export function runRules(sef: string, xml: string, fileName: string): RulesVerdict {
  installShimFunctions();
  let stylesheet = loaded.get(sef);
  if (!stylesheet) {
    stylesheet = JSON.parse(fs.readFileSync(sef, 'utf8'));
    loaded.set(sef, stylesheet);
  }
  const messages: string[] = [];
  const verdict: RulesVerdict = { result: 'accepted', rejection: null, observations: [], error: null };
  try {
    SaxonJS.transform(
      {
        stylesheetInternal: stylesheet,
        sourceText: xml,
        stylesheetParams: { nombreArchivoEnviado: fileName },
        destination: 'raw',
        deliverMessage: (node: { textContent?: string }) => messages.push(String(node.textContent ?? '')),
      },
      'sync',
    );
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const rejection = messages.at(-1);
    if (String(e.code).endsWith('XTMM9000') && rejection?.startsWith('@@CPE-REJECT ')) {
      verdict.result = 'rejected';
      verdict.rejection = parseMessage(rejection);
      messages.pop();
    } else {
      verdict.result = 'error';
      verdict.error = `${e.code ?? ''} ${e.message ?? String(err)}`.trim();
    }
  }
  for (const m of messages) if (m.startsWith('@@CPE-OBS ')) verdict.observations.push(parseMessage(m));
  if (verdict.result === 'accepted' && verdict.observations.length) verdict.result = 'observed';
  return verdict;
}

function parseMessage(text: string): RuleMessage {
  const m = /^@@CPE-(?:REJECT|OBS) (\S*) ?([\s\S]*)$/.exec(text)!;
  return { code: m[1], message: m[2].replace(/\s+/g, ' ').trim() };
}
