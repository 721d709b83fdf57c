/**
 * SUNAT's own validation rules (the `ValidaExprReg*` XSLs in sunat/xsl) run by SaxonJS.
 *
 * SUNAT writes these XSLs for IBM DataPower and its Facturador (SFS); a standard XSLT 3.0 processor needs them
 * adapted. sunat/xsl stays as SUNAT publishes it: `prepareRules` makes a working copy in the cache directory
 * (outside the clone) and edits only the copy (the edits: validator/xsl-edits.ts):
 *  - SFS variants: the include of the SFS installation path → `../error/validate_utils.xsl`;
 *  - DataPower variants: `local:///commons/` → `commons/`, `dp:variable('var://context/cpe/nombreArchivoEnviado')`
 *    → the stylesheet parameter `$nombreArchivoEnviado`;
 *  - `validator/xsl/exslt-shim.xsl` (regexp:match, date:*, dyn:evaluate) is copied beside validate_utils.xsl and
 *    included from error_utils.xsl;
 *  - error_utils.xsl's rejection and observation messages are tagged `@@CPE-REJECT code …` / `@@CPE-OBS code …` so
 *    that the code is read from the template parameter (not every message carries it);
 *  - bytes that are not UTF-8 (stray Latin-1 in some comments) are dropped.
 *  - 04 (DataPower): a misplaced xsl:param and three undeclared variables, see adaptLiquidacion;
 *  - the sales rules' IGV rate checks take SUNAT's 2026 special rate beside 10, see adaptSpecialRate.
 * Each stylesheet is then compiled once by xslt3 into a SEF file kept in the same working copy; the working copy is
 * keyed by a hash of sunat/xsl, the shim, the code of these edits and the SaxonJS version, so a change of any of them
 * recompiles. Compiling is slow (tens of seconds for the invoice rules), running is fast, hence the cache.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { adapt, copyAdapted, DATAPOWER_UTILS, EDITS_SOURCE, LIQUIDACION } from './xsl-edits';
import { isValidVerdict } from '../lifecycle/transitions';

// SaxonJS ships no type declarations; the three calls used here are typed below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SaxonJS = require('saxon-js') as {
  transform(options: Record<string, unknown>, mode?: 'sync'): { principalResult?: unknown };
  setLogLevel(level: number): void;
};

const run = promisify(execFile);
const SUNAT_XSL = path.resolve(__dirname, '../sunat/xsl');
const SHIM = path.join(__dirname, 'xsl/exslt-shim.xsl');

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
  // after the edits of adaptLiquidacion (xsl-edits.ts) (a misplaced xsl:param, three undeclared variables).
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

export interface PreparedRules {
  /** The adapted working copy of sunat/xsl. */
  dir: string;
}

/** The adapted working copy under `cacheDir`, made once per content of sunat/xsl, the shim and the edits (xsl-edits.ts). */
export function prepareRules(cacheDir: string): PreparedRules {
  const hash = createHash('sha256').update(`${saxonVersion()}\n`).update(fs.readFileSync(SHIM)).update(EDITS_SOURCE);
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
  // Observations turn an acceptance into an observed verdict (the result is already valid or not at this point).
  if (verdict.observations.length && isValidVerdict(verdict.result)) verdict.result = 'observed';
  return verdict;
}

function parseMessage(text: string): RuleMessage {
  const m = /^@@CPE-(?:REJECT|OBS) (\S*) ?([\s\S]*)$/.exec(text)!;
  return { code: m[1], message: m[2].replace(/\s+/g, ' ').trim() };
}
