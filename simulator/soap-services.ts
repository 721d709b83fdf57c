/**
 * The SOAP surface: billService (sendBill, sendSummary, sendPack, getStatus; also the otros CPE billService) and
 * billConsultService (getStatusCdr, getStatus), with their WSDLs at `?wsdl`.
 */
import type http from 'node:http';
import { parseFileName, type FileName, type SunatBehaviour, type Verdict } from './behaviour';
import { messageFor } from './codes';
import { VALIDITY_ANSWERS } from '../documents/sunat-codes';
import { wrongService } from './other-cpe';
import type { Fault, Operation } from './rules';
import { part, rawSoapFault, readSoapRequest, soapResponse, type SoapCall } from './soap';
import { documentKey, type SimulatorStore } from './store';
import { fault, ticketSubject, XML, type Reply, type Route } from './transport';
import { BILL_CONSULT_SERVICE, BILL_SERVICE, wsdlDocument, type SoapServiceDefinition } from './wsdl';

/** Every SOAP service the simulator serves, by the last segment of its path. */
const SOAP_SERVICES: readonly SoapServiceDefinition[] = [BILL_SERVICE, BILL_CONSULT_SERVICE];
/** billConsultService answers only for facturas and their notes (greenter demo#32: "debe ser 01, 07, 08"). */
const CONSULT_TYPES = new Set(['01', '07', '08']);

export class SoapServices {
  constructor(
    private readonly store: SimulatorStore,
    private readonly sunat: SunatBehaviour,
  ) {}

  /** `GET …/billService?wsdl` and the documents it imports, with the address the client used; null for other paths. */
  wsdl(path: string, query: string, host: string | undefined): string | null {
    for (const service of SOAP_SERVICES) {
      const at = path.lastIndexOf(`/${service.name}`);
      if (at < 0) continue;
      const endpointPath = path.slice(0, at + service.name.length + 1);
      const found = wsdlDocument(
        service,
        path.slice(endpointPath.length),
        query,
        `http://${host ?? '127.0.0.1'}${endpointPath}`,
      );
      if (found !== null) return found;
    }
    return null;
  }

  /**
   * One SOAP request: read strictly against the service's contract (a refusal is answered before any rule or
   * SUNAT check), then routed to the operation. Null for paths that are no SOAP service.
   */
  route(method: string, path: string, raw: Buffer, headers: http.IncomingHttpHeaders): Route | null {
    const service = method === 'POST' ? SOAP_SERVICES.find((s) => path.endsWith(`/${s.name}`)) : undefined;
    if (!service) return null;
    const read = readSoapRequest(raw, headers['content-type'] ?? '', service.contract);
    if (!read.ok) {
      const { faultcode, faultstring } = read.refusal;
      return {
        operation: 'unknown',
        subject: null,
        name: null,
        ticket: null,
        handle: () => ({ status: 500, body: rawSoapFault(faultcode, faultstring), type: XML, code: null }),
      };
    }
    const { call } = read;
    const p = call.params;
    if (service === BILL_CONSULT_SERVICE) {
      const operation: Operation = call.operation === 'getStatusCdr' ? 'getStatusCdr' : 'consultStatus';
      const subject = {
        operation,
        ruc: p.rucComprobante,
        docType: p.tipoComprobante,
        series: p.serieComprobante,
        number: p.numeroComprobante,
      };
      return { operation, subject, name: null, ticket: null, handle: () => this.consult(operation, call) };
    }
    if (call.operation === 'getStatus') {
      const ticket = p.ticket ?? '';
      const record = this.store.tickets.get(ticket);
      return {
        operation: 'getStatus',
        subject: { operation: 'getStatus', ...ticketSubject(record) },
        name: record?.name ?? null,
        ticket,
        handle: (f) => this.getStatus(call, f),
      };
    }
    const operation = call.operation as 'sendBill' | 'sendSummary' | 'sendPack';
    const name = p.fileName ?? null;
    const named = name ? parseFileName(name) : null;
    // SUNAT reads fileName as the zip's name: without `.zip` it is not a name it takes (0151), as on the GRE API.
    const file = name?.endsWith('.zip') ? named : null;
    const handlers = { sendBill: this.sendBill, sendSummary: this.sendSummary, sendPack: this.sendPack };
    const handle = (f: Fault | null) => {
      // Each billService (CPE, otros CPE) takes only its own document types.
      const misrouted = file && wrongService(path, file.docType);
      return misrouted ? fault(misrouted) : handlers[operation].call(this, call, file, f);
    };
    return { operation, subject: { operation, ...named }, name, ticket: null, handle };
  }

  /** The WS-Security user's RUC, or SUNAT's fault: 0101 without a UsernameToken, 0102 for wrong credentials. */
  private soapUser(call: SoapCall): string | Reply {
    if (call.username === null || call.password === null) return fault('0101');
    return this.sunat.authenticateUsername(call.username, call.password) ?? fault('0102');
  }

  private sendBill(call: SoapCall, file: FileName | null, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    if (!file) return fault('0151');
    if (file.summary) return fault('0152');
    if (file.ruc !== userRuc) return fault('0154');
    const verdict = this.sunat.judge(file, call.params.contentFile ?? '', f, true);
    if (verdict.kind === 'exception') return fault(verdict.code, verdict.message);
    const cdr = this.sunat.keep(file, verdict, f);
    return {
      status: 200,
      body: soapResponse('sendBill', part('applicationResponse', cdr)),
      type: XML,
      code: verdict.code,
    };
  }

  private sendSummary(call: SoapCall, file: FileName | null, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    if (!file || !file.summary) return fault('0151');
    if (file.ruc !== userRuc) return fault('0154');
    let verdict: Verdict = this.sunat.judge(file, call.params.contentFile ?? '', f, false);
    if (verdict.kind === 'exception') return fault(verdict.code, verdict.message);
    if (this.sunat.summaryPresented(file)) {
      verdict = {
        ...verdict,
        status: 'rejected',
        code: '2223',
        content: { ...verdict.content, code: '2223', description: messageFor('2223'), notes: [] },
      };
    }
    const record = this.sunat.openTicket('summary', file, verdict);
    return { status: 200, body: soapResponse('sendSummary', part('ticket', record.ticket)), type: XML, code: null };
  }

  /**
   * sendPack (lotes de facturas) is in SUNAT's WSDL, but no source read describes a pack's file name or its CDR: the
   * simulator runs SUNAT's checks common to every method (user, then file name) and answers 0151 with that reason.
   */
  private sendPack(call: SoapCall): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    return fault(
      '0151',
      `${messageFor('0151')} - Detalle: the simulator knows no pack (lote) file name; send documents with sendBill or sendSummary`,
    );
  }

  private getStatus(call: SoapCall, f: Fault | null): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    const record = this.store.tickets.get(call.params.ticket ?? '');
    if (!record || record.kind !== 'summary') return fault('0127');
    if (record.ruc !== userRuc) return fault('0126');
    if (this.sunat.stillProcessing(record, f?.kind === 'ticketStuck')) {
      return {
        status: 200,
        body: soapResponse('getStatus', `<status>${part('statusCode', '98')}</status>`),
        type: XML,
        code: '98',
      };
    }
    const statusCode = record.error ? '99' : '0';
    return {
      status: 200,
      body: soapResponse(
        'getStatus',
        `<status>${part('content', record.cdrZip)}${part('statusCode', statusCode)}</status>`,
      ),
      type: XML,
      code: statusCode,
    };
  }

  /**
   * billConsultService, production only and for facturas and their notes (01, 07, 08): getStatusCdr answers 0004
   * with the CDR, getStatus the document's validity (0001 accepted, 0002 rejected, 0003 de baja); both 0011 when
   * SUNAT has no such document.
   */
  private consult(operation: 'getStatusCdr' | 'consultStatus', call: SoapCall): Reply {
    const userRuc = this.soapUser(call);
    if (typeof userRuc !== 'string') return userRuc;
    const p = call.params;
    const wrapper = operation === 'getStatusCdr' ? 'statusCdr' : 'status';
    const answer = (code: string, message: string, content?: string): Reply => ({
      status: 200,
      body: soapResponse(
        operation === 'getStatusCdr' ? 'getStatusCdr' : 'getStatus',
        `<${wrapper}>${content ? part('content', content) : ''}${part('statusCode', code)}${part('statusMessage', message)}</${wrapper}>`,
      ),
      type: XML,
      code,
    });
    if (!CONSULT_TYPES.has(p.tipoComprobante ?? '')) return answer('0005', messageFor('0005'));
    const doc = this.store.documents.get(
      documentKey(p.rucComprobante ?? '', p.tipoComprobante ?? '', p.serieComprobante ?? '', p.numeroComprobante ?? ''),
    );
    if (!doc) return answer('0011', messageFor('0011'));
    if (operation === 'getStatusCdr') return answer('0004', messageFor('0004'), doc.cdrZip);
    const validity = VALIDITY_ANSWERS[doc.voided ? 'voided' : doc.status === 'rejected' ? 'rejected' : 'accepted'];
    return answer(validity.code, validity.text);
  }
}
