import type { Fault, Operation } from './rules';

export interface LogEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  operation: Operation | 'admin' | 'unknown';
  ruc: string | null;
  name: string | null;
  ticket: string | null;
  /** HTTP status answered; null when the connection was reset or left hanging. */
  httpStatus: number | null;
  /** SUNAT code of the answer (fault code, CDR ResponseCode, ticket status). */
  code: string | null;
  fault: Fault['kind'] | null;
}

/** The request log the admin API shows, trimmed to its last `limit` entries. */
export class RequestLog {
  private readonly entries: LogEntry[] = [];
  private seq = 0;

  constructor(private readonly limit: number) {}

  add(entry: Omit<LogEntry, 'seq' | 'at'>): void {
    this.entries.push({ seq: ++this.seq, at: new Date().toISOString(), ...entry });
    // Trimmed in batches: cutting one entry off the front per request moved the whole array each time.
    if (this.entries.length >= 2 * this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  list(): LogEntry[] {
    return this.entries.slice(-this.limit);
  }

  clear(): void {
    this.entries.length = 0;
  }
}
