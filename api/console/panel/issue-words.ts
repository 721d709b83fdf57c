import { sunatCode } from '../../../documents/sunat-codes';
import type { PlanRefusalReason } from '../../cpe/plan';
import type { FieldErrors } from './issue-form';

/**
 * The engine's problems and warnings in Spanish, beside the field they name. The engine words them in English for
 * the API; the page shows SUNAT's own catalog text for a SUNAT code and its own words for the rest, never English.
 */

/** chasqui's own rule codes a hand-made document meets, in Spanish; others get a general sentence with the code. */
const CHASQUI_RULES: Record<string, string> = {
  BR_TEXT_CHARACTERS: 'El texto tiene un carácter que no se puede emitir (un carácter de control).',
  BR_IGV_RATE_MIXED: 'Todas las líneas gravadas de un comprobante usan la misma tasa de IGV.',
};

/** SUNAT codes whose catalog text speaks of the XML where the form's user needs other words. */
const FORM_WORDS: Record<string, string> = {
  '2023': 'Escriba al menos una línea, con su descripción, cantidad y precio.',
};

const SOURCE_TAG = /^\[(SUNAT|chasqui|JSON) ([^\]]+)\]\s*/;

/** One problem of the engine (its code, or a `[SUNAT 3128] …` warning) in Spanish. */
export function issueWords(code: string | null, message = ''): string {
  const tagged = code ?? SOURCE_TAG.exec(message)?.[2] ?? null;
  if (tagged && FORM_WORDS[tagged]) return `${FORM_WORDS[tagged]} (código SUNAT ${tagged}).`;
  if (tagged && /^\d{4}$/.test(tagged)) {
    const text = sunatCode(tagged).text;
    // SUNAT's catalog names the XML element first ("CustomerAssignedAccountID - El dato…"): the field says which.
    if (text)
      return `${text
        .replace(/^\w+ - /, '')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/\.$/, '')} (código SUNAT ${tagged}).`;
    return `SUNAT no acepta este dato (código ${tagged}).`;
  }
  if (tagged && CHASQUI_RULES[tagged]) return CHASQUI_RULES[tagged];
  return tagged
    ? `Este dato no cumple una regla del comprobante (regla ${tagged}).`
    : 'Falta este dato o no tiene el formato esperado.';
}

/** The form field a payload path belongs to (`items[2].cantidad` → the form row of payload line 2). */
export function fieldOf(path: string | null, lineRows: number[]): string {
  if (!path) return 'general';
  const line = /^items\[(\d+)\]\.?(\w*)/.exec(path);
  if (line) {
    const row = lineRows[Number(line[1])] ?? 0;
    const part = line[2] === 'valorUnitario' ? 'precio' : line[2];
    return ['descripcion', 'cantidad', 'unidad', 'precio', 'afectacion', 'codigo'].includes(part)
      ? `l${row}_${part}`
      : `l${row}_descripcion`;
  }
  if (/^formaPago\.cuotas$/.test(path)) return 'cuotas';
  const cuota = /^formaPago\.cuotas\[(\d+)\]\.?(\w*)/.exec(path);
  if (cuota) return `c${cuota[1]}_${cuota[2] === 'fechaPago' ? 'fecha' : 'monto'}`;
  const exact: Array<[RegExp, string]> = [
    [/^serie/, 'serie'],
    [/^correlativo/, 'numero'],
    [/^fechaEmision/, 'fecha'],
    [/^tipoMoneda/, 'moneda'],
    [/^cliente\.tipoDoc/, 'cliente_tipo'],
    [/^cliente\.numDoc/, 'cliente_doc'],
    [/^cliente\.nombre/, 'cliente_nombre'],
    [/^cliente\.address/, 'cliente_direccion'],
    [/^cliente\.correo/, 'cliente_correo'],
    [/^cliente/, 'cliente_doc'],
    [/^documentoAfectado\.tipoDoc/, 'ref_tipo'],
    [/^documentoAfectado/, 'ref_numero'],
    [/^motivo\.descripcion/, 'motivo_texto'],
    [/^motivo/, 'motivo'],
    [/^formaPago/, 'pago'],
    [/^items/, 'l0_descripcion'],
  ];
  return exact.find(([re]) => re.test(path))?.[1] ?? 'general';
}

/** The engine's issues as Spanish problems by form field. */
export function issueErrors(
  issues: Array<{ code: string | null; path: string | null }>,
  lineRows: number[],
  into: FieldErrors = {},
): FieldErrors {
  for (const i of issues) {
    const words = issueWords(i.code);
    const list = (into[fieldOf(i.path, lineRows)] ??= []);
    if (!list.includes(words)) list.push(words);
  }
  return into;
}

/** A production issue the plan refuses (402), by its reason. */
export const PLAN_REFUSALS: Record<PlanRefusalReason, string> = {
  signatures: 'Su cuenta no tiene firmas disponibles: recargue su saldo para emitir en producción. No se firmó nada.',
  ose_package: 'Su paquete de envíos al OSE se agotó: recárguelo para emitir en producción. No se firmó nada.',
  no_certificate: 'La empresa está en el plan 02 y no tiene un certificado asignado. No se firmó nada.',
  certificate_expired: 'El certificado de la empresa está vencido: renuévelo para emitir. No se firmó nada.',
};
