/**
 * Domain rules of the dispatch guides that relate several fields (SUNAT's GRE XSLs 2.0.1). Each returns the
 * problems it finds; blocking ones become issues of the 422, observations become warnings. Foreign goods (motivo
 * 19) are checked in foreign-goods.ts.
 */
import { addDays, DEFAULT_CALENDAR, GRE_LOADING_DATE, ISSUE_DATE_LEAD_DAYS } from '../calendar';
import { UNIT_CODES } from '../catalogs/units';
import { issue, formatIssue, type ValidationIssue } from '../errors';
import type { PrepareOptions } from '../types';
import { RELATED_DOCUMENTS, TRANSPORT_MODES } from './catalogs';
import { checkForeignGoods } from './foreign-goods';
import type { DespatchPayload, Fail, Observe } from './types';

export interface RuleFindings {
  issues: ValidationIssue[];
  warnings: string[];
}

/** Reasons where the goods stay with the issuer (destinatario = remitente, 2554) and where they must not (2555). */
const RECIPIENT_IS_ISSUER = new Set(['02', '04', '07', '18']);
const RECIPIENT_IS_OTHER = new Set(['01', '03', '05', '06', '14', '17']);
/** Reasons whose start point is another company's (02 compra, 07 recojo, 08 importación): 3411. */
const OTHER_OWNS_START = new Set(['02', '07', '08']);

export function checkDespatch(d: DespatchPayload, options: PrepareOptions = {}): RuleFindings {
  const issues: ValidationIssue[] = [];
  const warnings: string[] = [];
  const fail = (
    code: string | null,
    message: string,
    path: string | null,
    source: 'SUNAT' | 'chasqui' = code && /^\d+$/.test(code) ? 'SUNAT' : 'chasqui',
  ) => issues.push(issue(source, code, message, path));
  const observe = (code: string, message: string) => warnings.push(formatIssue(issue('SUNAT', code, message)));
  const e = d.envio;
  const sender = d.tipoDoc === '09';

  if (options.issuerRuc && d.emisor.ruc !== options.issuerRuc) {
    fail(
      'BR_ISSUER_MISMATCH',
      `emisor.ruc ${d.emisor.ruc} is not the company of the token (${options.issuerRuc})`,
      'emisor.ruc',
    );
  }
  if (options.today && d.fechaEmision > addDays(options.today, ISSUE_DATE_LEAD_DAYS))
    fail(
      '2329',
      `fechaEmision ${d.fechaEmision} is more than ${ISSUE_DATE_LEAD_DAYS} days after today (${options.today})`,
      'fechaEmision',
    );
  if (e.fechaInicio < d.fechaEmision)
    fail('3343', 'envio.fechaInicio must be on or after fechaEmision', 'envio.fechaInicio');
  checkCargo(d, sender, fail);
  checkRelatedDocuments(d, sender, fail);

  const issuerIsRecipient = d.destinatario.tipoDoc === '6' && d.destinatario.numDoc === d.emisor.ruc;
  if (sender) {
    checkSenderGuide(d, fail, observe, issuerIsRecipient);
    checkLoadingDate(d, options, fail);
  } else {
    checkCarrierGuide(d, fail, observe);
  }
  checkDriversAndVehicles(d, sender, fail);
  return { issues, warnings };
}

/**
 * A port terminal's appointment (92) moves foreign goods the terminal already knows: the guide carries none of their
 * data (3625, 3629), every other guide does (2880, 2023).
 */
function checkCargo(d: DespatchPayload, sender: boolean, fail: Fail): void {
  const e = d.envio;
  const appointment = sender && d.documentosRelacionados.some((r) => r.tipo === '92');
  if (appointment) {
    if (e.pesoBruto !== undefined)
      fail(
        '3625',
        'envio.pesoBruto must not be given with an appointment (documentosRelacionados tipo 92)',
        'envio.pesoBruto',
      );
    if (e.bultos !== undefined)
      fail(
        '3626',
        'envio.bultos must not be given with an appointment (documentosRelacionados tipo 92)',
        'envio.bultos',
      );
    if (e.contenedores.length > 0)
      fail(
        '3627',
        'envio.contenedores must not be given with an appointment (documentosRelacionados tipo 92)',
        'envio.contenedores',
      );
    if (d.items.length > 0)
      fail(
        '3629',
        'items must be empty with an appointment (documentosRelacionados tipo 92): SUNAT takes the goods from it',
        'items',
      );
  } else {
    if (e.pesoBruto === undefined) fail('2880', "'envio.pesoBruto' (gross weight) is required", 'envio.pesoBruto');
    if (d.items.length === 0) fail('2023', "'items' must hold at least one line", 'items');
  }
}

/** Which related documents each guide may carry, who issued them, their numbers. */
function checkRelatedDocuments(d: DespatchPayload, sender: boolean, fail: Fail): void {
  for (const [i, r] of d.documentosRelacionados.entries()) {
    const known = RELATED_DOCUMENTS[r.tipo];
    if (!(sender ? known.gre09 : known.gre31)) {
      fail(
        '2692',
        `documentosRelacionados[${i}].tipo ${r.tipo} cannot accompany a ${sender ? 'GRE remitente' : 'GRE transportista'}`,
        `documentosRelacionados[${i}].tipo`,
      );
    } else if ((!sender || known.ownIssuerNotDefault) && known.issuer && !r.emisor) {
      fail(
        '3380',
        `documentosRelacionados[${i}].emisor (RUC of who issued the ${known.name}) is required`,
        `documentosRelacionados[${i}].emisor`,
      );
    } else if (known.pattern && !known.pattern.test(r.numero)) {
      fail(
        '3441',
        `documentosRelacionados[${i}].numero '${r.numero}' is not a valid number for a ${known.name}`,
        `documentosRelacionados[${i}].numero`,
      );
    }
  }
}

/** Both guides: who drives what, unless the goods go in an M1/L vehicle (no driver or plate required). */
function checkDriversAndVehicles(d: DespatchPayload, sender: boolean, fail: Fail): void {
  const e = d.envio;
  const privateOrCarrier = !sender || e.modalidad === TRANSPORT_MODES.private;
  if (privateOrCarrier && !e.vehiculoM1L) {
    if (e.conductores.length === 0)
      fail('3357', 'envio.conductores must name at least the main driver', 'envio.conductores');
    if (e.vehiculos.length === 0)
      fail('2566', 'envio.vehiculos must name at least the main vehicle (plate)', 'envio.vehiculos');
  }
  if (sender) {
    for (const [i, v] of e.vehiculos.entries()) {
      if (v.tuce)
        fail(
          '3452',
          `envio.vehiculos[${i}].tuce only applies to a GRE transportista (31)`,
          `envio.vehiculos[${i}].tuce`,
        );
    }
  }
  const licences = new Set<string>();
  for (const [i, c] of e.conductores.entries()) {
    if (licences.has(c.licencia))
      fail('3362', `envio.conductores[${i}] repeats a driver already listed`, `envio.conductores[${i}].licencia`);
    licences.add(c.licencia);
  }
}

function checkSenderGuide(d: DespatchPayload, fail: Fail, observe: Observe, issuerIsRecipient: boolean): void {
  const e = d.envio;
  if (!e.motivo) fail('3404', 'envio.motivo (reason for the transfer, catalog 20) is required', 'envio.motivo');
  if (!e.modalidad) fail('2532', 'envio.modalidad (01 public or 02 private transport) is required', 'envio.modalidad');
  if (e.motivo === '13' && !e.descripcionMotivo)
    fail('3457', 'envio.descripcionMotivo is required when motivo is 13 (other)', 'envio.descripcionMotivo');
  if (e.motivo && RECIPIENT_IS_ISSUER.has(e.motivo) && !issuerIsRecipient) {
    fail(
      '2554',
      `for motivo ${e.motivo} the destinatario must be the issuer itself (tipoDoc 6, numDoc ${d.emisor.ruc})`,
      'destinatario',
    );
  }
  if (e.motivo && RECIPIENT_IS_OTHER.has(e.motivo) && issuerIsRecipient) {
    fail('2555', `for motivo ${e.motivo} the destinatario cannot be the issuer`, 'destinatario');
  }
  if ((e.motivo === '06' || e.motivo === '17' || e.motivo === '19') && d.destinatario.tipoDoc !== '6') {
    fail(
      '3417',
      `for motivo ${e.motivo} the destinatario must be identified by RUC (tipoDoc 6)`,
      'destinatario.tipoDoc',
    );
  }
  if (e.motivo === '04') {
    for (const end of ['partida', 'llegada'] as const) {
      if (!e[end].codLocal)
        fail(
          '3365',
          `envio.${end}.codLocal and envio.${end}.ruc are required when moving goods between establishments (motivo 04)`,
          `envio.${end}.codLocal`,
        );
    }
  }
  if ((e.motivo === '02' || e.motivo === '07') && !d.proveedor)
    observe('4375', `motivo ${e.motivo} should name the proveedor`);
  if (e.motivo === '03' && !d.comprador)
    fail('4378', 'motivo 03 (sale delivered to a third party) needs the comprador', 'comprador');
  if (d.comprador && e.motivo !== '03' && e.motivo !== '13')
    fail('4377', `comprador only applies to motivo 03 or 13, not ${e.motivo}`, 'comprador');
  if (e.motivo !== '13') {
    // Catalog 03 is only an observation (4320) in a 09; reason 13 is checked against another catalog (65A).
    for (const [i, item] of d.items.entries()) {
      if (!UNIT_CODES.has(item.unidad))
        observe('4320', `items[${i}].unidad ${item.unidad} is not a unit code of catalog 03`);
    }
  }
  // 3411, as SUNAT's GRE remitente XSL writes it: for these reasons the establishment's owner (its ruc, written as
  // AddressTypeCode/@listID) is someone else, never the sender (sunat/rules/revisions.csv rows 4 and 5); the arrival
  // point's reasons are those whose recipient is another company (2555).
  for (const [end, reasons] of [
    ['partida', OTHER_OWNS_START],
    ['llegada', RECIPIENT_IS_OTHER],
  ] as const) {
    if (e.motivo && reasons.has(e.motivo) && e[end].ruc === d.emisor.ruc)
      fail(
        '3411',
        `envio.${end}.ruc must not be the sender's RUC (${d.emisor.ruc}) for motivo ${e.motivo}: that establishment belongs to another company`,
        `envio.${end}.ruc`,
      );
  }
  // An itinerant issuer carries its own goods and receipts with it: no establishment of arrival (3416).
  if (e.motivo === '18' && e.llegada.codLocal)
    fail('3416', 'envio.llegada.codLocal must not be given for motivo 18 (itinerant issuer)', 'envio.llegada.codLocal');
  checkForeignGoods(d, fail);
  if (d.remitente)
    fail(
      'BR_GRE_PARTY',
      'remitente only applies to a GRE transportista (31); in a 09 the issuer is the sender',
      'remitente',
    );
  if (d.pagadorFlete) fail('BR_GRE_PARTY', 'pagadorFlete only applies to a GRE transportista (31)', 'pagadorFlete');
  checkSenderTransport(d, fail, observe);
}

/** A sender's guide: public transport names its carrier, private transport its own drivers and vehicles. */
function checkSenderTransport(d: DespatchPayload, fail: Fail, observe: Observe): void {
  const e = d.envio;
  if (e.modalidad === TRANSPORT_MODES.public && !e.vehiculoM1L) {
    if (!e.transportista)
      fail(
        '2558',
        'envio.transportista (the carrier: ruc and razonSocial) is required for public transport (modalidad 01)',
        'envio.transportista',
      );
    else if (e.transportista.ruc === d.emisor.ruc)
      fail(
        '2560',
        'envio.transportista cannot be the issuer; use modalidad 02 for private transport',
        'envio.transportista.ruc',
      );
    else if (!e.transportista.registroMTC)
      observe('4391', "envio.transportista.registroMTC (the carrier's MTC registration) is missing");
  }
  // Public transport declares the carrier, not its drivers and vehicles; an M1/L vehicle declares no driver.
  if ((e.modalidad === TRANSPORT_MODES.public || e.vehiculoM1L) && e.conductores.length > 0) {
    fail(
      '3455',
      `envio.conductores must be empty for ${e.vehiculoM1L ? 'an M1/L vehicle (vehiculoM1L)' : 'public transport (modalidad 01)'}`,
      'envio.conductores',
    );
  }
  if (e.modalidad === TRANSPORT_MODES.public && !e.vehiculoM1L && e.vehiculos.length > 0) {
    fail(
      '3354',
      'envio.vehiculos must be empty for public transport (modalidad 01): the carrier declares its vehicles',
      'envio.vehiculos',
    );
  }
  if (e.modalidad === TRANSPORT_MODES.private && e.transportista) {
    fail('3347', 'envio.transportista must not be given for private transport (modalidad 02)', 'envio.transportista');
  }
}

/**
 * SUNAT's 2025 revision of the GRE remitente rules (in force for guides issued from `gre-loading-date`): a guide by
 * public transport says when the goods were handed to the carrier, not before the guide's issue date. Guides
 * issued earlier are judged by the 2024 rules, which did not know the date.
 */
function checkLoadingDate(d: DespatchPayload, options: PrepareOptions, fail: Fail): void {
  const e = d.envio;
  const calendar = options.calendar ?? DEFAULT_CALENDAR;
  const { id, answers } = GRE_LOADING_DATE;
  if (e.modalidad !== TRANSPORT_MODES.public || !calendar.inForce(id, d.fechaEmision)) return;
  const field = 'envio.fechaEntregaTransportista';
  if (!e.fechaEntregaTransportista) {
    const since = calendar.effective(id);
    fail(
      answers.missing.code,
      `${field} (date the goods are handed to the carrier) is required for public transport (modalidad 01) on guides issued from ${since}`,
      field,
    );
  } else if (e.fechaEntregaTransportista < d.fechaEmision) {
    fail(answers.early.code, `${field} ${e.fechaEntregaTransportista} is before fechaEmision ${d.fechaEmision}`, field);
  }
}

function checkCarrierGuide(d: DespatchPayload, fail: Fail, observe: Observe): void {
  const e = d.envio;
  if (!d.remitente) fail('3383', 'remitente (who sends the goods) is required in a GRE transportista', 'remitente');
  else if (d.remitente.tipoDoc === '6' && d.remitente.numDoc === d.emisor.ruc) {
    fail('2560', 'the remitente cannot be the carrier issuing the guide', 'remitente.numDoc');
  }
  for (const field of ['motivo', 'modalidad', 'transportista'] as const) {
    if (e[field] !== undefined)
      fail('BR_GRE_PARTY', `envio.${field} only applies to a GRE remitente (09)`, `envio.${field}`);
  }
  if (d.proveedor || d.comprador)
    fail(
      'BR_GRE_PARTY',
      'proveedor and comprador only apply to a GRE remitente (09)',
      d.proveedor ? 'proveedor' : 'comprador',
    );
  if (!d.emisor.registroMTC) observe('4391', "emisor.registroMTC (the carrier's MTC registration) is missing");
  if (!d.pagadorFlete) observe('4388', 'pagadorFlete (who pays the freight) is missing');
  for (const v of e.vehiculos) {
    if (!v.tuce) observe('4399', `vehicle ${v.placa} has no tuce (TUC or vehicle registration certificate)`);
  }
  if (d.documentosRelacionados.some((r) => r.tipo === '09')) {
    observe('4434', 'the goods are already detailed in the related GRE remitente; SUNAT observes the repeated lines');
  }
}
