/**
 * SUNAT's product code (catalog 25, UNSPSC as SUNAT lists it) as SUNAT Validacionesv20260212 judges it: Factura2_0
 * field 28, Boleta2_0 the same, NotaCredito2_0 and NotaDebito2_0 field 26, LiquidacionCompra2_0 field 25. Every row
 * is conditioned on the tag existing ("Si el tag existe"): a line without a code is none of this module's business.
 *
 * Factura, boleta and notes (Factura2_0 rows 119–122):
 * - OBSERV 4332 "El Código producto de SUNAT no es válido": row 119 "Si el tag existe, el formato del Tag UBL es
 *   diferente a numérico de 8 dígitos"; row 120 "Si el tag existe, el valor del Tag UBL es diferente de 8 ceros
 *   ('00000000') y diferente de 8 nueves ('99999999'), y no se encuentra en el listado"; row 121 "Si el tag existe,
 *   si el valor del Tag UBL no se encuentra en el listado" (catalog 25 alone: 00000000 and 99999999 observed).
 * - OBSERV 4337 "debe especificarse como minimo al tercer nivel jerarquico (a nivel de clase del codigo UNSPSC)": row
 *   122 "Si el tag existe y tiene una longitud de 8 posiciones, el valor del Tag UBL termina en 6 ceros ('000000') o
 *   termina en 4 ceros ('0000')", i.e. a segment (NN000000) or a family (NNNN0000).
 * NotaCredito2_0 (rows 127–130) and NotaDebito2_0 (rows 118–122) have the same conditions; their first two rows are
 * numbered OBSERV 3496 instead of 4332.
 * Implementers read the revisions of 2026 as making these ERROR 3496 on 01, 03, 07 and 08 from 2027-01-01 ("#12 …
 * ERR-3496, reemplaza OBS-4332/OBS-4337", sunat/rules/revisions.csv rows 6 and 7; calendar rule product-code-valid):
 * a code not of 8 digits, one neither listed nor reserved, and one above class level (the reserved values excepted:
 * SUNAT accepts them for lines it has no code for). Row 121 observing the reserved values stays an observation.
 * LiquidacionCompra2_0 field 25 has the 4332 row ("Si el valor del Tag UBL es diferente de vacío, el valor no se
 * encuentra en el listado") and the 4337 row only: observations at every date.
 *
 * The listing is sunat/codes/catalogos/cat_25.csv (SUNAT's cat_25.xml of its validation package, sunat/SOURCES.md),
 * read once, on first use; an operator replaces it with CHASQUI_PRODUCT_CODES (a file read by core/config and parsed
 * here), so a catalog SUNAT changes needs no release.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCT_CODE_VALID } from './rules/product-code-valid';

const { unlisted, aboveClass } = PRODUCT_CODE_VALID.answers;

const CATALOG = path.resolve(__dirname, '../../sunat/codes/catalogos/cat_25.csv');
/** SUNAT's reserved values, accepted without the listing: no code (8 zeros) and "other" (8 nines). */
const RESERVED = new Set(['00000000', '99999999']);

/** The codes of catalog 25 a calendar judges with, and where they were read. */
export interface ProductCodeListing {
  /** `sunat/codes/catalogos/cat_25.csv`, or the operator's file. */
  source: string;
  codes: ReadonlySet<string>;
}

export class ProductCodesError extends Error {}

/**
 * A listing as SUNAT's cat_25.csv writes it: one code a line, first in a CSV line (`43211503,Computadores…`), an
 * optional header (`id,…`), blank lines ignored. Anything else stops start-up naming the line, and so does an empty
 * list: a typo in the file must not refuse every product code from the rule's date.
 */
export function parseProductCodes(text: string, source: string): ProductCodeListing {
  const codes = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    const first = line.split(',')[0].trim();
    if (first === '' || (i === 0 && !/^\d/.test(first))) return;
    if (!/^\d{8}$/.test(first))
      throw new ProductCodesError(
        `${source} line ${i + 1}: a code of catalog 25 is 8 digits, got '${first.slice(0, 20)}'`,
      );
    codes.add(first);
  });
  if (codes.size === 0) throw new ProductCodesError(`${source} holds no code of catalog 25`);
  return { source, codes };
}

let shipped: ProductCodeListing | null = null;

/** SUNAT's catalog 25 as chasqui carries it. */
export function shippedProductCodes(): ProductCodeListing {
  shipped ??= parseProductCodes(readFileSync(CATALOG, 'utf8'), 'sunat/codes/catalogos/cat_25.csv');
  return shipped;
}

/** Whether catalog 25 lists the code. */
export function isProductCodeListed(code: string, listing: ProductCodeListing = shippedProductCodes()): boolean {
  return listing.codes.has(code);
}

export interface ProductCodeProblem {
  /** The observation SUNAT's sheet answers with: `unlisted` not valid or not listed, `aboveClass` above class level. */
  code: string;
  /** Refused (3496) from product-code-valid's date on the types it judges; observed only when false. */
  refused: boolean;
  message: string;
}

/** What SUNAT's rows say of a code that is present; none when they say nothing. */
export function productCodeProblems(
  code: string,
  listing: ProductCodeListing = shippedProductCodes(),
): ProductCodeProblem[] {
  if (!/^\d{8}$/.test(code))
    return [{ code: unlisted.code, refused: true, message: `'${code}' is not a number of 8 digits` }];
  const reserved = RESERVED.has(code);
  const problems: ProductCodeProblem[] = [];
  if (!isProductCodeListed(code, listing))
    problems.push(
      reserved
        ? {
            code: unlisted.code,
            refused: false,
            message: `${code} is not in catalog 25 (reserved by SUNAT: only observed)`,
          }
        : { code: unlisted.code, refused: true, message: `${code} is not in catalog 25 (nor 00000000 or 99999999)` },
    );
  if (code.endsWith('0000'))
    problems.push({
      code: aboveClass.code,
      refused: !reserved,
      message: `${code} names a UNSPSC segment or family (it ends in ${code.endsWith('000000') ? 6 : 4} zeros); SUNAT asks for a class or a commodity`,
    });
  return problems;
}
