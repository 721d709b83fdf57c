/**
 * Every text the lifecycle says to a person (an action's result or refusal, why a document waits, a timeline event) as
 * a code and its parameters, with one English and one Spanish rendering per code. The API and `chasqui support` render
 * English (their wording is their contract with integrators and scripts); the console, /consulta and the buyer's
 * e-mail render Spanish. Pure: imports nothing, so lifecycle/transitions.ts may build messages too.
 * Longer than 400 lines: it is the one catalogue of the lifecycle's and the company checks' texts in two languages; split, each
 * part would need its own copy of the rendering below.
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
  // What an action did (support/actions.ts, lifecycle/email.ts).
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

  // Why an action does not apply (lifecycle/transitions.ts, support/actions.ts, lifecycle/email.ts).
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
  'resend.ticket': t<Doc & At & { ticket: string | null }>(
    (p) => `Document ${p.filename} was received with ticket ${p.ticket}; its verdict is being polled`,
    (p) => `${at(p)} lo recibió con el ticket ${p.ticket}; se consulta su veredicto.`,
  ),
  'resend.sending': t<Doc>(
    (p) => `Document ${p.filename} is being sent now; there is nothing to resend yet`,
    () => 'Se está enviando ahora: aún no hay nada que reenviar.',
  ),
  'resend.may_have_arrived': t<At & { origin: string }>(
    (p) => `it may have reached the authority (${p.origin}): recheck it instead`,
    (p) => `Puede que haya llegado a ${at(p, true)} (${originOf(p)}): consulte su estado en lugar de reenviarlo.`,
  ),
  // Support's recheck and resend of a timeout no state query reaches: the one learns nothing, the other is unsafe.
  'action.no_query': t<At>(
    () =>
      "it may have reached the authority, and no state query reaches it: check the authority's portal; if it is not there, the integrator's POST /v1/cpe/{id}/resend sends it again",
    (p) =>
      `Puede que haya llegado a ${at(p, true)}, que no ofrece consulta de estado para este documento: verifique en su portal; si no está, la empresa lo envía de nuevo.`,
  ),
  'recheck.resolved': t<Status>(
    (p) => `already ${p.status}`,
    (p) => `Ya está ${statusEs(p.status)}: no hay nada que consultar.`,
  ),
  'recheck.not_sent': t<{ waiting: Message }>(
    (p) => `not sent yet (${english(p.waiting)})`,
    (p) => `Aún no se envió: ${lowerFirst(spanish(p.waiting))}`,
  ),
  'recheck.not_reached': t<At>(
    () => 'never reached the authority (connection failure): nothing to query; use resend',
    (p) => `Nunca llegó a ${at(p, true)} (falla de conexión): no hay nada que consultar; envíelo de nuevo.`,
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
  // `origin`: a timeout or an unreadable answer; unsaid for a group holding both.
  'waiting.unqueried': t<At & { origin?: string }>(
    (p) =>
      `${p.origin === 'system' ? 'the authority answered but the answer could not be read' : p.origin === 'timeout' ? 'timed out at the authority' : 'no verdict from the authority'}, which offers no state query for it: nothing queries it by itself and it may have ` +
      "arrived — check the authority's portal; if it is not there, the integrator's POST /v1/cpe/{id}/resend sends it again",
    (p) =>
      `${at(p)} ${p.origin === 'system' ? 'respondió, pero la respuesta no se pudo leer,' : p.origin === 'timeout' ? 'no respondió a tiempo' : 'no dio su veredicto'} y no ofrece consulta de estado para este documento: nadie lo consultará solo y ` +
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

  // A document's timeline (support/timeline.ts): events, then their details.
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
  'detail.delivery_pruned': t<{ days: number }>(
    (p) => `webhook history older than ${p.days} days is not kept`,
    (p) => `El historial del webhook de más de ${p.days} días no se conserva.`,
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
  'detail.attempt': t<
    At & { origin: string; code: string | null; status: string; message: string | null; own: boolean }
  >(
    (p) => `${p.origin}${p.code ? ` ${p.code}` : ''} → ${p.status}${p.message ? `: ${p.message}` : ''}`,
    // The authority's own words and codes are Spanish; chasqui's technical ones (ETIMEDOUT, CDR_UNREADABLE) are named
    // by their origin instead (the CLI shows them).
    (p) =>
      `${originOf(p)}${p.own && p.code ? ` ${p.code}` : ''} → ${statusEs(p.status)}${p.own && p.message ? `: ${p.message}` : ''}`,
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

  // A company check's outcome (activities/checks/): English for the API and `chasqui support checks`, Spanish for the
  // console's companies page. `origin` is the certificate's (own, assigned, service).
  'check.certificate.not_yet': t<{ origin: string; not_before: string }>(
    (p) => `the ${p.origin} certificate is not valid before ${p.not_before}; nothing can be signed with it yet`,
    (p) =>
      `El certificado ${certificateEs(p.origin)} aún no es válido (lo será el ${dayEs(p.not_before)}): todavía no firma.`,
  ),
  'check.certificate.expired': t<{ origin: string; not_after: string }>(
    (p) => `the ${p.origin} certificate expired on ${p.not_after}; issuing answers 402: ${renewEn(p.origin)}`,
    (p) =>
      `El certificado ${certificateEs(p.origin)} venció el ${dayEs(p.not_after)}: no se puede emitir. ${renewEs(p.origin)}`,
  ),
  'check.certificate.expiring': t<{ origin: string; days: number; not_after: string }>(
    (p) => `the ${p.origin} certificate expires in ${p.days} days (${p.not_after}): ${renewEn(p.origin)}`,
    (p) =>
      `El certificado ${certificateEs(p.origin)} vence en ${p.days} días (el ${dayEs(p.not_after)}). ${renewEs(p.origin)}`,
  ),
  'check.certificate.valid': t<{ origin: string; days: number; not_after: string }>(
    (p) => `the ${p.origin} certificate is valid until ${p.not_after} (${p.days} days)`,
    (p) => `El certificado ${certificateEs(p.origin)} es válido hasta el ${dayEs(p.not_after)} (${p.days} días).`,
  ),
  'check.certificate.external': t(
    () => 'the company signs its documents itself (signing external): no certificate of ours is used',
    () => 'La empresa firma sus documentos (firma externa): no usa un certificado del servicio.',
  ),
  'check.certificate.unavailable': t<{ reason: string }>(
    (p) => p.reason,
    () => 'El servicio no puede firmar ahora: su certificado de proveedor no está disponible. Avise al operador.',
  ),
  'check.credentials.unreachable': t<{ code: string | null; message: string }>(
    (p) => `SUNAT could not be asked (${p.code}: ${p.message}); asked again next run`,
    () =>
      'No se pudo consultar a SUNAT (sin conexión o sin respuesta); se vuelve a consultar en la próxima verificación.',
  ),
  'check.credentials.refused': t<Credentials & { code: string | null; message: string }>(
    (p) => `SUNAT refused ${whoEn(p)}: [${p.code}] ${p.message}. ${credentialsFixEn(p)}`,
    (p) => `SUNAT rechazó ${whoEs(p)} (código ${p.code}): ${p.message}. ${credentialsFixEs(p)}`,
  ),
  'check.credentials.accepted': t<Credentials>(
    (p) => (p.client ? `SUNAT issued a token to ${whoEn(p)}` : `SUNAT accepted ${whoEn(p)}`),
    (p) => `SUNAT aceptó ${whoEs(p)}.`,
  ),
  'check.credentials.no_sol': t<{ ruc: string; own: boolean }>(
    (p) =>
      `no SOL credentials are loaded, so nothing can be sent to SUNAT: PATCH /v1/companies/${p.ruc}/sol-credentials with ${
        p.own
          ? 'secondary_user and secondary_password (it signs with its own certificate)'
          : 'sol_user and sol_password'
      }`,
    (p) =>
      `No hay credenciales SOL cargadas: nada puede enviarse a SUNAT. Cargue ${p.own ? 'el usuario SOL secundario (firma con certificado propio)' : 'el usuario y la clave SOL'}.`,
  ),
  'check.credentials.gre_needs_sol': t<{ ruc: string }>(
    (p) => `the GRE client needs the company's SOL user too: PATCH /v1/companies/${p.ruc}/sol-credentials`,
    () => 'El cliente de guías (GRE) necesita también el usuario SOL de la empresa: cárguelo.',
  ),
  'check.credentials.not_asked': t(
    () => 'not asked yet: one SUNAT call per company and run, this one is asked next run',
    () => 'Aún no consultado: una consulta a SUNAT por empresa y verificación; esta va en la próxima.',
  ),
  'check.series_gaps.none': t<{ since: string }>(
    (p) => `no numbers missing in any series issued since ${p.since}`,
    (p) => `No faltan números en ninguna serie emitida desde el ${dayEs(p.since)}.`,
  ),
  'check.series_gaps.missing': t<{ since: string; missing: number; series: number; numbers: string[] }>(
    (p) =>
      `${p.missing} numbers missing in ${p.series} series since ${p.since} (${list(p.numbers)}${p.missing > 10 ? ', …' : ''}): ask the integrator why their system skipped them: SUNAT expects each series numbered without gaps`,
    (p) =>
      `Faltan ${p.missing} números en ${p.series} serie(s) desde el ${dayEs(p.since)} (${list(p.numbers)}${p.missing > 10 ? ', …' : ''}): pregunte al integrador por qué su sistema los saltó; SUNAT espera cada serie sin saltos.`,
  ),
  'check.sending_window.closed': t<{ count: number; days: number; numbers: string }>(
    (p) =>
      `${p.count} documents without a verdict are past SUNAT's ${p.days}-day sending window (${p.numbers}): SUNAT refuses them (2108); issue them again with today's date`,
    (p) =>
      `${p.count} documento(s) sin veredicto pasaron el plazo de envío de ${p.days} días (${p.numbers}): SUNAT los rechaza (2108); emítalos de nuevo con la fecha de hoy.`,
  ),
  'check.sending_window.closing': t<{ count: number; numbers: string }>(
    (p) =>
      `${p.count} documents without a verdict have their sending window closing within 24 h (${p.numbers}): send them now (POST /v1/cpe/{id}/send, or chasqui support resend)`,
    (p) =>
      `A ${p.count} documento(s) sin veredicto se les cierra el plazo de envío en menos de 24 h (${p.numbers}): envíelos ya.`,
  ),
  'check.sending_window.open': t(
    () => 'no document without a verdict has its sending window closing within 24 h',
    () => 'Ningún documento sin veredicto tiene su plazo de envío por cerrarse en 24 h.',
  ),
  'check.rules.pass': t<{ days: number; rules: number; horizon: number }>(
    (p) =>
      p.rules
        ? `the documents of the last ${p.days} days pass the ${p.rules} rules starting within ${p.horizon} days`
        : `no SUNAT rule starts within ${p.horizon} days`,
    (p) =>
      p.rules
        ? `Los documentos de los últimos ${p.days} días cumplen las ${p.rules} reglas que empiezan en ${p.horizon} días.`
        : `Ninguna regla de SUNAT empieza en los próximos ${p.horizon} días.`,
  ),
  'check.rules.would_fail': t<{
    failing: { would_fail: number; checked: number; rule: string; effective: string; codes: string[] }[];
  }>(
    (p) =>
      `${p.failing.map((r) => `${r.would_fail} of ${r.checked} would fail ${r.rule} from ${r.effective} (SUNAT ${r.codes.join('/')})`).join('; ')}: the integrator changes its payloads before that date (the numbers and messages are in this check's rules[].examples)`,
    (p) =>
      `${p.failing.map((r) => `${r.would_fail} de ${r.checked} documentos fallarían una regla de SUNAT desde el ${dayEs(r.effective)} (código ${r.codes.join('/')})`).join('; ')}: el integrador debe ajustar sus envíos antes de esa fecha.`,
  ),
  'check.procedure.done': t<Procedure>(
    (p) => `${procedureEn(p)} is done at SUNAT's portal`,
    (p) => `${procedureEs(p)} está hecho en el portal de SUNAT.`,
  ),
  'check.procedure.failed': t<Procedure & { error: string | null; ruc: string }>(
    (p) =>
      `${procedureEn(p)} failed: ${p.error ?? 'no reason recorded'}; load working SOL credentials (PATCH /v1/companies/${p.ruc}/sol-credentials) to retry`,
    (p) => `${procedureEs(p)} falló en el portal de SUNAT: cargue credenciales SOL válidas para reintentarlo.`,
  ),
  'check.procedure.pending': t<Procedure & { state: string; ruc: string; sol: boolean }>(
    (p) =>
      `${procedureEn(p)} is not done yet (${p.state}): ${p.sol ? 'chasqui runs it at the portal and retries by itself' : `it needs the principal SOL user: PATCH /v1/companies/${p.ruc}/sol-credentials`}`,
    (p) =>
      `${procedureEs(p)} aún no está hecho: ${p.sol ? 'chasqui lo tramita en el portal y reintenta solo.' : 'necesita el usuario SOL principal; cárguelo.'}`,
  ),
  'check.email.chasqui': t(
    () => "no own SMTP server: buyers' e-mails go through chasqui's",
    () => 'Sin servidor de correo propio: los correos a compradores salen por el del servicio.',
  ),
  'check.email.unusable': t<{ reason: string; ruc: string }>(
    (p) => `the company's SMTP setting is not used, so its buyers get no e-mail: it ${p.reason}; ${smtpFixEn(p.ruc)}`,
    () =>
      'La configuración de correo (SMTP) de la empresa no sirve: sus compradores no reciben correos. Guárdela de nuevo.',
  ),
  'check.email.refused': t<{ reason: string; ruc: string; host: string }>(
    (p) => `the company's SMTP server ${p.reason}; ${smtpFixEn(p.ruc)}`,
    (p) => `El servidor de correo ${p.host} no es una dirección pública: no se usa. Guarde uno público.`,
  ),
  'check.email.public': t<{ host: string; port: number }>(
    (p) => `the company's SMTP server ${p.host}:${p.port} is a public host`,
    (p) => `El servidor de correo ${p.host}:${p.port} es público.`,
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

/** The credentials a check asked SUNAT with: a SOL user, or a GRE client with one. */
type Credentials = { user: string; client?: string; ruc: string };
const whoEn = (p: Credentials) => (p.client ? `GRE client ${p.client} with SOL user ${p.user}` : `SOL user ${p.user}`);
const whoEs = (p: Credentials) =>
  p.client ? `el cliente de guías ${p.client} con el usuario SOL ${p.user}` : `el usuario SOL ${p.user}`;
const credentialsFixEn = (p: Credentials) =>
  p.client
    ? `Load the client and secret of Menú SOL: PATCH /v1/companies/${p.ruc}/gre-credentials`
    : `Load the right ones: PATCH /v1/companies/${p.ruc}/sol-credentials`;
const credentialsFixEs = (p: Credentials) =>
  p.client ? 'Cargue el cliente y el secreto del Menú SOL.' : 'Cargue las credenciales correctas.';
const CERTIFICATE_ES: Readonly<Record<string, string>> = {
  own: 'propio',
  service: 'del proveedor',
  assigned: 'asignado',
};
const certificateEs = (origin: string) => CERTIFICATE_ES[origin] ?? origin;
function renewEn(origin: string): string {
  if (origin === 'own') return 'upload the renewed PFX with POST /v1/companies/{ruc}/certificate';
  if (origin === 'service') return "renew the service's provider certificate (CHASQUI_PROVIDER_PFX)";
  return 'assign a renewed certificate: chasqui certificates assign --company RUC --pfx FILE --password PW';
}
const renewEs = (origin: string) =>
  origin === 'own' ? 'Suba el certificado renovado.' : 'El operador del servicio debe renovarlo.';
/** `2026-11-27` or an ISO instant, as Peru writes the day. */
const dayEs = (iso: string) => String(iso).slice(0, 10).split('-').reverse().join('/');
type Procedure = { procedure: string; provider: string };
const procedureEn = (p: Procedure) =>
  p.procedure === 'ose_link'
    ? `the link to the provider OSE (RUC ${p.provider})`
    : `the authorisation of the service as PSE (RUC ${p.provider})`;
const procedureEs = (p: Procedure) =>
  p.procedure === 'ose_link'
    ? `El vínculo con la OSE del proveedor (RUC ${p.provider})`
    : `La autorización del servicio como PSE (RUC ${p.provider})`;
const smtpFixEn = (ruc: string) =>
  `store it again with PATCH /v1/companies/${ruc}/email (smtp://user:password@host:port)`;

/** An outcome's origin; the authority's answer names the one the document went to (SUNAT or the OSE). */
const originOf = (p: At & { origin: string }) =>
  p.origin === 'tax_authority' ? `respuesta de ${at(p, true)}` : originEs(p.origin);

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
