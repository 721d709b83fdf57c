/**
 * The lifecycle's words in Spanish: the console's, /consulta's and the buyer's e-mail's. One text per code of
 * codes.ts, and the words a Spanish reader uses for statuses, origins and actions.
 */
import { list, type At, type Credentials, type Procedure, type Texts } from './codes';

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

function at(p: At, within = false): string {
  if (!p.destination || p.destination === 'tax_authority') return 'SUNAT';
  if (p.destination === 'any') return 'SUNAT (o la OSE)';
  return within ? 'la OSE' : 'La OSE';
}

const whoEs = (p: Credentials) =>
  p.client ? `el cliente de guías ${p.client} con el usuario SOL ${p.user}` : `el usuario SOL ${p.user}`;
const credentialsFixEs = (p: Credentials) =>
  p.client ? 'Cargue el cliente y el secreto del Menú SOL.' : 'Cargue las credenciales correctas.';

const CERTIFICATE_ES: Readonly<Record<string, string>> = {
  own: 'propio',
  service: 'del proveedor',
  assigned: 'asignado',
};
const certificateEs = (origin: string) => CERTIFICATE_ES[origin] ?? origin;
const renewEs = (origin: string) =>
  origin === 'own' ? 'Suba el certificado renovado.' : 'El operador del servicio debe renovarlo.';

/** `2026-11-27` or an ISO instant, as Peru writes the day. */
const dayEs = (iso: string) => String(iso).slice(0, 10).split('-').reverse().join('/');

const procedureEs = (p: Procedure) =>
  p.procedure === 'ose_link'
    ? `El vínculo con la OSE del proveedor (RUC ${p.provider})`
    : `La autorización del servicio como PSE (RUC ${p.provider})`;

/** An outcome's origin; the authority's answer names the one the document went to (SUNAT or the OSE). */
const originOf = (p: At & { origin: string }) =>
  p.origin === 'tax_authority' ? `respuesta de ${at(p, true)}` : originEs(p.origin);

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export const ES: Texts = {
  'action.would': (p) => `Se hará: ${ACTION_ES[p.action] ?? p.action}.`,
  'send.done': (p) => `El documento ${p.filename} quedó en cola para enviarse.`,
  'resend.done.api': (p) =>
    `El documento ${p.filename} se enviará de nuevo (el mismo XML firmado, sin nueva firma ni cuota).`,
  'resend.done': () => 'Envío solicitado: el mismo XML firmado, sin consumir cuota.',
  'recheck.done': () => 'Consulta solicitada: SUNAT (u OSE) dirá el estado real en unos segundos.',
  'redeliver.done': () => 'Nueva entrega del aviso al webhook iniciada.',
  'email.would': (p) => `Se enviará de nuevo el correo a ${list(p.to)}.`,
  'email.done': (p) => `El correo se enviará de nuevo a ${list(p.to)}.`,
  'send.not_handed_over': () =>
    'No se pudo entregar la orden al servicio de envíos; el documento sigue esperando. Inténtelo de nuevo.',
  'send.not_manual': (p) =>
    `El documento está ${statusEs(p.status)}: solo se envía a mano uno que espera el envío manual.`,
  'send.now': (p) => `El documento está ${statusEs(p.status)}.`,
  'resend.resolved': (p) => `El documento ya está ${statusEs(p.status)}: un documento resuelto no se envía de nuevo.`,
  'resend.not_sent': () => 'El documento aún no se envió: la empresa lo envía a mano (modo manual).',
  'resend.by_summary': () => 'Esta boleta se informa en el resumen diario, no se envía sola.',
  'resend.ticket': (p) => `${at(p)} lo recibió con el ticket ${p.ticket}; se consulta su veredicto.`,
  'resend.sending': () => 'Se está enviando ahora: aún no hay nada que reenviar.',
  'resend.may_have_arrived': (p) =>
    `Puede que haya llegado a ${at(p, true)} (${originOf(p)}): consulte su estado en lugar de reenviarlo.`,
  'action.no_query': (p) =>
    `Puede que haya llegado a ${at(p, true)}, que no ofrece consulta de estado para este documento: verifique en su portal; si no está, la empresa lo envía de nuevo.`,
  'recheck.resolved': (p) => `Ya está ${statusEs(p.status)}: no hay nada que consultar.`,
  'recheck.not_sent': (p, say) => `Aún no se envió: ${lowerFirst(say(p.waiting))}`,
  'recheck.not_reached': (p) =>
    `Nunca llegó a ${at(p, true)} (falla de conexión): no hay nada que consultar; envíelo de nuevo.`,
  'recheck.sending': () => 'Se está enviando ahora.',
  'redeliver.no_webhook': () => 'La empresa no tiene webhook configurado: configúrelo primero.',
  'redeliver.pending': () =>
    'La entrega del webhook aún tiene intentos pendientes: vuelva a entregarla cuando termine.',
  'redeliver.none': () => 'No hubo entrega al webhook: la empresa no tenía webhook cuando el documento se resolvió.',
  'redeliver.no_verdict': (p) => `Aún no hay veredicto (${statusEs(p.status)}): no hay aviso que entregar.`,
  'email.not_found': () => 'No existe ese documento.',
  'email.no_address': () => 'El documento no indica el correo del comprador (cliente.correo).',
  'email.too_many': (p) => `Como máximo ${p.max} direcciones; se indicaron ${p.got}.`,
  'email.bad_address': (p) => `«${p.address}» no es una dirección de correo (nombre@dominio).`,
  'email.not_accepted': (p) =>
    `El documento está ${statusEs(p.status)}: solo se envía al comprador un documento aceptado.`,
  'email.rate_limited': (p) =>
    `El correo de este documento ya se reenvió ${p.limit} veces en esta hora; inténtelo en ${Math.ceil(p.seconds / 60)} min.`,
  'email.pending': () => 'El correo se está enviando: espere a que se envíe o falle.',
  'waiting.timeout': (p) =>
    `${at(p)} no respondió a tiempo: se consulta su estado cada 10 minutos. «Consultar el estado ahora» lo consulta ya.`,
  'waiting.unqueried': (p) =>
    `${at(p)} ${p.origin === 'system' ? 'respondió, pero la respuesta no se pudo leer,' : p.origin === 'timeout' ? 'no respondió a tiempo' : 'no dio su veredicto'} y no ofrece consulta de estado para este documento: nadie lo consultará solo y ` +
    `puede que haya llegado, así que no se reenvía sin más. Verifique en el portal de ${at(p, true)}; si no está, ` +
    'la empresa lo envía de nuevo (reenvío por la API, el mismo XML firmado).',
  'waiting.ticket': (p) =>
    `${at(p)} lo recibió con un ticket y aún no da su veredicto (código 98): se consulta con esperas crecientes. «Consultar el estado ahora» lo consulta ya.`,
  'waiting.connection': (p) =>
    `Fallas de conexión: no se llegó a ${at(p, true)}; se reintenta con esperas crecientes. «Enviar de nuevo» lo reintenta ya.`,
  'waiting.not_received': (p) =>
    `${at(p)} no tiene registro de él (nunca lo recibió): se enviará de nuevo tras una breve espera. «Enviar de nuevo» lo envía ya.`,
  'waiting.unreadable': (p) =>
    `${at(p)} respondió, pero la respuesta no se pudo leer. «Consultar el estado ahora» pregunta por el estado real.`,
  'waiting.not_started': () =>
    'Se registró, pero su proceso de envío no empezó: el barrido lo inicia en menos de un minuto.',
  'waiting.sending': () => 'Se está enviando ahora (ningún intento terminó todavía).',
  'waiting.manual': () => 'Espera que la empresa lo envíe (modo de envío manual).',
  'waiting.summary': () => 'Espera el resumen diario (boleta informada por resumen).',
  'event.issued': () => 'emitido y firmado',
  'event.send': () => 'envío',
  'event.ticket': () => 'consulta del ticket',
  'event.query': () => 'consulta de estado',
  'event.verdict': () => 'veredicto',
  'event.delivery': () => 'entrega del webhook',
  'event.redelivery': () => 'nueva entrega del webhook',
  'event.delivery_attempt': (p) => `intento ${p.number} del webhook`,
  'detail.delivery_pruned': (p) => `El historial del webhook de más de ${p.days} días no se conserva.`,
  'event.email': () => 'correo al comprador',
  'event.support': (p) => `soporte: ${ACTION_ES[p.action] ?? p.action}`,
  // The first characters are enough to compare with the printed copy; the whole digest is in the XML.
  'detail.issued': (p) => `firmado, resumen ${p.hash.slice(0, 12)}…`,
  // The authority's own words and codes are Spanish; chasqui's technical ones (ETIMEDOUT, CDR_UNREADABLE) are named
  // by their origin instead (the CLI shows them).
  'detail.attempt': (p) =>
    `${originOf(p)}${p.own && p.code ? ` ${p.code}` : ''} → ${statusEs(p.status)}${p.own && p.message ? `: ${p.message}` : ''}`,
  // SUNAT's own words are Spanish, its code after them (0, accepted, says nothing more); chasqui's technical texts
  // and codes (timeouts, sockets) are named by their origin instead.
  'detail.result': (p) =>
    !p.origin || p.origin === 'tax_authority'
      ? `${p.message}${p.code && p.code !== '0' ? ` (código ${p.code})` : ''}`
      : originEs(p.origin),
  'detail.verdict': (p) => `${statusEs(p.status)}${p.code ? ` (código ${p.code})` : ''}`,
  'detail.delivery': (p) => `${DELIVERY_ES[p.status] ?? p.status}, ${times(p.attempts)}`,
  'detail.delivery_done': (p) => `entregado (HTTP ${p.http}, ${p.ms} ms)`,
  'detail.delivery_failed': (p) => `falló${p.http ? ` (HTTP ${p.http})` : ''}`,
  'detail.email': (p) => `${EMAIL_ES[p.status] ?? p.status}, a ${list(p.to)}, ${times(p.attempts)}`,
  // Records from before messages were stored carry English text only: the result is said, the text is not.
  'detail.support': (p, say) =>
    `por ${p.operator}: ${RESULT_ES[p.result] ?? p.result}${p.message ? ` — ${say(p.message)}` : ''}`,
  'check.certificate.not_yet': (p) =>
    `El certificado ${certificateEs(p.origin)} aún no es válido (lo será el ${dayEs(p.not_before)}): todavía no firma.`,
  'check.certificate.expired': (p) =>
    `El certificado ${certificateEs(p.origin)} venció el ${dayEs(p.not_after)}: no se puede emitir. ${renewEs(p.origin)}`,
  'check.certificate.expiring': (p) =>
    `El certificado ${certificateEs(p.origin)} vence en ${p.days} días (el ${dayEs(p.not_after)}). ${renewEs(p.origin)}`,
  'check.certificate.valid': (p) =>
    `El certificado ${certificateEs(p.origin)} es válido hasta el ${dayEs(p.not_after)} (${p.days} días).`,
  'check.certificate.external': () =>
    'La empresa firma sus documentos (firma externa): no usa un certificado del servicio.',
  'check.certificate.unavailable': () =>
    'El servicio no puede firmar ahora: su certificado de proveedor no está disponible. Avise al operador.',
  'check.credentials.unreachable': () =>
    'No se pudo consultar a SUNAT (sin conexión o sin respuesta); se vuelve a consultar en la próxima verificación.',
  'check.credentials.refused': (p) =>
    `SUNAT rechazó ${whoEs(p)} (código ${p.code}): ${p.message}. ${credentialsFixEs(p)}`,
  'check.credentials.accepted': (p) => `SUNAT aceptó ${whoEs(p)}.`,
  'check.credentials.no_sol': (p) =>
    `No hay credenciales SOL cargadas: nada puede enviarse a SUNAT. Cargue ${p.own ? 'el usuario SOL secundario (firma con certificado propio)' : 'el usuario y la clave SOL'}.`,
  'check.credentials.gre_needs_sol': () =>
    'El cliente de guías (GRE) necesita también el usuario SOL de la empresa: cárguelo.',
  'check.credentials.not_asked': () =>
    'Aún no consultado: una consulta a SUNAT por empresa y verificación; esta va en la próxima.',
  'check.series_gaps.none': (p) => `No faltan números en ninguna serie emitida desde el ${dayEs(p.since)}.`,
  'check.series_gaps.missing': (p) =>
    `Faltan ${p.missing} números en ${p.series} serie(s) desde el ${dayEs(p.since)} (${list(p.numbers)}${p.missing > 10 ? ', …' : ''}): pregunte al integrador por qué su sistema los saltó; SUNAT espera cada serie sin saltos.`,
  'check.sending_window.closed': (p) =>
    `${p.count} documento(s) sin veredicto pasaron el plazo de envío de ${p.days} días (${p.numbers}): SUNAT los rechaza (2108); emítalos de nuevo con la fecha de hoy.`,
  'check.sending_window.closing': (p) =>
    `A ${p.count} documento(s) sin veredicto se les cierra el plazo de envío en menos de 24 h (${p.numbers}): envíelos ya.`,
  'check.sending_window.open': () => 'Ningún documento sin veredicto tiene su plazo de envío por cerrarse en 24 h.',
  'check.rules.pass': (p) =>
    p.rules
      ? `Los documentos de los últimos ${p.days} días cumplen las ${p.rules} reglas que empiezan en ${p.horizon} días.`
      : `Ninguna regla de SUNAT empieza en los próximos ${p.horizon} días.`,
  'check.rules.would_fail': (p) =>
    `${p.failing.map((r) => `${r.would_fail} de ${r.checked} documentos fallarían una regla de SUNAT desde el ${dayEs(r.effective)} (código ${r.codes.join('/')})`).join('; ')}: el integrador debe ajustar sus envíos antes de esa fecha.`,
  'check.procedure.done': (p) => `${procedureEs(p)} está hecho en el portal de SUNAT.`,
  'check.procedure.failed': (p) =>
    `${procedureEs(p)} falló en el portal de SUNAT: cargue credenciales SOL válidas para reintentarlo.`,
  'check.procedure.pending': (p) =>
    `${procedureEs(p)} aún no está hecho: ${p.sol ? 'chasqui lo tramita en el portal y reintenta solo.' : 'necesita el usuario SOL principal; cárguelo.'}`,
  'check.email.chasqui': () => 'Sin servidor de correo propio: los correos a compradores salen por el del servicio.',
  'check.email.unusable': () =>
    'La configuración de correo (SMTP) de la empresa no sirve: sus compradores no reciben correos. Guárdela de nuevo.',
  'check.email.refused': (p) =>
    `El servidor de correo ${p.host} no es una dirección pública: no se usa. Guarde uno público.`,
  'check.email.public': (p) => `El servidor de correo ${p.host}:${p.port} es público.`,
};
