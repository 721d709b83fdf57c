/**
 * What SUNAT's 2025–2026 GRE remitente rules allow beyond the loading date, as the guide payload expresses it: an
 * itinerant issuer (motivo 18), foreign goods (motivo 19) through a port with the DAM and the whole-DAM indicator,
 * whole containers of a cargo manifest (91, properties 7024–7028, the container indicator) and a port terminal's
 * appointment (92). The fixtures pass SUNAT's rules in the corpus tests; here: the XML each becomes, and SUNAT's
 * XSL refusing what chasqui refuses once that XML is spoiled.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { prepareDocument } from '../../documents';
import { createSigner, generateTestCertificate, signBuiltXml } from '../../documents/signing';
import { validateDocuments } from '../support/validator';

const FIXTURES = path.resolve(__dirname, '../fixtures/documents');
const build = (name: string) => prepareDocument(JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')));

describe('GRE: foreign goods, containers, customs documents and the itinerant issuer (SUNAT GRE rules 2025–2026)', () => {
  it('motivo 18: the itinerant issuer sends to itself, catalog 20 code 18', () => {
    const guide = build('gre-09-emisor-itinerante.json');
    expect(guide.xml).to.contain('listURI="urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo20">18</cbc:HandlingCode>');
    expect(guide.xml).to.match(
      /<cac:DeliveryCustomerParty><cac:Party><cac:PartyIdentification><cbc:ID[^>]*>20123456786</,
    );
  });

  it('whole containers of a cargo manifest: packages with their seals, the port after them, the indicator, properties 7024–7028 on each line', () => {
    const { xml } = build('gre-09-mercancia-extranjera-contenedores.json');
    expect(xml).to.contain(
      '<cbc:SpecialInstructions>SUNAT_Envio_IndicadorTrasladoContenedorManifiestoCarga</cbc:SpecialInstructions>',
    );
    expect(xml).to.contain(
      '<cac:TransportHandlingUnit><cac:Package><cbc:ID>MSKU1234565</cbc:ID><cbc:TraceID>ML1234567</cbc:TraceID></cac:Package>' +
        '<cac:Package><cbc:ID>TGHU7654321</cbc:ID><cbc:TraceID>ML7654321</cbc:TraceID></cac:Package></cac:TransportHandlingUnit>' +
        '<cac:FirstArrivalPortLocation><cbc:ID schemeAgencyName="PE:SUNAT" schemeName="Puertos" schemeURI="urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo63">CLL</cbc:ID>' +
        '<cbc:LocationTypeCode>1</cbc:LocationTypeCode><cbc:Name>Callao</cbc:Name></cac:FirstArrivalPortLocation></cac:Shipment>',
    );
    // The containers stand for the packages: no count of them (3621).
    expect(xml).not.to.contain('TotalTransportHandlingUnitQuantity');
    const firstLine = /<cac:DespatchLine>[\s\S]*?<\/cac:DespatchLine>/.exec(xml)![0];
    const properties = [...firstLine.matchAll(/<cbc:NameCode [^>]*>(\d+)<\/cbc:NameCode><cbc:Value>([^<]*)</g)].map(
      (m) => `${m[1]}=${m[2]}`,
    );
    expect(properties).to.deep.equal(['7024=MAEU240615001', '7025=1', '7026=MSKU1234565', '7027=ML1234567', '7028=0']);
    expect(firstLine).to.contain('<cbc:Name>Contenedor del MC</cbc:Name>');
    expect(xml).to.contain(
      'listURI="urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo61">91</cbc:DocumentTypeCode><cbc:DocumentType>Manifiesto de carga (MC)</cbc:DocumentType></cac:AdditionalDocumentReference>',
    );
  });

  it('the whole DAM: the DAM as document 50 and SUNAT_Envio_IndicadorTrasladoTotalDAMoDS, with the packages counted', () => {
    const { xml } = build('gre-09-mercancia-extranjera-dam-total.json');
    expect(xml).to.contain(
      '<cbc:SpecialInstructions>SUNAT_Envio_IndicadorTrasladoTotalDAMoDS</cbc:SpecialInstructions>',
    );
    expect(xml).to.contain('<cbc:TotalTransportHandlingUnitQuantity>320</cbc:TotalTransportHandlingUnitQuantity>');
    expect(xml).to.match(/<cbc:ID>118-2026-10-123456<\/cbc:ID><cbc:DocumentTypeCode[^>]*>50<\/cbc:DocumentTypeCode>/);
  });

  it("a port terminal's appointment (92): the terminal's RUC, no weight and one line without goods data", () => {
    const { xml } = build('gre-09-mercancia-extranjera-cita.json');
    expect(xml).to.match(
      /<cbc:DocumentTypeCode[^>]*>92<\/cbc:DocumentTypeCode><cbc:DocumentType>[^<]+<\/cbc:DocumentType><cac:IssuerParty><cac:PartyIdentification><cbc:ID [^>]*schemeID="6"[^>]*>20100010136</,
    );
    expect(xml).not.to.contain('GrossWeightMeasure');
    expect(xml).to.contain(
      '<cac:DespatchLine><cbc:ID>1</cbc:ID><cac:OrderLineReference><cbc:LineID>1</cbc:LineID></cac:OrderLineReference><cac:Item></cac:Item></cac:DespatchLine></DespatchAdvice>',
    );
  });

  describe("SUNAT's XSL refuses the same guides spoiled", function () {
    this.timeout(300_000);
    const signer = createSigner(generateTestCertificate({ ruc: '20123456786' }));
    const containers = build('gre-09-mercancia-extranjera-contenedores.json');
    const appointment = build('gre-09-mercancia-extranjera-cita.json');
    const spoiled: Record<string, { filename: string; xml: string }> = {
      // The first line loses its container (7026).
      noContainerProperty: {
        filename: containers.filename,
        xml: containers.xml.replace(
          /<cac:AdditionalItemProperty><cbc:Name>Contenedor del MC<\/cbc:Name>[\s\S]*?<\/cac:AdditionalItemProperty>/,
          '',
        ),
      },
      // A full container without its seal.
      noSeal: {
        filename: containers.filename,
        xml: containers.xml.replace('<cbc:TraceID>ML1234567</cbc:TraceID>', ''),
      },
      // The manifest on an ordinary sale.
      manifestOnSale: { filename: containers.filename, xml: containers.xml.replace(/(catalogo20">)19</, '$101<') },
      // An appointment with a gross weight.
      appointmentWithWeight: {
        filename: appointment.filename,
        xml: appointment.xml.replace(
          '</cbc:HandlingCode>',
          '</cbc:HandlingCode><cbc:GrossWeightMeasure unitCode="KGM">1200.000</cbc:GrossWeightMeasure>',
        ),
      },
    };
    const verdicts = new Map<string, string | null>();

    before(async () => {
      const names = Object.keys(spoiled);
      const reports = await validateDocuments(
        names.map((n) => ({ file: `${spoiled[n].filename}.xml`, xml: signBuiltXml(spoiled[n].xml, signer).xml })),
      );
      names.forEach((n, i) =>
        verdicts.set(n, reports[i].xsl === 'rejected' ? reports[i].rejection : `not rejected: ${reports[i].xsl}`),
      );
    });

    it('a line of a whole container without its container (3480), a full container without seal (3495)', () => {
      expect(verdicts.get('noContainerProperty')).to.equal('3480');
      expect(verdicts.get('noSeal')).to.equal('3495');
    });

    it('a cargo manifest on a sale (3445) and an appointment with a gross weight (3625)', () => {
      expect(verdicts.get('manifestOnSale')).to.equal('3445');
      expect(verdicts.get('appointmentWithWeight')).to.equal('3625');
    });
  });
});
