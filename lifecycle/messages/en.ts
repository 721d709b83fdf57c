/**
 * The lifecycle's words in English: the API's and `chasqui support`'s, whose wording is their contract with integrators
 * and scripts. One text per code of codes.ts.
 */
import { list, type Credentials, type Procedure, type Texts } from './codes';

const whoEn = (p: Credentials) => (p.client ? `GRE client ${p.client} with SOL user ${p.user}` : `SOL user ${p.user}`);
const credentialsFixEn = (p: Credentials) =>
  p.client
    ? `Load the client and secret of Menú SOL: PATCH /v1/companies/${p.ruc}/gre-credentials`
    : `Load the right ones: PATCH /v1/companies/${p.ruc}/sol-credentials`;
function renewEn(origin: string): string {
  if (origin === 'own') return 'upload the renewed PFX with POST /v1/companies/{ruc}/certificate';
  if (origin === 'service') return "renew the service's provider certificate (CHASQUI_PROVIDER_PFX)";
  return 'assign a renewed certificate: chasqui certificates assign --company RUC --pfx FILE --password PW';
}
const procedureEn = (p: Procedure) =>
  p.procedure === 'ose_link'
    ? `the link to the provider OSE (RUC ${p.provider})`
    : `the authorisation of the service as PSE (RUC ${p.provider})`;
const smtpFixEn = (ruc: string) =>
  `store it again with PATCH /v1/companies/${ruc}/email (smtp://user:password@host:port)`;

export const EN: Texts = {
  'action.would': (p) => `would ${p.action}`,
  'send.done': (p) => `Document ${p.filename} queued for sending`,
  'resend.done.api': (p) => `Document ${p.filename} will be sent again (same signed XML, no new signature, no quota)`,
  'resend.done': () => 'send requested (same signed XML, no quota)',
  'recheck.done': () => 'state query requested',
  'redeliver.done': (p) => `new delivery ${p.delivery}`,
  'email.would': (p) => `would e-mail ${p.filename} again to ${list(p.to)}`,
  'email.done': (p) => `The e-mail of ${p.filename} will be sent again to ${list(p.to)}`,
  'send.not_handed_over': () =>
    'The send could not be handed to the delivery service; the document still waits: retry POST /send',
  'send.not_manual': (p) =>
    `Document ${p.filename} is ${p.status}; only a document waiting in manual mode (to_send) can be sent`,
  'send.now': (p) => `Document ${p.filename} is ${p.status}`,
  'resend.resolved': (p) => `Document ${p.filename} is already ${p.status}; a resolved document is not sent again`,
  'resend.not_sent': (p) => `Document ${p.filename} has not been sent yet: use POST /v1/cpe/${p.id}/send`,
  'resend.by_summary': (p) => `Document ${p.filename} is reported by the daily summary, not sent on its own`,
  'resend.ticket': (p) => `Document ${p.filename} was received with ticket ${p.ticket}; its verdict is being polled`,
  'resend.sending': (p) => `Document ${p.filename} is being sent now; there is nothing to resend yet`,
  'resend.may_have_arrived': (p) => `it may have reached the authority (${p.origin}): recheck it instead`,
  'action.no_query': () =>
    "it may have reached the authority, and no state query reaches it: check the authority's portal; if it is not there, the integrator's POST /v1/cpe/{id}/resend sends it again",
  'recheck.resolved': (p) => `already ${p.status}`,
  'recheck.not_sent': (p, say) => `not sent yet (${say(p.waiting)})`,
  'recheck.not_reached': () => 'never reached the authority (connection failure): nothing to query; use resend',
  'recheck.sending': () => 'being sent now',
  'redeliver.no_webhook': () => 'No webhook is configured: PATCH /v1/companies/{ruc}/webhook first',
  'redeliver.pending': (p) =>
    `Delivery ${p.delivery} still has attempts pending (next at ${p.next ?? 'now'}); redeliver it once it has ended`,
  'redeliver.none': () => 'no webhook delivery (no webhook was configured when it resolved)',
  'redeliver.no_verdict': (p) => `no verdict yet (${p.status}): nothing to deliver`,
  'email.not_found': (p) => `No document ${p.id}`,
  'email.no_address': (p) =>
    `Document ${p.filename} names no buyer e-mail (cliente.correo): give the addresses in "to"`,
  'email.too_many': (p) => `At most ${p.max} addresses, got ${p.got}`,
  'email.bad_address': (p) => `"${p.address}" is not one e-mail address (name@domain)`,
  'email.not_accepted': (p) =>
    `Document ${p.filename} is ${p.status}: only an accepted document is e-mailed to the buyer`,
  'email.rate_limited': (p) =>
    `Document ${p.filename} was e-mailed again ${p.limit} times this hour; retry in ${p.seconds} s`,
  'email.pending': (p) => `The e-mail of ${p.filename} is being sent (pending); wait for it to be sent or to fail`,
  'waiting.timeout': () =>
    'timed out at the authority: waiting for reconciliation (state query every 10 min) — `recheck` queries now',
  'waiting.unqueried': (p) =>
    `${p.origin === 'system' ? 'the authority answered but the answer could not be read' : p.origin === 'timeout' ? 'timed out at the authority' : 'no verdict from the authority'}, which offers no state query for it: nothing queries it by itself and it may have ` +
    "arrived — check the authority's portal; if it is not there, the integrator's POST /v1/cpe/{id}/resend sends it again",
  'waiting.ticket': () =>
    'received with a ticket, verdict pending (code 98): polled with growing waits — `recheck` polls now',
  'waiting.connection': () =>
    'connection failures: the authority was not reached; retried with growing waits — `resend` retries now',
  'waiting.not_received': () =>
    'the authority has no record of it (never received): sent again after a short wait — `resend` sends now',
  'waiting.unreadable': () =>
    'the authority answered but the answer could not be processed: `recheck` queries the real state',
  'waiting.not_started': () => 'committed but its workflow never started: the sweeper starts it within a minute',
  'waiting.sending': () => 'being sent now (no attempt finished yet)',
  'waiting.manual': () => 'waiting for POST /v1/cpe/{id}/send (company in manual sending mode)',
  'waiting.summary': () => 'waiting for the daily summary (receipt in summary mode)',
  'event.issued': () => 'issued',
  'event.send': () => 'send attempt',
  'event.ticket': () => 'ticket poll',
  'event.query': () => 'state query',
  'event.verdict': () => 'verdict',
  'event.delivery': () => 'webhook delivery',
  'event.redelivery': () => 'webhook redelivery',
  'event.delivery_attempt': (p) => `  webhook attempt ${p.number}`,
  'detail.delivery_pruned': (p) => `webhook history older than ${p.days} days is not kept`,
  'event.email': () => 'buyer e-mail',
  'event.support': (p) => `support ${p.action}`,
  'detail.issued': (p) => `signed, hash ${p.hash}`,
  'detail.attempt': (p) => `${p.origin}${p.code ? ` ${p.code}` : ''} → ${p.status}${p.message ? `: ${p.message}` : ''}`,
  'detail.result': (p) => `${p.origin ?? 'verdict'}${p.code ? ` ${p.code}` : ''}: ${p.message}`,
  'detail.verdict': (p) => `${p.status}${p.code ? ` (code ${p.code})` : ''}`,
  'detail.delivery': (p) => `${p.delivery} ${p.status}, ${p.attempts} attempt(s)`,
  'detail.delivery_done': (p) => `delivered (HTTP ${p.http}, ${p.ms} ms)`,
  'detail.delivery_failed': (p) => `failed: ${p.error ?? `HTTP ${p.http}`}`,
  'detail.email': (p) => `${p.status} to ${list(p.to)}, ${p.attempts} attempt(s)${p.error ? `: ${p.error}` : ''}`,
  'detail.support': (p) => `by ${p.operator}: ${p.result}${p.detail ? ` — ${p.detail}` : ''}`,
  'check.certificate.not_yet': (p) =>
    `the ${p.origin} certificate is not valid before ${p.not_before}; nothing can be signed with it yet`,
  'check.certificate.expired': (p) =>
    `the ${p.origin} certificate expired on ${p.not_after}; issuing answers 402: ${renewEn(p.origin)}`,
  'check.certificate.expiring': (p) =>
    `the ${p.origin} certificate expires in ${p.days} days (${p.not_after}): ${renewEn(p.origin)}`,
  'check.certificate.valid': (p) => `the ${p.origin} certificate is valid until ${p.not_after} (${p.days} days)`,
  'check.certificate.external': () =>
    'the company signs its documents itself (signing external): no certificate of ours is used',
  'check.certificate.unavailable': (p) => p.reason,
  'check.credentials.unreachable': (p) => `SUNAT could not be asked (${p.code}: ${p.message}); asked again next run`,
  'check.credentials.refused': (p) => `SUNAT refused ${whoEn(p)}: [${p.code}] ${p.message}. ${credentialsFixEn(p)}`,
  'check.credentials.accepted': (p) =>
    p.client ? `SUNAT issued a token to ${whoEn(p)}` : `SUNAT accepted ${whoEn(p)}`,
  'check.credentials.no_sol': (p) =>
    `no SOL credentials are loaded, so nothing can be sent to SUNAT: PATCH /v1/companies/${p.ruc}/sol-credentials with ${
      p.own ? 'secondary_user and secondary_password (it signs with its own certificate)' : 'sol_user and sol_password'
    }`,
  'check.credentials.gre_needs_sol': (p) =>
    `the GRE client needs the company's SOL user too: PATCH /v1/companies/${p.ruc}/sol-credentials`,
  'check.credentials.not_asked': () => 'not asked yet: one SUNAT call per company and run, this one is asked next run',
  'check.series_gaps.none': (p) => `no numbers missing in any series issued since ${p.since}`,
  'check.series_gaps.missing': (p) =>
    `${p.missing} numbers missing in ${p.series} series since ${p.since} (${list(p.numbers)}${p.missing > 10 ? ', …' : ''}): ask the integrator why their system skipped them: SUNAT expects each series numbered without gaps`,
  'check.sending_window.closed': (p) =>
    `${p.count} documents without a verdict are past SUNAT's ${p.days}-day sending window (${p.numbers}): SUNAT refuses them (2108); issue them again with today's date`,
  'check.sending_window.closing': (p) =>
    `${p.count} documents without a verdict have their sending window closing within 24 h (${p.numbers}): send them now (POST /v1/cpe/{id}/send, or chasqui support resend)`,
  'check.sending_window.open': () => 'no document without a verdict has its sending window closing within 24 h',
  'check.rules.pass': (p) =>
    p.rules
      ? `the documents of the last ${p.days} days pass the ${p.rules} rules starting within ${p.horizon} days`
      : `no SUNAT rule starts within ${p.horizon} days`,
  'check.rules.would_fail': (p) =>
    `${p.failing.map((r) => `${r.would_fail} of ${r.checked} would fail ${r.rule} from ${r.effective} (SUNAT ${r.codes.join('/')})`).join('; ')}: the integrator changes its payloads before that date (the numbers and messages are in this check's rules[].examples)`,
  'check.procedure.done': (p) => `${procedureEn(p)} is done at SUNAT's portal`,
  'check.procedure.failed': (p) =>
    `${procedureEn(p)} failed: ${p.error ?? 'no reason recorded'}; load working SOL credentials (PATCH /v1/companies/${p.ruc}/sol-credentials) to retry`,
  'check.procedure.pending': (p) =>
    `${procedureEn(p)} is not done yet (${p.state}): ${p.sol ? 'chasqui runs it at the portal and retries by itself' : `it needs the principal SOL user: PATCH /v1/companies/${p.ruc}/sol-credentials`}`,
  'check.email.chasqui': () => "no own SMTP server: buyers' e-mails go through chasqui's",
  'check.email.unusable': (p) =>
    `the company's SMTP setting is not used, so its buyers get no e-mail: it ${p.reason}; ${smtpFixEn(p.ruc)}`,
  'check.email.refused': (p) => `the company's SMTP server ${p.reason}; ${smtpFixEn(p.ruc)}`,
  'check.email.public': (p) => `the company's SMTP server ${p.host}:${p.port} is a public host`,
};
