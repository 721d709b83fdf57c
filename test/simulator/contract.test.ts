import { expect } from 'chai';
import got from 'got';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { childElements, NS, parseXml } from '../../authority/xml';
import { zipXml } from '../../authority/zip';
import { type SimulatorHandle } from '../../simulator/server';
import { startTestSimulator } from '../support/simulator';
import { sample, SUNAT_DIR } from '../authority/support';
import { despatch, invoice, summary } from '../support/ubl-fixtures';
import { RUC, sign, urls } from './support';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** complexType name → its sequence of element names, from SUNAT's service schemas. */
function sequences(file: string): Map<string, { names: string[]; types: Map<string, string> }> {
  const doc = parseXml(readFileSync(path.join(SUNAT_DIR, 'wsdl/greenter', file), 'utf8'))!;
  const out = new Map<string, { names: string[]; types: Map<string, string> }>();
  for (const type of childElements(doc.documentElement!, XSD_NS, 'complexType')) {
    const elements = [...(type.getElementsByTagNameNS(XSD_NS, 'element') as unknown as Element[])];
    out.set(type.getAttribute('name')!, {
      names: elements.map((e) => e.getAttribute('name')!),
      types: new Map(elements.map((e) => [e.getAttribute('name')!, (e.getAttribute('type') ?? '').split(':').pop()!])),
    });
  }
  return out;
}

const billTypes = sequences('billService.xsd2.xsd');
const consultTypes = sequences('billConsultService.xsd');

/** The answer's operation element is `{service ns}typeName`, its parts unqualified and in the schema's order. */
function conforms(element: Element, typeName: string, types: typeof billTypes): void {
  expect(element.namespaceURI, typeName).to.equal(NS.service);
  expect(element.localName).to.equal(typeName);
  checkChildren(element, typeName, types);
}

function checkChildren(element: Element, typeName: string, types: typeof billTypes): void {
  const type = types.get(typeName);
  expect(type, `complexType ${typeName}`).to.not.equal(undefined);
  const children = childElements(element);
  const names = children.map((c) => c.localName);
  expect(
    type!.names.filter((n) => names.includes(n)),
    `${typeName} order`,
  ).to.deep.equal(names);
  for (const child of children) {
    expect(child.namespaceURI, `${typeName}/${child.localName} is unqualified`).to.equal(null);
    const nested = type!.types.get(child.localName!)!;
    if (types.has(nested)) checkChildren(child, nested, types);
  }
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([\w.]+)\}\}/g, (_, key: string) => values[key]);
}

async function post(url: string, body: string): Promise<Element> {
  const res = await got.post(url, { body, headers: { 'content-type': 'text/xml' }, throwHttpErrors: false });
  expect(res.statusCode, res.body).to.equal(200);
  const envelope = parseXml(res.body)!.documentElement!;
  expect(envelope.namespaceURI).to.equal(NS.soap);
  return childElements(childElements(envelope, NS.soap, 'Body')[0])[0];
}

describe('simulator answers match the WSDL contracts (SUNAT request templates of samples/soap)', () => {
  let sim: SimulatorHandle;
  const user = { username: `${RUC}MODDATOS`, password: 'moddatos' };
  before(async () => {
    sim = await startTestSimulator({ ticketPolls: 0 });
  });
  after(async () => {
    await sim.close();
  });

  it('sendBill → sendBillResponse/applicationResponse', async () => {
    const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 1 }));
    const body = fill(sample('soap/request-template-send_bill.xml'), {
      ...user,
      'body.filename': `${doc.filename}.zip`,
      'body.file_content': zipXml(doc.filename, doc.xml).toString('base64'),
    });
    conforms(await post(urls(sim).bill, body), 'sendBillResponse', billTypes);
  });

  it('sendSummary → sendSummaryResponse/ticket, getStatus → getStatusResponse/status/{content,statusCode}', async () => {
    const doc = sign(summary(RUC, '2026-11-21', 3));
    const sent = await post(
      urls(sim).bill,
      fill(sample('soap/request-template-send_summary.xml'), {
        ...user,
        'body.filename': `${doc.filename}.zip`,
        'body.file_content': zipXml(doc.filename, doc.xml).toString('base64'),
      }),
    );
    conforms(sent, 'sendSummaryResponse', billTypes);
    const status = await post(
      urls(sim).bill,
      fill(sample('soap/request-template-verify_ticket.xml'), { ...user, ticket: sent.textContent!.trim() }),
    );
    conforms(status, 'getStatusResponse', billTypes);
    expect(childElements(childElements(status)[0]).map((e) => e.localName)).to.deep.equal(['content', 'statusCode']);
  });

  it('getStatusCdr → getStatusCdrResponse/statusCdr/{content,statusCode,statusMessage}', async () => {
    const answer = await post(
      urls(sim).consult,
      fill(sample('soap/request-template-get_status_crd.xml'), {
        ...user,
        'body.ruc': RUC,
        'body.tipo_comprobante': '01',
        'body.serie_comprobante': 'F001',
        'body.numero_comprobante': '1',
      }),
    );
    conforms(answer, 'getStatusCdrResponse', consultTypes);
    expect(childElements(childElements(answer)[0]).map((e) => e.localName)).to.deep.equal([
      'content',
      'statusCode',
      'statusMessage',
    ]);
  });

  it('GRE answers use only the properties of the OpenAPI schemas', async () => {
    const api = JSON.parse(readFileSync(path.join(SUNAT_DIR, 'wsdl/gre-rest-api.openapi.json'), 'utf8'));
    const props = (name: string) => Object.keys(api.components.schemas[name].properties);
    const token = await got
      .post(`${urls(sim).gre.auth}/clientessol/abc/oauth2/token/`, {
        form: {
          grant_type: 'password',
          scope: 'https://api-cpe.sunat.gob.pe',
          client_id: 'abc',
          client_secret: 's',
          username: `${RUC}MODDATOS`,
          password: 'moddatos',
        },
      })
      .json<Record<string, unknown>>();
    expect(props('ApiToken')).to.include.members(Object.keys(token));
    const doc = sign(despatch(RUC, 'T001', 1));
    const zip = zipXml(doc.filename, doc.xml);
    const { createHash } = await import('node:crypto');
    const headers = { authorization: `Bearer ${token.access_token}` };
    const sent = await got
      .post(`${urls(sim).gre.api}/contribuyente/gem/comprobantes/${doc.filename}`, {
        headers,
        json: {
          archivo: {
            nomArchivo: `${doc.filename}.zip`,
            arcGreZip: zip.toString('base64'),
            hashZip: createHash('sha256').update(zip).digest('hex'),
          },
        },
      })
      .json<Record<string, unknown>>();
    expect(props('CpeResponse')).to.include.members(Object.keys(sent));
    const status = await got(`${urls(sim).gre.api}/contribuyente/gem/comprobantes/envios/${sent.numTicket}`, {
      headers,
    }).json<Record<string, unknown>>();
    expect(props('StatusResponse')).to.include.members(Object.keys(status));
    expect(status.codRespuesta).to.equal('0');
    const invalid = await got.post(`${urls(sim).gre.api}/contribuyente/gem/comprobantes/${doc.filename}`, {
      headers,
      json: { archivo: {} },
      throwHttpErrors: false,
    });
    expect(invalid.statusCode).to.equal(422);
    const body = JSON.parse(invalid.body);
    expect(props('CpeErrorValidation')).to.include.members(Object.keys(body));
    expect(props('CpeError')).to.include.members(Object.keys(body.errors[0]));
  });
});
