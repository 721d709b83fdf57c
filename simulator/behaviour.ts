import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { limaDate } from '../core/lima';
import { addDays, allowedRates, type RuleCalendar } from '../documents/calendar';
import { dec, type Decimal } from '../documents/decimal';
import { decodeXml, unzipFiles } from '../authority/zip';
import { acceptanceText, buildCdrZip, sunatNumber, type CdrContent, type CdrVariant } from './cdr';
import { datedRuleFailures } from '../validator/dated-rules';
import { messageFor } from './codes';
import { codeKind, sunatCode } from '../documents/sunat-codes';
import type { Fault } from './rules';
import { checkSignature } from './signature';
import { documentKey, type Credential, type SimulatorStore, type StoredDocument, type TicketRecord } from './store';
import type { SunatRules } from './sunat-rules';
import { scanUbl, type UblFacts } from './ubl-scan';

/** A file name split the way SUNAT reads it: `RUC-TT-SERIE-NUMERO` or `RUC-RC|RA|RR-YYYYMMDD-N`. */
export interface FileName {
  base: string;
  ruc: string;
  docType: string;
  series: string;
  number: string;
  summary: boolean;
}

const DOCUMENT_NAME = /^(\d{11})-(01|03|04|07|08|09|20|31|40)-([A-Z0-9]{4})-(\d{1,8})$/;
const SUMMARY_NAME = /^(\d{11})-(RC|RA|RR)-(\d{8})-(\d{1,5})$/;

export function parseFileName(name: string): FileName | null {
  const base = name.replace(/\.(zip|xml)$/i, '');
  const doc = DOCUMENT_NAME.exec(base);
  if (doc) return { base, ruc: doc[1], docType: doc[2], series: doc[3], number: doc[4], summary: false };
  const summary = SUMMARY_NAME.exec(base);
  if (summary)
    return { base, ruc: summary[1], docType: summary[2], series: summary[3], number: summary[4], summary: true };
  return null;
}

/** Exceptions (0100–1999) come back as faults; verdicts come back in a CDR. */
export type Verdict =
  | { kind: 'exception'; code: string; message: string }
  | { kind: 'cdr'; status: 'accepted' | 'observed' | 'rejected'; code: string; content: CdrContent; voids?: string[] };

const ROOTS: Record<string, string> = {
  '01': 'Invoice',
  '03': 'Invoice',
  '04': 'Invoice',
  '07': 'CreditNote',
  '08': 'DebitNote',
  '09': 'DespatchAdvice',
  '20': 'Retention',
  '40': 'Perception',
  '31': 'DespatchAdvice',
  RC: 'SummaryDocuments',
  RA: 'VoidedDocuments',
  RR: 'VoidedDocuments',
};

const exception = (code: string, message = messageFor(code)): Verdict => ({ kind: 'exception', code, message });

/** 1034/1003/1035/1036: the name of the file against its content, compared as raw strings like SUNAT's XSL. */
function nameMismatch(file: FileName, facts: UblFacts): Verdict | null {
  // A liquidación de compra (04) is issued by the buyer: its RUC is the customer party's.
  const issuer = file.docType === '04' ? facts.recipient?.replace(/^6-/, '') : facts.supplierRuc;
  if (issuer !== file.ruc) return exception('1034');
  if (facts.root !== ROOTS[file.docType] || (facts.typeCode !== null && facts.typeCode !== file.docType))
    return exception('1003');
  if (file.summary) return facts.id === `${file.docType}-${file.series}-${file.number}` ? null : exception('1036');
  const [series, number] = (facts.id ?? '').split('-');
  if (series !== file.series) return exception('1035');
  if (number === undefined || !/^\d+$/.test(number) || Number(number) !== Number(file.number)) return exception('1036');
  return null;
}

const TOLERANCE = dec('1');
const AMOUNT = /^-?\d+(\.\d+)?$/;

/** An amount as SUNAT's arithmetic reads it; null for a malformed one (left to format rules this simulator omits). */
function amount(text: string | null): Decimal | null {
  return text !== null && AMOUNT.test(text) ? dec(text) : null;
}

/**
 * SUNAT's header arithmetic, to ±1.00: IGV = base × rate (3291), total with taxes = value + taxes (3279). The rates
 * are those of the issue date (documents/calendar igvRates; Factura2_0 fields 46/47 "la tasa vigente al IGV (18.00 o
 * 10.50) a la fecha de emisión"); which of them a line may carry is the dated rules' question (3103), asked first.
 */
function totalsProblem(facts: UblFacts, calendar: RuleCalendar): string | null {
  if (!['Invoice', 'CreditNote', 'DebitNote'].includes(facts.root) || !facts.issueDate) return null;
  const note = ({ CreditNote: '07', DebitNote: '08' } as Record<string, string>)[facts.root];
  const rates = allowedRates(calendar.igvRates(facts.issueDate, note)).map((percent) => dec(percent).div(100));
  for (const sub of facts.taxSubtotals) {
    const tax = amount(sub.tax);
    const base = amount(sub.taxable);
    if (sub.schemeId !== '1000' || !tax || !base) continue;
    const fits = rates.some((rate) => base.times(rate).minus(tax).abs().lte(TOLERANCE));
    if (!fits) return '3291';
  }
  const lineExtension = amount(facts.lineExtension);
  const taxTotal = amount(facts.taxTotal);
  const taxInclusive = amount(facts.taxInclusive);
  if (lineExtension && taxTotal && taxInclusive && lineExtension.plus(taxTotal).minus(taxInclusive).abs().gt(TOLERANCE))
    return '3279';
  return null;
}

/**
 * SUNAT's answer to a document number it already holds, identical content or not: 1033 when the earlier one was
 * accepted (greenter#35: the message comes when "the same document is sent repeatedly"), 1032 when it was rejected.
 * SUNAT does not compare the content, and neither does the simulator.
 */
export function resendCode(earlier: StoredDocument): '1032' | '1033' {
  return earlier.status === 'rejected' ? '1032' : '1033';
}

/** Sales documents SUNAT receives only within its sending window (2108), counted from their issue date. */
const WINDOWED_TYPES = new Set(['01', '03', '04', '07', '08']);

/** How SUNAT judges by dates: its dated rules (with the operator's moved dates) and its sending window. */
export interface DatedJudgement {
  calendar: RuleCalendar;
  /** Days after its issue date SUNAT still receives a factura, boleta, liquidación or note (2108); 0: no window. */
  sendingWindowDays: number;
}

/** A text SUNAT answers with: its catalog's (return-codes.csv), else the simulator's; the detail after it. */
/** SUNAT answers an exception (a code below 2000, the catalog's kind) as a SOAP fault, a rejection in a CDR. */
const isException = (code: string) => codeKind(code) === 'exception';
const sunatText = (code: string, detail: string) => `${sunatCode(code).text ?? messageFor(code)} - Detalle: ${detail}`;

/** SUNAT's behaviour behind the transports: credentials, file checks, signatures, verdicts, tickets. */
export class SunatBehaviour {
  /** `rules`: SUNAT's own XSL decides rejections and observations (simulator/sunat-rules.ts); null: the simulator's own checks. */
  constructor(
    private readonly store: SimulatorStore,
    private readonly ticketPolls: number,
    private readonly dated: DatedJudgement,
    private readonly rules: SunatRules | null = null,
  ) {}

  /** WS-Security / portal / GRE user check: the credentials table, plus MODDATOS / moddatos for any RUC (like beta). */
  authenticate(ruc: string, user: string, password: string): boolean {
    if (user.toUpperCase() === 'MODDATOS' && password === 'moddatos') return true;
    return this.store.credentials.some(
      (c: Credential) => c.ruc === ruc && c.user.toUpperCase() === user.toUpperCase() && c.password === password,
    );
  }

  /** Username `RUC + SOL user`, as in the UsernameToken and the GRE password grant. */
  authenticateUsername(username: string | null, password: string | null): string | null {
    if (!username || password === null || !/^\d{11}./.test(username)) return null;
    const ruc = username.slice(0, 11);
    return this.authenticate(ruc, username.slice(11), password) ? ruc : null;
  }

  /**
   * Everything SUNAT checks on a received file, in its order: the zip, the XML inside, name against content, the
   * signature, an earlier document with the same number, the arithmetic; then the fault rule's verdict if any.
   */
  judge(file: FileName, contentBase64: string, fault: Fault | null, checkDuplicate: boolean): Verdict {
    const files = unzipFiles(Buffer.from(contentBase64, 'base64'));
    if (!files.ok) return exception(files.reason === 'empty' ? '0155' : '0156');
    const xmlFiles = files.entries.filter((e) => e.name.toLowerCase().endsWith('.xml'));
    if (xmlFiles.length === 0) return exception('0157');
    if (xmlFiles.length > 1) return exception('0158');
    if (xmlFiles[0].name !== `${file.base}.xml`) return exception('0161');
    const xml = decodeXml(xmlFiles[0].data);
    if (!xml.trim()) return exception('0160');
    const facts = scanUbl(xml);
    if (!facts) return exception('0306');
    const mismatch = nameMismatch(file, facts);
    if (mismatch) return mismatch;
    const signature = checkSignature(xml);
    if (!signature.present) return exception('1059');
    if (checkDuplicate) {
      const earlier = this.store.documents.get(documentKey(file.ruc, file.docType, file.series, file.number));
      if (earlier) return exception(resendCode(earlier));
    }
    const referenceId = file.summary
      ? `${file.docType}-${file.series}-${file.number}`
      : `${file.series}-${file.number}`;
    const content = (code: string, description: string, notes: string[] = []): CdrContent => ({
      name: file.base,
      issuerRuc: file.ruc,
      docType: file.docType,
      referenceId,
      issueDate: facts.issueDate,
      issueTime: facts.issueTime,
      recipient: facts.recipient,
      code,
      description,
      notes,
      qrHash: file.docType === '09' || file.docType === '31' ? randomBytes(32).toString('hex') : undefined,
    });
    const rejected = (code: string, message = messageFor(code)): Verdict => ({
      kind: 'cdr',
      status: 'rejected',
      code,
      content: content(code, message),
    });
    if (!signature.ok) return rejected('2335', `${messageFor('2335')} - Detalle: ${signature.reason ?? ''}`.trim());
    const late = this.pastSendingWindow(file, facts);
    if (late) return rejected('2108', sunatText('2108', late));
    const xsl = this.rules?.judge(file.docType, xml, `${file.base}.xml`) ?? null;
    if (xsl?.rejection) {
      const { code, message } = xsl.rejection;
      const text = sunatText(code, message);
      return isException(code) ? exception(code, text) : rejected(code, text);
    }
    // SUNAT's rules dated after its XSL, by the document's issue date, for documents chasqui signed and others alike.
    const [dated] = datedRuleFailures(xml, this.dated.calendar);
    if (dated)
      return rejected(
        dated.code,
        sunatText(dated.code, `${dated.message}${dated.path ? ` (nodo: ${dated.path})` : ''}`),
      );
    const voidProblem = file.docType === 'RA' ? this.voidingProblem(file, facts) : null;
    if (voidProblem) return rejected(voidProblem.code, sunatText(voidProblem.code, voidProblem.detail));
    const arithmetic = xsl ? null : totalsProblem(facts, this.dated.calendar);
    if (arithmetic) return rejected(arithmetic);
    if (fault?.kind === 'reject') {
      const message = fault.message ?? messageFor(fault.code);
      return fault.asFault || isException(fault.code) ? exception(fault.code, message) : rejected(fault.code, message);
    }
    const notes = [...new Set(xsl?.observations.map((o) => o.code))].map(
      (code) => `${code} - ${sunatCode(code).text ?? messageFor(code)}`,
    );
    if (fault?.kind === 'observe') notes.push(`${fault.code} - ${fault.message ?? messageFor(fault.code)}`);
    if (notes.length)
      return {
        kind: 'cdr',
        status: 'observed',
        code: '0',
        content: content('0', acceptanceText(file.docType, referenceId), notes),
      };
    const voids =
      file.docType === 'RA'
        ? facts.voided.map((v) => documentKey(file.ruc, v.type ?? '', v.series ?? '', v.number ?? ''))
        : undefined;
    return {
      kind: 'cdr',
      status: 'accepted',
      code: '0',
      content: content('0', acceptanceText(file.docType, referenceId)),
      voids,
    };
  }

  /** Why a document is past SUNAT's sending window (2108) today in Lima, or null. */
  private pastSendingWindow(file: FileName, facts: UblFacts): string | null {
    const days = this.dated.sendingWindowDays;
    if (days <= 0 || !WINDOWED_TYPES.has(file.docType) || !facts.issueDate) return null;
    const today = limaDate(new Date());
    const last = addDays(facts.issueDate, days);
    return today > last
      ? `IssueDate ${facts.issueDate}: SUNAT receives it up to ${days} days after its issue date (until ${last}); today is ${today}`
      : null;
  }

  /**
   * What SUNAT refuses in a voided-documents communication (RA) about the documents it lists: one it never received
   * or rejected (2105), one already voided (2323), one whose issue date is not the communication's ReferenceDate (2375).
   */
  private voidingProblem(file: FileName, facts: UblFacts): { code: string; detail: string } | null {
    for (const v of facts.voided) {
      const id = `${v.type ?? ''} ${v.series ?? ''}-${v.number ?? ''}`;
      const doc = this.store.documents.get(documentKey(file.ruc, v.type ?? '', v.series ?? '', v.number ?? ''));
      if (!doc || doc.status === 'rejected')
        return { code: '2105', detail: `${id} was never received or was rejected` };
      if (doc.voided) return { code: '2323', detail: `${id} is already voided` };
      // Documents seeded through the admin API (or kept from before issue dates were stored) have no issue date.
      if (doc.issueDate && facts.referenceDate && doc.issueDate !== facts.referenceDate) {
        return {
          code: '2375',
          detail: `${id} was issued on ${doc.issueDate}, not on the ReferenceDate ${facts.referenceDate}`,
        };
      }
    }
    return null;
  }

  /** Stores the verdict (the real, signed CDR) and returns the CDR zip to answer, broken if a fault says so. */
  keep(file: FileName, verdict: Extract<Verdict, { kind: 'cdr' }>, fault: Fault | null): string {
    const cdrZip = buildCdrZip(verdict.content);
    this.remember(file, verdict, cdrZip);
    const variant: CdrVariant | null =
      fault?.kind === 'malformedCdr' ? 'malformed' : fault?.kind === 'unsignedCdr' ? 'unsigned' : null;
    return variant ? buildCdrZip(verdict.content, variant) : cdrZip;
  }

  /**
   * Opens a ticket whose final answer is already decided; it stays at 98 for the configured number of polls. A GRE
   * exception (no CDR) is answered at the status query as 99 with `indCdrGenerado` "0", and takes no number.
   */
  openTicket(kind: TicketRecord['kind'], file: FileName, verdict: Verdict): TicketRecord {
    const cdrZip = verdict.kind === 'cdr' ? buildCdrZip(verdict.content) : '';
    const rejected = verdict.kind === 'exception' || verdict.status === 'rejected';
    const record: TicketRecord = {
      ticket: kind === 'gre' ? randomUUID() : sunatNumber(),
      kind,
      ruc: file.ruc,
      name: file.base,
      docType: file.docType,
      series: file.series,
      number: file.number,
      polls: 0,
      code: verdict.code,
      cdrZip,
      error: rejected
        ? { code: verdict.code, message: verdict.kind === 'cdr' ? verdict.content.description : verdict.message }
        : null,
    };
    this.store.saveTicket(record);
    // A rejected summary does not take its name; a rejected guide, like any document, burns its number.
    if (verdict.kind === 'cdr' && (verdict.status !== 'rejected' || kind === 'gre'))
      this.remember(file, verdict, cdrZip);
    return record;
  }

  private remember(file: FileName, verdict: Extract<Verdict, { kind: 'cdr' }>, cdrZip: string): void {
    // An accepted voided-documents communication (RA) puts the documents it lists "de baja" (getStatus 0003).
    for (const key of verdict.status === 'rejected' ? [] : (verdict.voids ?? [])) {
      const doc = this.store.documents.get(key);
      if (doc) this.store.saveDocument(key, { ...doc, voided: true });
    }
    this.store.saveDocument(documentKey(file.ruc, file.docType, file.series, file.number), {
      name: file.base,
      code: verdict.code,
      status: verdict.status,
      cdrZip,
      receivedAt: new Date().toISOString(),
      issueDate: verdict.content.issueDate,
    });
  }

  /** A summary with this name was already received and not rejected (SUNAT: 2223, file already presented). */
  summaryPresented(file: FileName): boolean {
    const earlier = this.store.documents.get(documentKey(file.ruc, file.docType, file.series, file.number));
    return earlier !== undefined && earlier.status !== 'rejected';
  }

  /** One poll of a ticket: true while it must still answer 98. */
  stillProcessing(record: TicketRecord, stuck: boolean): boolean {
    if (!stuck && record.polls >= this.ticketPolls) return false;
    this.store.countPoll(record.ticket);
    return true;
  }

  /** A hash as GRE's `hashZip` carries it: SHA-256 of the zip bytes, hex. */
  static zipHash(base64: string): string {
    return createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex');
  }
}
