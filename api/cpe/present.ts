import type { DocumentRow } from '../../db/documents';
import type { WithFiles } from '../../files/documents';
import { isHeld, isValidVerdict } from '../../lifecycle/transitions';

/** Seconds since the request began, as spec 2.4's `time` (millisecond precision). */
export const secondsSince = (startedAt: number) => Math.round(Date.now() - startedAt) / 1000;

const NEXT_STEP: Record<string, (id: string) => string> = {
  queued: (id) => `queued for sending; the verdict arrives by GET /v1/cpe/${id} or the webhook`,
  to_send: (id) => `waiting in manual sending mode for POST /v1/cpe/${id}/send`,
  to_summarize: () => 'waiting for the daily summary (receipts mode summary)',
};

function statusMessage(row: DocumentRow): string {
  const next = NEXT_STEP[row.status]?.(row.id) ?? `now ${row.status}; GET /v1/cpe/${row.id} tells its state`;
  return `Document ${row.filename} ${row.signed_by === 'external' ? 'received (signed by the issuer)' : 'signed'}; ${next}`;
}

/** Spec 2.4, exactly: `warnings` only when there are some. */
export function issueBody(row: WithFiles<DocumentRow>, startedAt: number) {
  return {
    success: true as const,
    status: row.status,
    message: statusMessage(row),
    external_id: row.id,
    filename: row.filename,
    hash: row.hash,
    environment: row.environment,
    environment_name: row.environment === '02' ? 'production' : 'demo',
    xml: Buffer.from(row.xml, 'utf8').toString('base64'),
    ...(row.warnings.length ? { warnings: row.warnings } : {}),
    time: secondsSince(startedAt),
  };
}

/** Response mode `wait`, verdict (or ticket) in time: the 2.4 body with the document's state and the CDR (docs/issuing.md). */
export function verdictBody(row: WithFiles<DocumentRow>, startedAt: number) {
  return {
    ...issueBody(row, startedAt),
    message: `Document ${row.filename} ${row.resolved ? row.status : `registered with ticket ${row.ticket}`}`,
    status_code: row.status_code,
    resolved: row.resolved,
    ticket: row.ticket,
    result: row.result,
    cdr_zip: row.cdr_zip,
  };
}

/**
 * `POST /api/cpe/enviar` (docs/issuing.md): the answer greenter/lycet integrators expect, `sunatResponse` with the
 * CDR (`cdrZip`, `cdrResponse {id, code, description, notes}`) or `error {code, message}`, plus chasqui's ids.
 * `answered: false` is the 202 case: the authority did not answer in time (`sunatResponse: null`).
 */
export function legacyBody(row: WithFiles<DocumentRow>, startedAt: number, answered: boolean) {
  const valid = isValidVerdict(row.status);
  const result = row.result;
  const cdrResponse =
    row.cdr_zip && result
      ? {
          id: `${row.series}-${row.number}`,
          code: result.code ?? '0',
          description: result.message,
          notes: result.observations ?? [],
        }
      : null;
  let sunatResponse = null;
  if (answered && row.resolved) {
    sunatResponse = {
      success: valid,
      cdrZip: row.cdr_zip,
      cdrResponse,
      error: valid ? null : { code: result?.code ?? null, message: result?.message ?? 'rejected' },
    };
  } else if (answered) {
    sunatResponse = { success: true, ticket: row.ticket, cdrZip: null, cdrResponse: null, error: null };
  }
  return {
    // false only for a verdict that is not valid (rejected); a ticket or no answer yet is not a failure.
    success: !(answered && row.resolved && !valid),
    message: answered
      ? `Document ${row.filename} ${row.resolved ? row.status : `registered with ticket ${row.ticket}`}`
      : isHeld(row.status)
        ? statusMessage(row)
        : `Document ${row.filename} signed; the authority did not answer in time: query GET /v1/cpe/${row.id}`,
    external_id: row.id,
    filename: row.filename,
    hash: row.hash,
    xml: Buffer.from(row.xml, 'utf8').toString('base64'),
    status: row.status,
    ticket: row.ticket,
    sunatResponse,
    time: secondsSince(startedAt),
  };
}
