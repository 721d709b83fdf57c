import { defineRule } from '../rule';
import { REVISION_2026 } from './sources';

const FORMAT = 'Si el tag existe, el formato del Tag UBL es diferente a numérico de 8 dígitos';
const LIST =
  "Si el tag existe, el valor del Tag UBL es diferente de 8 ceros ('00000000') y diferente de 8 nueves ('99999999'), y no se encuentra en el listado";

/**
 * Factura2_0 field 28 (Boleta2_0, NotaCredito2_0, NotaDebito2_0 and LiquidacionCompra2_0 the same rows), OBSERV 4332
 * "El Código producto de SUNAT no es válido": "Si el tag existe, el formato del Tag UBL es diferente a numérico de 8
 * dígitos" / "Si el tag existe, el valor del Tag UBL es diferente de 8 ceros ('00000000') y diferente de 8 nueves
 * ('99999999'), y no se encuentra en el listado"; OBSERV 4337 "termina en 6 ceros ('000000') o termina en 4 ceros
 * ('0000')" (not at class level). Judged only when the tag exists: an absent code is never this rule's business. From
 * its date these observations become error 3496 ("ERR-3496, reemplaza OBS-4332/OBS-4337").
 */
export const PRODUCT_CODE_VALID = defineRule({
  id: 'product-code-valid',
  effective: '2027-01-01',
  docTypes: ['01', '03', '07', '08'],
  summary:
    "A line's SUNAT product code, when present, is 8 digits in catalog 25 at class level or below (or 00000000, " +
    '99999999): invalid ones are refused (3496) instead of observed (4332, 4337). A line without one is accepted',
  source:
    'SUNAT Validacionesv20260212 Factura2_0 field 28 (OBSERV 4332, "Si el tag existe"); error 3496 from 2027-01-01 ' +
    'as implementers read the 2026-08-26 revision (not read first-hand)',
  confidence: 'reported',
  dated: REVISION_2026,
  answers: {
    refused: {
      code: '3496',
      rows: [
        { file: 'NotaCredito2_0', row: 127, severity: 'OBSERV', condition: FORMAT },
        { file: 'NotaCredito2_0', row: 128, severity: 'OBSERV', condition: LIST },
        { file: 'NotaDebito2_0', row: 119, severity: 'OBSERV', condition: FORMAT },
        { file: 'NotaDebito2_0', row: 120, severity: 'OBSERV', condition: LIST },
        { file: 'Factura2_0', row: 119, severity: 'OBSERV', condition: FORMAT },
        { file: 'Factura2_0', row: 120, severity: 'OBSERV', condition: LIST },
        { file: 'revisions', row: 6, severity: 'ERROR', condition: FORMAT },
        { file: 'revisions', row: 7, severity: 'ERROR', condition: LIST },
      ],
    },
    unlisted: {
      code: '4332',
      rows: [{ file: 'NotaCredito2_0', row: 129, severity: 'OBSERV', condition: 'no se encuentra en el listado' }],
    },
    aboveClass: {
      code: '4337',
      rows: [{ file: 'Factura2_0', row: 122, severity: 'OBSERV', condition: "termina en 6 ceros ('000000')" }],
    },
  },
});
