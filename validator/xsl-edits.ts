/**
 * The edits that make SUNAT's XSLs (written for IBM DataPower and its Facturador) run in a standard XSLT 3.0
 * processor, applied to the working copy validator/rules.ts prepares (the list is that file's header). sunat/xsl
 * itself is never edited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_IGV_RATES, SPECIAL_RATE_RULE } from '../documents/calendar';

export const LIQUIDACION = 'ValidaExprRegLiquidacion-2.0.1.xsl';

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
export function adapt(rel: string, text: string): string {
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
 * 10.5 beside it, and the calendar's later step (15, reported) follows. Until SUNAT's 2026 XSL is carried, the rate
 * checks take every special rate of the calendar's table (documents/calendar/igv-rates.ts) where they take 10, and
 * compute with the one the document's first IGV line carries; which rate a date allows stays the dated rules'
 * question (3103, validator/dated-rules.ts). A copy that already knows 10.5 is left as it is.
 */
const SPECIAL_RATES = [...new Set(Object.values(DEFAULT_IGV_RATES))].filter((rate): rate is number => rate !== null);

/** A percent in hundredths (integers: no float arithmetic) written as the XSL's fraction: 1050 → 0.105. */
const fraction = (hundredths: number) => `0.${String(hundredths).padStart(4, '0')}`.replace(/\.?0+$/, '');

function adaptSpecialRate(rel: string, text: string): string {
  if (text.includes(String(DEFAULT_IGV_RATES[SPECIAL_RATE_RULE]))) return text;
  const percent = (rate: number) => `cac:TaxCategory/cbc:Percent = ${rate}`;
  let t = replaceCounted(
    text,
    /cac:TaxCategory\/cbc:Percent = 10\.0 and/,
    `(cac:TaxCategory/cbc:Percent = 10.0 or ${SPECIAL_RATES.map(percent).join(' or ')}) and`,
    1,
    rel,
  );
  t = replaceCounted(
    t,
    /cac:TaxCategory\/cbc:Percent != 18\.0 and cac:TaxCategory\/cbc:Percent != 10\.0 and/,
    `cac:TaxCategory/cbc:Percent != 18.0 and cac:TaxCategory/cbc:Percent != 10.0 and ${SPECIAL_RATES.map((r) => `cac:TaxCategory/cbc:Percent != ${r} and`).join(' ')}`,
    1,
    rel,
  );
  // XPath 1.0: number(true()) is 1, so the factor is the special rate exactly when the first IGV line carries it (the
  // XSL holds the rate as a fraction): 0.10 plus, for each rate, its distance from 10 % times whether it is that one.
  const terms = SPECIAL_RATES.map((rate) => {
    const hundredths = Math.round(rate * 100);
    const sign = hundredths < 1000 ? '-' : '+';
    return ` ${sign} ${fraction(Math.abs(hundredths - 1000))} * number($TasaPercent = ${fraction(hundredths)})`;
  });
  return t.replace(/\* 0\.10"/g, `* (0.10${terms.join('')})"`);
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

export function copyAdapted(from: string, to: string, rel = ''): void {
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
export const DATAPOWER_UTILS = 'validate_utils-datapower.xsl';

/** The edits' own code and the rate they write: part of the working copy's key, so a change prepares a new copy. */
export const EDITS_SOURCE = [
  SPECIAL_RATES,
  fraction,
  adapt,
  adaptLiquidacion,
  adaptSpecialRate,
  copyAdapted,
  replaceCounted,
  insertAfterStylesheetTag,
]
  .map(String)
  .join('\n');
