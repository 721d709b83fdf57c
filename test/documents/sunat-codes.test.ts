import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { ALREADY_REPORTED_CODES, codeCategory, SERVICE_UNAVAILABLE_CODES } from '../../authority/classify';
import { codeKind, codesDoing, sunatCode } from '../../documents/sunat-codes';
import { RULES } from '../../documents/calendar';
import { messageFor } from '../../simulator/codes';

/**
 * What the four tables the catalog replaced answered (authority/classify.ts, activities/company-checks.ts,
 * authority/bill-service.ts, validator/codes.ts, simulator/codes.ts as of commit 190e47e), frozen: every code keeps
 * its classification and its texts.
 */
const OLD = {
  alreadyReported: ['1032', '1033', '2109', '2223', '2324'],
  serviceUnavailable: ['0100', '0109', '0130', '0131', '0132', '0133', '0134', '0135', '0136', '0137', '0138', '0200'],
  credentials: ['0101', '0102', '0103', '0104', '0111'],
  notFound: ['0011', '0127'],
  category(code: string): string {
    if (!/^\d+$/.test(code)) return 'rejection';
    const n = Number(code);
    return n === 0 ? 'accepted' : n < 2000 ? 'exception' : n < 4000 ? 'rejection' : 'observation';
  },
  simulatorTexts: {
    '0004': 'La constancia existe',
    '0005': 'Código de comprobante no permitido o no valido',
    '0011': 'Comprobante no encontrado o no existe',
    '0101': 'El encabezado de seguridad es incorrecto',
    '0102': 'Usuario o contraseña incorrectos',
    '0111': 'No tiene el perfil para enviar comprobantes electronicos',
    '0126': 'El ticket no le pertenece al usuario',
    '0127': 'El ticket no existe',
    '0151': 'El nombre del archivo ZIP es incorrecto',
    '0152': 'No se puede enviar por este método un archivo de resumen',
    '0154':
      'El RUC del archivo no corresponde al RUC del usuario o el proveedor no esta autorizado a enviar comprobantes del contribuyente',
    '0155': 'El archivo ZIP esta vacio',
    '0156': 'El archivo ZIP esta corrupto',
    '0157': 'El archivo ZIP no contiene comprobantes',
    '0158': 'El archivo ZIP contiene demasiados comprobantes para este tipo de envío',
    '0160': 'El archivo XML esta vacio',
    '0161': 'El nombre del archivo XML no coincide con el nombre del archivo ZIP',
    '0302': 'Codigo del tipo de comprobante no registrado',
    '0306': 'No se puede leer (parsear) el archivo XML',
    '1003': 'InvoiceTypeCode - El valor del tipo de documento es invalido o no coincide con el nombre del archivo',
    '1032': 'El comprobante ya esta informado y se encuentra con estado anulado o rechazado',
    '1033': 'El comprobante fue registrado previamente con otros datos',
    '1034': 'Número de RUC del nombre del archivo no coincide con el consignado en el contenido del archivo XML',
    '1035': 'Numero de Serie del nombre del archivo no coincide con el consignado en el contenido del archivo XML',
    '1036': 'Número de documento en el nombre del archivo no coincide con el consignado en el contenido del XML',
    '1059': 'El XML no contiene firma digital.',
    '2223': 'El archivo ya fue presentado anteriormente',
    '2335': 'El documento electrónico ingresado ha sido alterado',
    // Codes of SUNAT's rules dated after return-codes.csv (documents/calendar/rules/): texts in SUNAT's words, not its catalog's.
    '3496': 'El Código producto de SUNAT no es válido',
    // 3507 (debit notes of reason 13, reported from SUNAT's 2026 revisions): no SUNAT file found carries its text yet.
    '3507': 'El tipo de nota de débito 13 solo corresponde a operaciones inafectas',
    '3279': 'La sumatoria del Total del valor de venta más los impuestos no concuerda con la base imponible',
    '3291': 'El cálculo del IGV es Incorrecto',
  } as Record<string, string>,
};

/** validator/codes.ts's reading of return-codes.csv: code, category, description. */
const csvTexts = new Map(
  fs
    .readFileSync(path.resolve(__dirname, '../../sunat/codes/return-codes.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const [code, , ...rest] = line.split(',');
      return [
        code,
        rest
          .slice(0, -1)
          .join(',')
          .replace(/^"(.*)"$/, '$1')
          .replaceAll('""', '"'),
      ];
    }),
);
const everyCode = [
  ...new Set(['0', ...Array.from({ length: 10000 }, (_, n) => String(n).padStart(4, '0')), ...csvTexts.keys()]),
  'GRE-ERROR',
  '',
];

const DATED_CODES = new Set(RULES.flatMap((rule) => rule.codes));

describe('SUNAT codes: the catalog answers as the tables it replaced did', () => {
  it('kinds and the classifier sets, for every code', () => {
    for (const code of everyCode) {
      expect(codeKind(code), code).to.equal(OLD.category(code));
      expect(codeCategory(code), code).to.equal(OLD.category(code));
      expect(ALREADY_REPORTED_CODES.has(code), code).to.equal(OLD.alreadyReported.includes(code));
      expect(SERVICE_UNAVAILABLE_CODES.has(code), code).to.equal(OLD.serviceUnavailable.includes(code));
    }
  });
  it('the credentials (company checks) and not-found codes', () => {
    expect(codesDoing('credentials')).to.deep.equal(OLD.credentials);
    expect(codesDoing('send')).to.deep.equal(OLD.notFound);
  });
  it("the validator's and the simulator's texts, for every code", () => {
    for (const code of everyCode) {
      expect(sunatCode(code).text, code).to.equal(csvTexts.get(code) ?? null);
      // Since issue 44 the simulator also answers every dated rule's code (documents/calendar/rules/) with its text.
      const dated = DATED_CODES.has(code) ? sunatCode(code).answer : null;
      expect(messageFor(code), code).to.equal(OLD.simulatorTexts[code] ?? dated ?? `Error ${code} (simulated)`);
    }
  });
});
