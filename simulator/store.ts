import { createWriteStream, existsSync, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { FaultRule } from './rules';

export interface StoredDocument {
  name: string;
  code: string;
  status: 'accepted' | 'observed' | 'rejected';
  /** The CDR zip as it was answered, base64. */
  cdrZip: string;
  receivedAt: string;
  /** The document's cbc:IssueDate, which a voided-documents communication must give as its ReferenceDate (2375). */
  issueDate?: string | null;
  /** Put "de baja" by an accepted voided-documents communication (RA). */
  voided?: boolean;
}

export interface TicketRecord {
  ticket: string;
  kind: 'summary' | 'gre';
  ruc: string;
  name: string;
  docType: string;
  series: string;
  number: string;
  /** Polls answered so far. */
  polls: number;
  /** Final answer once the polls run out: the CDR (accepted or rejected; empty when none was generated) and, for a rejection, its error. */
  code: string;
  cdrZip: string;
  error: { code: string; message: string } | null;
}

export interface Credential {
  ruc: string;
  user: string;
  password: string;
  /** GRE API client registered in Menú SOL for this RUC (optional). */
  clientId?: string;
  clientSecret?: string;
}

export interface PortalEntry {
  kind: 'pse' | 'ose';
  ruc: string;
  /** RUC of the PSE authorised or of the OSE linked. */
  target: string;
  id: string;
  estado: 'AUTORIZADO' | 'VINCULADO';
  fecha: string;
}

type Event =
  | { type: 'document'; key: string; doc: StoredDocument }
  | { type: 'ticket'; record: TicketRecord }
  | { type: 'poll'; ticket: string }
  | { type: 'rules'; rules: FaultRule[] }
  | { type: 'credentials'; credentials: Credential[] }
  | { type: 'portal'; entry: PortalEntry }
  | { type: 'reset' };

/** The key SUNAT finds a document by: RUC, type, series and the number as an integer. */
export function documentKey(ruc: string, type: string, series: string, number: string | number): string {
  return `${ruc}-${type}-${series}-${Number(number)}`;
}

/**
 * The simulator's state. With a data directory every change is appended as one JSON line to `simulator.jsonl` and
 * replayed on start, so documents, tickets, rules, credentials and portal procedures survive a restart.
 */
export class SimulatorStore {
  readonly documents = new Map<string, StoredDocument>();
  readonly tickets = new Map<string, TicketRecord>();
  rules: FaultRule[] = [];
  credentials: Credential[];
  readonly portal: PortalEntry[] = [];
  private readonly out: WriteStream | null;

  constructor(
    private readonly initialCredentials: Credential[],
    dataDir?: string,
  ) {
    this.credentials = [...initialCredentials];
    if (!dataDir) {
      this.out = null;
      return;
    }
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'simulator.jsonl');
    if (existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.trim()) this.apply(JSON.parse(line) as Event);
      }
    }
    this.out = createWriteStream(file, { flags: 'a' });
  }

  private record(event: Event): void {
    this.apply(event);
    this.out?.write(`${JSON.stringify(event)}\n`);
  }

  private apply(event: Event): void {
    switch (event.type) {
      case 'document':
        this.documents.set(event.key, event.doc);
        break;
      case 'ticket':
        this.tickets.set(event.record.ticket, event.record);
        break;
      case 'poll': {
        const t = this.tickets.get(event.ticket);
        if (t) t.polls += 1;
        break;
      }
      case 'rules':
        this.rules = event.rules;
        break;
      case 'credentials':
        this.credentials = event.credentials;
        break;
      case 'portal':
        this.portal.push(event.entry);
        break;
      case 'reset':
        this.documents.clear();
        this.tickets.clear();
        this.rules = [];
        this.credentials = [...this.initialCredentials];
        this.portal.length = 0;
        break;
    }
  }

  saveDocument(key: string, doc: StoredDocument): void {
    this.record({ type: 'document', key, doc });
  }

  saveTicket(record: TicketRecord): void {
    this.record({ type: 'ticket', record });
  }

  countPoll(ticket: string): void {
    this.record({ type: 'poll', ticket });
  }

  setRules(rules: FaultRule[]): void {
    this.record({ type: 'rules', rules });
  }

  setCredentials(credentials: Credential[]): void {
    this.record({ type: 'credentials', credentials });
  }

  addPortalEntry(entry: PortalEntry): void {
    this.record({ type: 'portal', entry });
  }

  reset(): void {
    this.record({ type: 'reset' });
  }

  async close(): Promise<void> {
    const out = this.out;
    if (out) await new Promise<void>((resolve) => out.end(resolve));
  }
}
