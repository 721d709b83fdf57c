import type { CheckId, CheckStatus } from '../../db/company-checks';
import type { Destination } from '../../db/companies';
import { LIMA_TIME_ZONE } from '../../core/lima';
import type { WaitingReason } from '../../lifecycle/transitions';

/**
 * The console's Spanish words for what chasqui stores as codes (statuses: lifecycle/messages/es.ts STATUS_ES; document
 * types: documents/type-names.ts).
 */

/** Where a company's documents go (companies.destination). */
export const DESTINATION_WORDS: Readonly<Record<Destination, string>> = {
  tax_authority: 'SUNAT',
  own_ose: 'OSE propia',
  provider_ose: 'OSE del proveedor',
};
export const destinationWord = (d: string) => DESTINATION_WORDS[d as Destination] ?? d;

export const CHECK_WORDS: Readonly<Record<CheckStatus, string>> = {
  ok: 'bien',
  warn: 'aviso',
  fail: 'falla',
  unknown: 'sin respuesta',
};

/** The company checks (activities/company-checks.ts) by what they look at. */
export const CHECK_NAMES: Readonly<Record<CheckId, string>> = {
  certificate: 'certificado',
  sol_credentials: 'clave SOL',
  gre_credentials: 'credenciales GRE',
  series_gaps: 'saltos de numeración',
  sending_window: 'plazo de envío',
  rule_readiness: 'reglas por entrar en vigor',
  ose_link: 'vínculo con la OSE',
  pse_authorization: 'autorización del PSE',
  email_server: 'servidor de correo',
};

/** Support staff in Lima read Lima's clock (UTC-5, no daylight saving). */
const LIMA = new Intl.DateTimeFormat('es-PE', {
  timeZone: LIMA_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `27/11/2026 17:30:05` in Lima; the caller says "hora de Lima" once (a header, or `limaLabelled`). */
export function limaTime(d: Date | null | undefined, seconds = true): string {
  if (!d) return '—';
  const part = Object.fromEntries(LIMA.formatToParts(new Date(d)).map((p) => [p.type, p.value]));
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute}${seconds ? `:${part.second}` : ''}`;
}

/** `27/11/2026 17:30 (hora de Lima)`: a single time on its own. */
export const limaLabelled = (d: Date | null | undefined): string => (d ? `${limaTime(d, false)} (hora de Lima)` : '—');

/** An issue date (`2026-11-27`, a calendar day with no time zone) as Peru writes it. */
export const day = (iso: string | null | undefined): string =>
  iso ? String(iso).slice(0, 10).split('-').reverse().join('/') : '—';

/** The stuck page's group headings; the sentence under each is the lifecycle's waiting message. */
export const WAITING_TITLES: Readonly<Record<WaitingReason, string>> = {
  timeout: 'Sin respuesta a tiempo, se consulta solo',
  unqueried: 'Sin veredicto y sin consulta de estado',
  ticket: 'Con ticket, sin veredicto',
  connection: 'Fallas de conexión',
  not_received: 'SUNAT no lo recibió',
  unreadable: 'Respuesta ilegible',
  not_started: 'Proceso de envío no iniciado',
  sending: 'Enviándose',
  manual: 'Espera el envío manual',
  summary: 'Espera el resumen diario',
};
