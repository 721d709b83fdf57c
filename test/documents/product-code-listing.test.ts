/**
 * Catalog 25 as an operator gives it (CHASQUI_PRODUCT_CODES, issue 33): SUNAT changes the catalog (its 2026-07-24
 * revision withdrew the sub-catalogs 25.1–25.3) and from product-code-valid's date an unlisted code is refused (3496),
 * so the listing is data an operator replaces without a release. The sales rules and the XML's dated rules (chasqui
 * validate, the simulator) judge with the same listing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../core/config';
import { prepareDocument } from '../../documents';
import { DEFAULT_CALENDAR } from '../../documents/calendar';
import { datedRuleFailures } from '../../validator/dated-rules';
import { errors } from '../support/documents';
import { dated } from './dated-fixtures';

const withCode = (doc: Record<string, any>, codigoSunat: string) => ({
  ...doc,
  items: doc.items.map((it: object, i: number) => (i === 0 ? { ...it, codigoSunat } : it)),
});

describe("catalog 25 from the operator's file (CHASQUI_PRODUCT_CODES)", () => {
  it("judges with the operator's catalog 25 (CHASQUI_PRODUCT_CODES) when one is given; a bad file stops start-up", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chasqui-cat25-'));
    try {
      const file = path.join(dir, 'cat_25.csv');
      // SUNAT's header and CSV lines, CRLF, a blank line: 12345678 listed, 90101501 (in SUNAT's copy) left out.
      writeFileSync(file, 'id,descripcion\r\n12345678,"Nuevo, de prueba"\r\n\r\n43211503,Computadores\r\n');
      const { rules } = loadConfig({ CHASQUI_PRODUCT_CODES: file });
      expect(rules.productCodeListing()).to.deep.include({ source: file });
      expect([...rules.productCodeListing().codes]).to.deep.equal(['12345678', '43211503']);
      const coded = (code: string) => withCode(dated('invoice-decimals.json', '2027-01-01'), code);
      expect(errors(coded('12345678'), { calendar: rules })).to.deep.equal([]);
      expect(errors(coded('43211503'), { calendar: rules })).to.deep.equal([]);
      expect(errors(coded('90101501'), { calendar: rules })[0]).to.match(
        /^\[SUNAT 3496\] 90101501 is not in catalog 25/,
      );
      expect(errors(coded('90101501'))).to.deep.equal([]);
      // The same listing judges the XML (chasqui validate, the simulator).
      const xml = prepareDocument(coded('12345678'), { calendar: rules }).xml;
      expect(datedRuleFailures(xml, rules)).to.deep.equal([]);
      expect(datedRuleFailures(xml, DEFAULT_CALENDAR).map((f) => f.code)).to.deep.equal(['3496']);
      for (const [text, message] of [
        [
          'id,descripcion\n1234567,x\n',
          `CHASQUI_PRODUCT_CODES: ${file} line 2: a code of catalog 25 is 8 digits, got '1234567'`,
        ],
        [
          '43211503\nABCDEFGH\n',
          `CHASQUI_PRODUCT_CODES: ${file} line 2: a code of catalog 25 is 8 digits, got 'ABCDEFGH'`,
        ],
        ['id,descripcion\n\n', `CHASQUI_PRODUCT_CODES: ${file} holds no code of catalog 25`],
      ]) {
        writeFileSync(file, text);
        expect(() => loadConfig({ CHASQUI_PRODUCT_CODES: file }), text).to.throw(ConfigError, message);
      }
      expect(() => loadConfig({ CHASQUI_PRODUCT_CODES: path.join(dir, 'none.csv') })).to.throw(
        ConfigError,
        'CHASQUI_PRODUCT_CODES: ENOENT',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
