/**
 * Every text the lifecycle says to a person (an action's result or refusal, why a document waits, a timeline event) as
 * a code and its parameters, with one English and one Spanish rendering per code. The API and `chasqui support` render
 * English (their wording is their contract with integrators and scripts); the console, /consulta and the buyer's
 * e-mail render Spanish. Pure: imports nothing, so lifecycle/transitions.ts may build messages too.
 */

/** A lifecycle text as data. `params` hold the facts it quotes (names, statuses, counts), never sentences. */
export interface Message {
  readonly code: MessageCode;
  readonly params: Readonly<Record<string, unknown>>;
}

interface Texts<P> {
  en: (p: P) => string;
  es: (p: P) => string;
}
const t = <P = Record<string, never>>(en: (p: P) => string, es: (p: P) => string): Texts<P> => ({ en, es });

/** The statuses (lifecycle/transitions.ts DOCUMENT_STATUSES) in the words a Spanish reader uses. */
export const STATUS_ES: Readonly<Record<string, string>> = {
  queued: 'en cola',
  to_send: 'por enviar',
  to_summarize: 'por resumir',
  registered: 'con ticket',
  sent: 'enviado',
  accepted: 'aceptado',
  observed: 'aceptado con observaciones',
  rejected: 'rechazado',
};
const statusEs = (status: unknown) => STATUS_ES[String(status)] ?? String(status);

/** Where an authority outcome came from (authority/types.ts Origin), and how the timeline names an answer. */
const ORIGIN_ES: Readonly<Record<string, string>> = {
  connection: 'sin conexión',
  timeout: 'sin respuesta a tiempo',
  tax_authority: 'respuesta de SUNAT',
  system: 'respuesta ilegible',
  ticket: 'ticket',
  answered: 'respuesta',
  unknown: 'desconocido',
};
const originEs = (origin: unknown) => ORIGIN_ES[String(origin)] ?? String(origin);

/** The support actions (db/support-actions.ts SupportActionName) as a Spanish reader names them. */
export const ACTION_ES: Readonly<Record<string, string>> = {
  send: 'enviar',
  resend: 'enviar de nuevo',
  recheck: 'consultar el estado',
  redeliver: 'entregar el webhook de nuevo',
  email: 'enviar el correo de nuevo',
};
const RESULT_ES: Readonly<Record<string, string>> = { done: 'hecho', refused: 'rechazado', failed: 'falló' };
const DELIVERY_ES: Readonly<Record<string, string>> = {
  pending: 'pendiente',
  delivered: 'entregado',
  failed: 'fallido',
  cancelled: 'cancelado',
};
const EMAIL_ES: Readonly<Record<string, string>> = {
  pending: 'pendiente',
  sent: 'enviado',
  failed: 'fallido',
  disabled: 'desactivado',
};
const times = (n: number) => `${n} ${n === 1 ? 'intento' : 'intentos'}`;
const list = (to: readonly string[]) => to.join(', ');

type Doc = { filename: string };
/**
 * Where the document went (documents.destination, unsaid: SUNAT): SUNAT itself, an OSE (the company's own or the
 * provider's), or `any` for a group holding both.
 */
type At = { destination?: string };
function at(p: At, within = false): string {
  if (!p.destination || p.destination === 'tax_authority') return 'SUNAT';
  if (p.destination === 'any') return 'SUNAT (o la OSE)';
  return within ? 'la OSE' : 'La OSE';
}
type Status = { status: string };

const TEXTS = {
  // What an action did (lifecycle/actions.ts, lifecycle/email.ts).
  'action.would': t<{ action: string }>(
    (p) => `would ${p.action}`,
    (p) => `Se hará: ${ACTION_ES[p.action] ?? p.action}.`,
  ),
  'send.done': t<Doc>(
    (p) => `Document ${p.filename} queued for sending`,
    (p) => `El documento ${p.filename} quedó en cola para enviarse.`,
  ),
  'resend.done.api': t<Doc>(
    (p) => `Document ${p.filename} will be sent again (same signed XML, no new signature, no quota)`,
    (p) => `El documento ${p.filename} se enviará de nuevo (el mismo XML firmado, sin nueva firma ni cuota).`,
  ),
  'resend.done': t(
    () => 'send requested (same signed XML, no quota)',
    () => 'Envío solicitado: el mismo XML firmado, sin consumir cuota.',
  ),
  'recheck.done': t(
    () => 'state query requested',
    () => 'Consulta solicitada: SUNAT (u OSE) dirá el estado real en unos segundos.',
  ),
  'redeliver.done': t<{ delivery: string }>(
    (p) => `new delivery ${p.delivery}`,
    () => 'Nueva entrega del aviso al webhook iniciada.',
  ),
  'email.would': t<Doc & { to: string[] }>(
    (p) => `would e-mail ${p.filename} again to ${list(p.to)}`,
    (p) => `Se enviará de nuevo el correo a ${list(p.to)}.`,
  ),
  'email.done': t<Doc & { to: string[] }>(
    (p) => `The e-mail of ${p.filename} will be sent again to ${list(p.to)}`,
    (p) => `El correo se enviará de nuevo a ${list(p.to)}.`,
  ),
  'send.not_handed_over': t(
    () => 'The send could not be handed to the delivery service; the document still waits: retry POST /send',
    () => 'No se pudo entregar la orden al servicio de envíos; el documento sigue esperando. Inténtelo de nuevo.',
  ),

  // Why an action does not apply (lifecycle/transitions.ts, lifecycle/actions.ts, lifecycle/email.ts).
  'send.not_manual': t<Doc & Status>(
    (p) => `Document ${p.filename} is ${p.status}; only a document waiting in manual mode (to_send) can be sent`,
    (p) => `El documento está ${statusEs(p.status)}: solo se envía a mano uno que espera el envío manual.`,
  ),
  'send.now': t<Doc & Status>(
    (p) => `Document ${p.filename} is ${p.status}`,
    (p) => `El documento está ${statusEs(p.status)}.`,
  ),
  'resend.resolved': t<Doc & Status>(
    (p) => `Document ${p.filename} is already ${p.status}; a resolved document is not sent again`,
    (p) => `El documento ya está ${statusEs(p.status)}: un documento resuelto no se envía de nuevo.`,
  ),
  'resend.not_sent': t<Doc & { id: string }>(
    (p) => `Document ${p.filename} has not been sent yet: use POST /v1/cpe/${p.id}/send`,
    () => 'El documento aún no se envió: la empresa lo envía a mano (modo manual).',
  ),
  'resend.by_summary': t<Doc>(
    (p) => `Document ${p.filename} is reported by the daily summary, not sent on its own`,
    () => 'Esta boleta se informa en el resumen diario, no se envía sola.',
  ),
  'resend.ticket': t<Doc & { ticket: string | null }>(
    (p) => `Document ${p.filename} was received with ticket ${p.ticket}; its verdict is being polled`,
    (p) => `SUNAT lo recibió con el ticket ${p.ticket}; se consulta su veredicto.`,
  ),
  'resend.sending': t<Doc>(
    (p) => `Document ${p.filename} is being sent now; there is nothing to resend yet`,
    () => 'Se está enviando ahora: aún no hay nada que reenviar.',
  ),
  'resend.may_have_arrived': t<{ origin: string }>(
    (p) => `it may have reached the authority (${p.origin}): recheck it instead`,
    (p) => `Puede que haya llegado a SUNAT (${originEs(p.origin)}): consulte su estado en lugar de reenviarlo.`,
  ),
  'recheck.resolved': t<Status>(
    (p) => `already ${p.status}`,
    (p) => `Ya está ${statusEs(p.status)}: no hay nada que consultar.`,
  ),
  'recheck.not_sent': t<{ waiting: Message }>(
    (p) => `not sent yet (${english(p.waiting)})`,
    (p) => `Aún no se envió: ${lowerFirst(spanish(p.waiting))}`,
  ),
  'recheck.not_reached': t(
    () => 'never reached the authority (connection failure): nothing to query; use resend',
    () => 'Nunca llegó a SUNAT (falla de conexión): no hay nada que consultar; envíelo de nuevo.',
  ),
  'recheck.sending': t(
    () => 'being sent now',
    () => 'Se está enviando ahora.',
  ),
  'redeliver.no_webhook': t(
    () => 'No webhook is configured: PATCH /v1/companies/{ruc}/webhook first',
    () => 'La empresa no tiene webhook configurado: configúrelo primero.',
  ),
  'redeliver.pending': t<{ delivery: string; next: string | null }>(
    (p) =>
      `Delivery ${p.delivery} still has attempts pending (next at ${p.next ?? 'now'}); redeliver it once it has ended`,
    () => 'La entrega del webhook aún tiene intentos pendientes: vuelva a entregarla cuando termine.',
  ),
  'redeliver.none': t(
    () => 'no webhook delivery (no webhook was configured when it resolved)',
    () => 'No hubo entrega al webhook: la empresa no tenía webhook cuando el documento se resolvió.',
  ),
  'redeliver.no_verdict': t<Status>(
    (p) => `no verdict yet (${p.status}): nothing to deliver`,
    (p) => `Aún no hay veredicto (${statusEs(p.status)}): no hay aviso que entregar.`,
  ),
  'email.not_found': t<{ id: string }>(
    (p) => `No document ${p.id}`,
    () => 'No existe ese documento.',
  ),
  'email.no_address': t<Doc>(
    (p) => `Document ${p.filename} names no buyer e-mail (cliente.correo): give the addresses in "to"`,
    () => 'El documento no indica el correo del comprador (cliente.correo).',
  ),
  'email.too_many': t<{ max: number; got: number }>(
    (p) => `At most ${p.max} addresses, got ${p.got}`,
    (p) => `Como máximo ${p.max} direcciones; se indicaron ${p.got}.`,
  ),
  'email.bad_address': t<{ address: string }>(
    (p) => `"${p.address}" is not one e-mail address (name@domain)`,
    (p) => `«${p.address}» no es una dirección de correo (nombre@dominio).`,
  ),
  'email.not_accepted': t<Doc & Status>(
    (p) => `Document ${p.filename} is ${p.status}: only an accepted document is e-mailed to the buyer`,
    (p) => `El documento está ${statusEs(p.status)}: solo se envía al comprador un documento aceptado.`,
  ),
  'email.rate_limited': t<Doc & { limit: number; seconds: number }>(
    (p) => `Document ${p.filename} was e-mailed again ${p.limit} times this hour; retry in ${p.seconds} s`,
    (p) =>
      `El correo de este documento ya se reenvió ${p.limit} veces en esta hora; inténtelo en ${Math.ceil(p.seconds / 60)} min.`,
  ),
  'email.pending': t<Doc>(
    (p) => `The e-mail of ${p.filename} is being sent (pending); wait for it to be sent or to fail`,
    () => 'El correo se está enviando: espere a que se envíe o falle.',
  ),

  // Why an unresolved document has no verdict yet (lifecycle/transitions.ts waitingReason).
  'waiting.timeout': t<At>(
    () => 'timed out at the authority: waiting for reconciliation (state query every 10 min) — `recheck` queries now',
    (p) =>
      `${at(p)} no respondió a tiempo: se consulta su estado cada 10 minutos. «Consultar el estado ahora» lo consulta ya.`,
  ),
  // No state query reaches it (an OSE, a type other than 01/07/08, SUNAT's beta): nothing resolves it by itself.
  'waiting.timeout_unqueried': t<At>(
    () =>
      'timed out at the authority, which offers no state query for it: nothing queries it by itself and it may have ' +
      "arrived — check the authority's portal; if it is not there, the integrator's POST /v1/cpe/{id}/resend sends it again",
    (p) =>
      `${at(p)} no respondió a tiempo y no ofrece consulta de estado para este documento: nadie lo consultará solo y ` +
      `puede que haya llegado, así que no se reenvía sin más. Verifique en el portal de ${at(p, true)}; si no está, ` +
      'la empresa lo envía de nuevo (reenvío por la API, el mismo XML firmado).',
  ),
  'waiting.ticket': t<At>(
    () => 'received with a ticket, verdict pending (code 98): polled with growing waits — `recheck` polls now',
    (p) =>
      `${at(p)} lo recibió con un ticket y aún no da su veredicto (código 98): se consulta con esperas crecientes. «Consultar el estado ahora» lo consulta ya.`,
  ),
  'waiting.connection': t<At>(
    () => 'connection failures: the authority was not reached; retried with growing waits — `resend` retries now',
    (p) =>
      `Fallas de conexión: no se llegó a ${at(p, true)}; se reintenta con esperas crecientes. «Enviar de nuevo» lo reintenta ya.`,
  ),
  'waiting.not_received': t<At>(
    () => 'the authority has no record of it (never received): sent again after a short wait — `resend` sends now',
    (p) =>
      `${at(p)} no tiene registro de él (nunca lo recibió): se enviará de nuevo tras una breve espera. «Enviar de nuevo» lo envía ya.`,
  ),
  'waiting.unreadable': t<At>(
    () => 'the authority answered but the answer could not be processed: `recheck` queries the real state',
    (p) =>
      `${at(p)} respondió, pero la respuesta no se pudo leer. «Consultar el estado ahora» pregunta por el estado real.`,
  ),
  'waiting.not_started': t(
    () => 'committed but its workflow never started: the sweeper starts it within a minute',
    () => 'Se registró, pero su proceso de envío no empezó: el barrido lo inicia en menos de un minuto.',
  ),
  'waiting.sending': t(
    () => 'being sent now (no attempt finished yet)',
    () => 'Se está enviando ahora (ningún intento terminó todavía).',
  ),
  'waiting.manual': t(
    () => 'waiting for POST /v1/cpe/{id}/send (company in manual sending mode)',
    () => 'Espera que la empresa lo envíe (modo de envío manual).',
  ),
  'waiting.summary': t(
    () => 'waiting for the daily summary (receipt in summary mode)',
    () => 'Espera el resumen diario (boleta informada por resumen).',
  ),

  // A document's timeline (lifecycle/timeline.ts): events, then their details.
  'event.issued': t(
    () => 'issued',
    () => 'emitido y firmado',
  ),
  'event.send': t(
    () => 'send attempt',
    () => 'envío',
  ),
  'event.ticket': t(
    () => 'ticket poll',
    () => 'consulta del ticket',
  ),
  'event.query': t(
    () => 'state query',
    () => 'consulta de estado',
  ),
  'event.verdict': t(
    () => 'verdict',
    () => 'veredicto',
  ),
  'event.delivery': t(
    () => 'webhook delivery',
    () => 'entrega del webhook',
  ),
  'event.redelivery': t(
    () => 'webhook redelivery',
    () => 'nueva entrega del webhook',
  ),
  'event.delivery_attempt': t<{ number: number }>(
    (p) => `  webhook attempt ${p.number}`,
    (p) => `intento ${p.number} del webhook`,
  ),
  'event.email': t(
    () => 'buyer e-mail',
    () => 'correo al comprador',
  ),
  'event.support': t<{ action: string }>(
    (p) => `support ${p.action}`,
    (p) => `soporte: ${ACTION_ES[p.action] ?? p.action}`,
  ),
  'detail.issued': t<{ hash: string }>(
    (p) => `signed, hash ${p.hash}`,
    // The first characters are enough to compare with the printed copy; the whole digest is in the XML.
    (p) => `firmado, resumen ${p.hash.slice(0, 12)}…`,
  ),
  'detail.attempt': t<{ origin: string; code: string | null; status: string; message: string | null; own: boolean }>(
    (p) => `${p.origin}${p.code ? ` ${p.code}` : ''} → ${p.status}${p.message ? `: ${p.message}` : ''}`,
    // The authority's own words and codes are Spanish; chasqui's technical ones (ETIMEDOUT, CDR_UNREADABLE) are named
    // by their origin instead (the CLI shows them).
    (p) =>
      `${originEs(p.origin)}${p.own && p.code ? ` ${p.code}` : ''} → ${statusEs(p.status)}${p.own && p.message ? `: ${p.message}` : ''}`,
  ),
  'detail.result': t<{ origin: string | null; code: string | null; message: string }>(
    (p) => `${p.origin ?? 'verdict'}${p.code ? ` ${p.code}` : ''}: ${p.message}`,
    // SUNAT's own words are Spanish, its code after them (0, accepted, says nothing more); chasqui's technical texts
    // and codes (timeouts, sockets) are named by their origin instead.
    (p) =>
      !p.origin || p.origin === 'tax_authority'
        ? `${p.message}${p.code && p.code !== '0' ? ` (código ${p.code})` : ''}`
        : originEs(p.origin),
  ),
  'detail.verdict': t<Status & { code: string | null }>(
    (p) => `${p.status}${p.code ? ` (code ${p.code})` : ''}`,
    (p) => `${statusEs(p.status)}${p.code ? ` (código ${p.code})` : ''}`,
  ),
  'detail.delivery': t<Status & { delivery: string; attempts: number }>(
    (p) => `${p.delivery} ${p.status}, ${p.attempts} attempt(s)`,
    (p) => `${DELIVERY_ES[p.status] ?? p.status}, ${times(p.attempts)}`,
  ),
  'detail.delivery_done': t<{ http: number | null; ms: number | null }>(
    (p) => `delivered (HTTP ${p.http}, ${p.ms} ms)`,
    (p) => `entregado (HTTP ${p.http}, ${p.ms} ms)`,
  ),
  'detail.delivery_failed': t<{ error: string | null; http: number | null }>(
    (p) => `failed: ${p.error ?? `HTTP ${p.http}`}`,
    (p) => `falló${p.http ? ` (HTTP ${p.http})` : ''}`,
  ),
  'detail.email': t<Status & { to: string[]; attempts: number; error: string | null }>(
    (p) => `${p.status} to ${list(p.to)}, ${p.attempts} attempt(s)${p.error ? `: ${p.error}` : ''}`,
    (p) => `${EMAIL_ES[p.status] ?? p.status}, a ${list(p.to)}, ${times(p.attempts)}`,
  ),
  'detail.support': t<{ operator: string; result: string; detail: string | null; message: Message | null }>(
    (p) => `by ${p.operator}: ${p.result}${p.detail ? ` — ${p.detail}` : ''}`,
    // Records from before messages were stored carry English text only: the result is said, the text is not.
    (p) => `por ${p.operator}: ${RESULT_ES[p.result] ?? p.result}${p.message ? ` — ${spanish(p.message)}` : ''}`,
  ),
} satisfies Record<string, Texts<never>>;

export type MessageCode = keyof typeof TEXTS;
type ParamsOf<C extends MessageCode> = Parameters<(typeof TEXTS)[C]['en']>[0];

/** Every code, for the test that each has both texts. */
export const MESSAGE_CODES = Object.keys(TEXTS) as MessageCode[];

export function message<C extends MessageCode>(
  code: C,
  ...params: ParamsOf<C> extends Record<string, never> ? [] : [ParamsOf<C>]
): Message {
  return { code, params: params[0] ?? {} };
}

function texts(m: Message): Texts<Record<string, unknown>> {
  const found = (TEXTS as unknown as Record<string, Texts<Record<string, unknown>> | undefined>)[m.code];
  if (!found) throw new Error(`no text for lifecycle message ${m.code}`);
  return found;
}

/** The API's and the CLI's words. */
export const english = (m: Message): string => texts(m).en(m.params);
/** The console's, /consulta's and the buyer's e-mail's words. */
export const spanish = (m: Message): string => texts(m).es(m.params);

/** Whether a stored value is a message this version can render (support actions recorded with a code). */
export function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Message).code === 'string' &&
    (value as Message).code in TEXTS &&
    typeof (value as Message).params === 'object'
  );
}

/** A document's last authority result (documents.result) as the CLI and the console show it. */
export const resultMessage = (r: { origin: string | null; code: string | null; message: string }): Message =>
  message('detail.result', { origin: r.origin, code: r.code, message: r.message });

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
