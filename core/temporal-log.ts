/**
 * Temporal core's log lines as chasqui's: Temporal names a slow workflow task by its run id only
 * (`[TMPRL1104] <run id>:<event>:<attempt> Workflow task duration exceeded 5 seconds.`). A document's first send runs
 * inside its first workflow task (docs/delivery.md), so an authority that is slow to answer keeps that task open, and
 * Temporal repeats the warning at every task heartbeat (every 8 s) until the answer or the response timeout. The
 * first send says here which document its run is about; the warnings of that run then name the document, and only the
 * first of them is a warning: the repeats go to debug.
 */

export interface TaskSubject {
  externalId: string;
  ruc: string;
  docType: string;
  filename: string;
}

interface Entry {
  subject: TaskSubject;
  warned: number;
  /** When the first send ended; the warning of the task that carries its result comes after it. */
  endedAt?: number;
}

/** The last warning, the task that carries the send's result, comes within a workflow task timeout (10 s) of its end. */
const KEPT_AFTER_END_MS = 10_000;
const runs = new Map<string, Entry>();

/**
 * Says that `runId`'s workflow task waits on `subject`'s first send, until the returned function is called. A Map
 * entry per document, dropped 10 s after its send (the oldest first, as later sends begin).
 */
export function firstTaskOf(runId: string, subject: TaskSubject): () => void {
  const now = Date.now();
  for (const [id, old] of runs) {
    if (old.endedAt === undefined || now - old.endedAt < KEPT_AFTER_END_MS) break;
    runs.delete(id);
  }
  const entry: Entry = { subject, warned: 0 };
  runs.set(runId, entry);
  return () => void (entry.endedAt = Date.now());
}

const SLOW_TASK = /^\[TMPRL1104\] ([^:\s]+):/;

export interface LogLine {
  level: 'error' | 'warn' | 'debug';
  message: string;
  meta: Record<string, unknown>;
}

/** One of Temporal core's lines as chasqui logs it: a slow first task names its document, and warns once per document. */
export function temporalLogLine(line: LogLine): LogLine {
  const runId = SLOW_TASK.exec(line.message)?.[1];
  const entry = runId === undefined ? undefined : runs.get(runId);
  if (!entry) return line;
  const repeat = entry.warned++ > 0;
  const why =
    entry.endedAt === undefined
      ? 'its first send still waits for the authority inside the workflow task'
      : 'the workflow task ran its first send';
  return {
    level: repeat ? 'debug' : line.level,
    message: `${line.message} Document ${entry.subject.filename}: ${why}${repeat ? ` (warning ${entry.warned})` : '; repeats for this document are logged at debug'}.`,
    meta: { ...line.meta, runId, ...entry.subject },
  };
}
