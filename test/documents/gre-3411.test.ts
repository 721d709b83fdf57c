/**
 * 3411 "El Numero de RUC asociado al punto de partida/llegada no debe ser el igual al Numero de RUC del remitente",
 * refused before signing the way SUNAT's GRE remitente XSL writes it (sunat/rules/revisions.csv rows 4 and 5): the
 * start point's establishment belongs to another company for reasons 02, 07 and 08, the arrival point's for 01, 03,
 * 05, 06, 14 and 17; other reasons (04 between one's own establishments) leave both to the sender.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { errors } from '../support/documents';
import { validateDocuments } from '../support/validator';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
const SENDER = '20123456786';
const OTHER = '20600000005';

const guide = (name: string, motivo: string, end: 'partida' | 'llegada', ruc: string) => {
  const doc = JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
  return { ...doc, envio: { ...doc.envio, motivo, [end]: { ...doc.envio[end], codLocal: '0001', ruc } } };
};

describe("GRE 3411: the start or arrival point's RUC against the sender's", () => {
  it("refuses the sender's own RUC at the start point of a purchase (02) and at the arrival of a sale (01)", () => {
    expect(errors(guide('gre-09-compra.json', '02', 'partida', SENDER))).to.deep.equal([
      `[SUNAT 3411] envio.partida.ruc must not be the sender's RUC (${SENDER}) for motivo 02: that establishment belongs to another company @envio.partida.ruc`,
    ]);
    expect(errors(guide('gre-09-venta-privado.json', '01', 'llegada', SENDER))).to.deep.equal([
      `[SUNAT 3411] envio.llegada.ruc must not be the sender's RUC (${SENDER}) for motivo 01: that establishment belongs to another company @envio.llegada.ruc`,
    ]);
  });

  it("accepts another company's establishment there, and the sender's own where its reason allows it", () => {
    expect(errors(guide('gre-09-compra.json', '02', 'partida', OTHER))).to.deep.equal([]);
    expect(errors(guide('gre-09-venta-privado.json', '01', 'llegada', OTHER))).to.deep.equal([]);
    // A sale leaves from the sender's own establishment; a purchase arrives at it: 3411 reads the other end only.
    expect(errors(guide('gre-09-venta-privado.json', '01', 'partida', SENDER))).to.deep.equal([]);
    expect(errors(guide('gre-09-compra.json', '02', 'llegada', SENDER))).to.deep.equal([]);
  });

  it("SUNAT's GRE remitente XSL judges the same guide the same way", async function () {
    this.timeout(300_000);
    const signer = createSigner(generateTestCertificate({ ruc: SENDER }));
    const built = prepareDocument(guide('gre-09-venta-privado.json', '01', 'llegada', OTHER));
    // The same guide with the sender's RUC on the arrival point, as an integrator's own software could send it.
    const own = built.xml.replace(`listID="${OTHER}"`, `listID="${SENDER}"`);
    expect(own).to.not.equal(built.xml);
    const [accepted, refused] = await validateDocuments([
      { file: `${built.filename}.xml`, xml: signXml(built.xml, signer).xml },
      { file: `${built.filename}.xml`, xml: signXml(own, signer).xml },
    ]);
    expect(accepted.xsl).to.be.oneOf(['accepted', 'observed']);
    expect(refused).to.deep.include({ xsl: 'rejected', rejection: '3411' });
  });
});
