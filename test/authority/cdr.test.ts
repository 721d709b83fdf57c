import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readCdrXml, readCdrZip } from '../../authority/cdr';
import { readSoapAnswer } from '../../authority/soap';
import { firstChild, textOf } from '../../authority/xml';
import { createSigner, generateTestCertificate, signXml } from '../../documents/signing';
import { buildCdrZip } from '../../simulator/cdr';
import { sample, SUNAT_DIR } from './support';

function cdrOf(file: string) {
  const read = readCdrXml(sample(`cdr/${file}`), file);
  if (!read.ok) throw new Error(read.reason);
  return read.cdr;
}

describe('authority CDR reader on SUNAT and OSE recorded CDRs', () => {
  it('reads every recorded CDR in samples/cdr', () => {
    const files = readdirSync(path.join(SUNAT_DIR, 'samples/cdr'));
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      const cdr = cdrOf(file);
      expect(cdr.responseCode, file).to.equal('0');
      expect(cdr.referenceId, file).to.match(/^[A-Z0-9]+-\d+(-\d+)?$/);
    }
  });

  it('reads the prefixed SUNAT style with its observation notes', () => {
    const cdr = cdrOf('R-20220557805-01-F001-22Openubl.xml');
    expect(cdr).to.deep.include({
      id: '1609739749091',
      senderId: '20131312955',
      receiverId: '20220557805',
      referenceId: 'F001-22',
      description: 'La Factura numero F001-22, ha sido aceptada',
      signed: true,
    });
    expect(cdr.notes).to.have.length(8);
    expect(cdr.notes[0]).to.deep.equal({
      code: '4252',
      text: 'El dato ingresado como atributo @listName es incorrecto. - INFO: 4252 (nodo: "cbc:InvoiceTypeCode/listName" valor: "SUNAT:Identificador de Tipo de Documento")',
    });
    expect(cdr.notes[2].text).to.contain('código de local anexo');
  });

  it("reads a despatch guide's QR link (DocumentReference/DocumentDescription) and none from a sale's CDR", () => {
    expect(cdrOf('R-20000000001-09-T001-1.xml').documentLink).to.equal(
      'https://e-factura.sunat.gob.pe/v1/contribuyente/gre/comprobantes/descargaqr?hashqr=xxxxxxxxxxxxxxxxxxxxxxxxxxx',
    );
    expect(cdrOf('efact_cdr1.xml').documentLink).to.equal(null);
  });

  it('reads the default-namespace OSE style (efact)', () => {
    const cdr = cdrOf('efact_cdr1.xml');
    expect(cdr).to.deep.include({
      id: 'e449aad1-41f0-46e9-b10c-f33f680e0725',
      senderId: '20000000003',
      receiverId: '20000000001',
      referenceId: 'F001-1',
      description: 'La Factura F001-1 ha sido aceptada.',
      notes: [],
      signed: false,
    });
  });

  it('reads an unprefixed-root ISO-8859-1 CDR with notes before the signature block', () => {
    const cdr = cdrOf('R-20600995805-01-F001-3.xml');
    expect(cdr.notes.map((n) => n.code)).to.deep.equal(['4031', '4001']);
    expect(cdr.description).to.equal('La Factura numero F001-00000001, ha sido aceptada');
  });

  it('reads the GRE CDR with its note and document reference', () => {
    const cdr = cdrOf('R-20000000001-09-T001-1.xml');
    expect(cdr.notes[0].code).to.equal('4398');
    expect(cdr.notes[0].text).to.contain('Número de placa');
    expect(cdr.referenceId).to.equal('T001-1');
  });

  it('refuses what is not a CDR', () => {
    expect(readCdrXml('<html><body>error</body></html>').ok).to.equal(false);
    expect(readCdrXml('').ok).to.equal(false);
    expect(readCdrXml(sample('cdr/efact_cdr1.xml').replace(/<ResponseCode[^>]*>0<\/ResponseCode>/, '')).ok).to.equal(
      false,
    );
    expect(readCdrZip(Buffer.from('PK not really a zip')).ok).to.equal(false);
  });

  it('reads the CDR zip inside the recorded sendBill and getStatus responses (with the dummy/ entry)', () => {
    for (const [file, operation, field] of [
      ['soap/bill_service_response_ok.xml', 'sendBillResponse', 'applicationResponse'],
      ['soap/get_status_response_ok.xml', 'getStatusResponse', 'status'],
    ] as const) {
      const answer = readSoapAnswer(sample(file), operation);
      if (answer.kind !== 'body') throw new Error(`${file}: ${answer.kind}`);
      const holder = firstChild(answer.element, undefined, field)!;
      const base64 = field === 'status' ? textOf(firstChild(holder, undefined, 'content')) : textOf(holder);
      const read = readCdrZip(Buffer.from(base64!, 'base64'));
      if (!read.ok) throw new Error(read.reason);
      expect(read.cdr.fileName).to.match(/^R-12345678912-(01-F001-1|RA-20200328-1)\.xml$/);
      expect(read.cdr.responseCode).to.equal('0');
      expect(read.cdr.xml).to.equal(sample(`cdr/${read.cdr.fileName}`));
    }
  });

  it('takes the code of a recorded SOAP fault from faultcode', () => {
    const answer = readSoapAnswer(sample('soap/bill_service_response_fault.xml'), 'sendBillResponse');
    expect(answer).to.deep.include({ kind: 'fault', code: '0111', faultcode: 'soap-env:Client.0111' });
  });

  it("verifies signatures whatever their algorithms: the simulator's (rsa-sha512, exc-c14n#WithComments) and an rsa-sha256 one", () => {
    const content = {
      name: '20123456789-01-F001-1',
      issuerRuc: '20123456789',
      docType: '01',
      referenceId: 'F001-1',
      issueDate: '2026-11-21',
      issueTime: null,
      recipient: '6-20100070970',
      code: '0',
      description: 'La Factura numero F001-1, ha sido aceptada',
      notes: [],
    };
    const read = readCdrZip(Buffer.from(buildCdrZip(content), 'base64'));
    if (!read.ok) throw new Error(read.reason);
    expect(read.cdr.signature).to.deep.equal({
      signatureMethod: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
      canonicalization: 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
      digestMethod: 'http://www.w3.org/2001/04/xmlenc#sha512',
      verified: true,
      reason: null,
    });
    const altered = readCdrXml(read.cdr.xml.replace('6-20100070970', '6-20100070971'));
    expect(altered.ok && altered.cdr.signature).to.deep.include({ verified: false });
    // A CDR signed the way chasqui signs documents (RSA-SHA256, inclusive C14N), as an OSE might.
    const unsigned = cdrOf('R-20600995805-01-F001-1.xml').xml.replace(/^<\?xml[^>]*>\s*/, '');
    const sha256 = readCdrXml(signXml(unsigned, createSigner(generateTestCertificate({ ruc: '20000000003' }))).xml);
    expect(sha256.ok && sha256.cdr.signature).to.deep.include({
      signatureMethod: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      verified: true,
    });
  });

  it("reads SUNAT's real signed CDRs (rsa-sha512, exc-c14n#WithComments) and says their beta dummy key cannot be checked", () => {
    const signedSamples = readdirSync(path.join(SUNAT_DIR, 'samples/cdr')).filter((file) => cdrOf(file).signed);
    expect(signedSamples.length).to.be.greaterThanOrEqual(4);
    for (const file of signedSamples) {
      expect(cdrOf(file).signature, file).to.deep.equal({
        signatureMethod: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
        canonicalization: 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
        digestMethod: 'http://www.w3.org/2001/04/xmlenc#sha512',
        verified: null,
        reason: 'no usable certificate in KeyInfo (SUNAT beta signs with a dummy key)',
      });
    }
    expect(cdrOf('efact_cdr1.xml').signature).to.equal(null);
  });
});
