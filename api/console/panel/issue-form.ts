import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import type { CompanyRow } from '../../../db/companies';
import { UNIT_CODES } from '../../../documents/catalogs/units';
import { lineTaxRate } from '../../../documents/tax/rates';
import type { IgvAffectation } from '../../../documents/sales/types';

/**
 * The issue form of the panel (docs/panel.md, "Emitir"): its fields read from a POST, bounded and checked one by one,
 * and the JSON document `POST /v1/cpe` takes built from them. Everything here is the visitor's: hostile until read.
 */
export const SALE_TYPES = {
  '01': 'Factura',
  '03': 'Boleta',
  '07': 'Nota de crédito',
  '08': 'Nota de débito',
} as const;
export type SaleType = keyof typeof SALE_TYPES;
export const isSaleType = (t: unknown): t is SaleType => typeof t === 'string' && Object.hasOwn(SALE_TYPES, t);

/** The line rows a new form shows; "Añadir línea" adds one more, up to MAX_FORM_LINES. */
export const FIRST_LINES = 3;
export const MAX_FORM_LINES = 30;
/** Instalment rows shown for a credit sale. */
export const INSTALMENT_ROWS = 3;

export const CUSTOMER_TYPES = { '6': 'RUC', '1': 'DNI', '-': 'Sin documento' } as const;
export const CURRENCIES = { PEN: 'Soles (PEN)', USD: 'Dólares (USD)' } as const;
/** Catalog 07, the affectations a hand-made sale uses. */
export const AFFECTATIONS = {
  '10': 'Gravado (IGV)',
  '17': 'IVAP (4 %)',
  '20': 'Exonerado',
  '30': 'Inafecto',
} as const;
export const UNITS = { NIU: 'Unidad', ZZ: 'Servicio', KGM: 'Kilogramo', MTR: 'Metro', LTR: 'Litro' } as const;
/** Catalog 09 (credit notes) and 10 (debit notes), the reasons a hand-made note uses. */
export const NOTE_REASONS: Record<'07' | '08', Record<string, string>> = {
  '07': {
    '01': 'Anulación de la operación',
    '02': 'Anulación por error en el RUC',
    '03': 'Corrección por error en la descripción',
    '04': 'Descuento global',
    '05': 'Descuento por ítem',
    '06': 'Devolución total',
    '07': 'Devolución por ítem',
    '09': 'Disminución en el valor',
  },
  '08': { '01': 'Intereses por mora', '02': 'Aumento en el valor', '03': 'Penalidades u otros conceptos' },
};

export interface FormLine {
  descripcion: string;
  cantidad: string;
  unidad: string;
  precio: string;
  afectacion: string;
  codigo: string;
}

export interface IssueForm {
  tipo: SaleType;
  idem: string;
  serie: string;
  numero: string;
  fecha: string;
  moneda: string;
  /** `valor`: unit values without IGV; `precio`: unit prices with IGV. */
  precios: 'valor' | 'precio';
  /** `especial`: the taxed lines carry the special rate of the date (MYPE restaurants and hotels on its register). */
  tasa: 'general' | 'especial';
  clienteTipo: string;
  clienteDoc: string;
  clienteNombre: string;
  clienteDireccion: string;
  clienteCorreo: string;
  pago: 'Contado' | 'Credito';
  cuotas: { monto: string; fecha: string }[];
  refTipo: string;
  refNumero: string;
  motivo: string;
  motivoTexto: string;
  lines: FormLine[];
}

/** Problems by form field name (`general` for the whole document), each in Spanish. */
export type FieldErrors = Record<string, string[]>;

const emptyLine = (): FormLine => ({
  descripcion: '',
  cantidad: '',
  unidad: 'NIU',
  precio: '',
  afectacion: '10',
  codigo: '',
});

/** A new form: today's date, the proposed series and number, empty lines, a fresh idempotency key. */
export function newForm(tipo: SaleType, today: string, series: string, number: number): IssueForm {
  return {
    tipo,
    idem: randomUUID(),
    serie: series,
    numero: String(number),
    fecha: today,
    moneda: 'PEN',
    precios: 'precio',
    tasa: 'general',
    clienteTipo: tipo === '03' ? '1' : '6',
    clienteDoc: '',
    clienteNombre: '',
    clienteDireccion: '',
    clienteCorreo: '',
    pago: 'Contado',
    cuotas: Array.from({ length: INSTALMENT_ROWS }, () => ({ monto: '', fecha: '' })),
    refTipo: '01',
    refNumero: '',
    motivo: '01',
    motivoTexto: '',
    lines: Array.from({ length: FIRST_LINES }, emptyLine),
  };
}

/** Reads a POSTed form: each value bounded (too long is an error on its field), each choice one of its list. */
export function readForm(tipo: SaleType, form: URLSearchParams): { form: IssueForm; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const text = (name: string, max: number): string => {
    const value = (form.get(name) ?? '').trim();
    if (value.length <= max) return value;
    (errors[name] ??= []).push(`Tiene más de ${max} caracteres.`);
    return value.slice(0, max);
  };
  const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = form.get(name);
    if (value === null || value === '') return fallback;
    if (allowed.includes(value as T)) return value as T;
    (errors[name] ??= []).push('Elija una de las opciones de la lista.');
    return fallback;
  };
  const count = Math.min(MAX_FORM_LINES, Math.max(1, Number.parseInt(form.get('lineas') ?? '', 10) || FIRST_LINES));
  const lines = Array.from({ length: count }, (_, i) => ({
    descripcion: text(`l${i}_descripcion`, 500),
    cantidad: text(`l${i}_cantidad`, 20),
    unidad: choice(`l${i}_unidad`, [...UNIT_CODES], 'NIU'),
    precio: text(`l${i}_precio`, 20),
    afectacion: choice(`l${i}_afectacion`, Object.keys(AFFECTATIONS), '10'),
    codigo: text(`l${i}_codigo`, 30),
  }));
  const idem = text('idem', 36);
  const pago = choice('pago', ['Contado', 'Credito'], 'Contado');
  const cuotas = Array.from({ length: INSTALMENT_ROWS }, (_, i) => {
    const cuota = { monto: text(`c${i}_monto`, 20), fecha: text(`c${i}_fecha`, 10) };
    // Half an instalment is the visitor's slip, named beside the half missing (the engine would blame the payment).
    if (pago === 'Credito' && cuota.monto && !cuota.fecha)
      (errors[`c${i}_fecha`] ??= []).push('Falta su fecha de pago.');
    if (pago === 'Credito' && cuota.fecha && !cuota.monto) (errors[`c${i}_monto`] ??= []).push('Falta su monto.');
    return cuota;
  });
  return {
    form: {
      tipo,
      idem: /^[0-9a-f-]{36}$/.test(idem) ? idem : randomUUID(),
      serie: text('serie', 4).toUpperCase(),
      numero: text('numero', 8),
      fecha: text('fecha', 10),
      moneda: choice('moneda', Object.keys(CURRENCIES), 'PEN'),
      precios: choice('precios', ['valor', 'precio'], 'precio'),
      tasa: choice('tasa', ['general', 'especial'], 'general'),
      clienteTipo: choice('cliente_tipo', Object.keys(CUSTOMER_TYPES), tipo === '03' ? '1' : '6'),
      clienteDoc: text('cliente_doc', 15),
      clienteNombre: text('cliente_nombre', 1500),
      clienteDireccion: text('cliente_direccion', 200),
      clienteCorreo: text('cliente_correo', 254),
      pago,
      cuotas,
      refTipo: choice('ref_tipo', ['01', '03'], '01'),
      refNumero: text('ref_numero', 13).toUpperCase(),
      motivo: choice('motivo', tipo === '07' || tipo === '08' ? Object.keys(NOTE_REASONS[tipo]) : ['01'], '01'),
      motivoTexto: text('motivo_texto', 250),
      lines,
    },
    errors,
  };
}

/** One more empty line row, up to the bound. */
export function withOneMoreLine(form: IssueForm): IssueForm {
  return form.lines.length >= MAX_FORM_LINES ? form : { ...form, lines: [...form.lines, emptyLine()] };
}

const isBlank = (l: FormLine) => !l.descripcion && !l.cantidad && !l.precio && !l.codigo;

/** The percent a taxed line carries when the form chose the special rate and the date has one, else none (18). */
const linePercent = (form: IssueForm, line: FormLine, special: number | null): number | undefined =>
  line.afectacion === '10' && form.tasa === 'especial' && special !== null ? special : undefined;

/**
 * A unit value without IGV from what the line says: a price with IGV (or IVAP) divided by 1 + the line's rate, the
 * engine's own (lineTaxRate), to the 10 decimals SUNAT's valor unitario holds. A number the engine judges is passed
 * through as typed.
 */
function unitValue(form: IssueForm, line: FormLine, special: number | null): string {
  const typed = line.precio.replace(',', '.');
  if (form.precios === 'valor') return typed;
  const rate = lineTaxRate(line.afectacion as IgvAffectation, linePercent(form, line, special));
  try {
    return new Decimal(typed).div(new Decimal(rate).div(100).plus(1)).toDecimalPlaces(10).toFixed();
  } catch {
    return typed;
  }
}

/** What the typed prices with IGV add up to (quantity × price), or null for values without IGV or a number unread. */
export function typedTotal(form: IssueForm): Decimal | null {
  if (form.precios !== 'precio') return null;
  try {
    return form.lines
      .filter((l) => !isBlank(l))
      .reduce(
        (sum, l) => sum.plus(new Decimal(l.cantidad.replace(',', '.')).times(l.precio.replace(',', '.'))),
        new Decimal(0),
      );
  } catch {
    return null;
  }
}

export interface BuiltDocument {
  payload: Record<string, unknown>;
  /** The form row of each payload line (empty rows are left out): where a line's problem is shown. */
  lineRows: number[];
}

/**
 * The JSON document `POST /v1/cpe` takes, built from the form for the company (the engine judges it); `special` is
 * the special IGV rate the company may use on the form's date (null when none).
 */
export function toPayload(form: IssueForm, company: CompanyRow, special: number | null): BuiltDocument {
  const lineRows = form.lines.flatMap((l, i) => (isBlank(l) ? [] : [i]));
  const note = form.tipo === '07' || form.tipo === '08';
  const credit = form.pago === 'Credito' && !note;
  const cuotas = form.cuotas.filter((c) => c.monto || c.fecha).map((c) => ({ monto: c.monto, fechaPago: c.fecha }));
  const payload: Record<string, unknown> = {
    tipoDoc: form.tipo,
    serie: form.serie,
    correlativo: form.numero,
    fechaEmision: form.fecha,
    tipoMoneda: form.moneda,
    emisor: { ruc: company.ruc, razonSocial: company.business_name },
    cliente: {
      tipoDoc: form.clienteTipo,
      ...(form.clienteTipo === '-' ? {} : { numDoc: form.clienteDoc }),
      nombre: form.clienteNombre || (form.clienteTipo === '-' ? 'Clientes varios' : ''),
      ...(form.clienteDireccion ? { address: { direccion: form.clienteDireccion } } : {}),
      ...(form.clienteCorreo ? { correo: form.clienteCorreo } : {}),
    },
    items: lineRows.map((i) => {
      const l = form.lines[i];
      const percent = linePercent(form, l, special);
      return {
        ...(l.codigo ? { codigo: l.codigo } : {}),
        descripcion: l.descripcion,
        cantidad: l.cantidad.replace(',', '.'),
        unidad: l.unidad,
        valorUnitario: unitValue(form, l, special),
        afectacionIgv: l.afectacion,
        ...(percent === undefined ? {} : { porcentajeIgv: percent }),
      };
    }),
  };
  if (form.tipo === '01') payload.formaPago = credit ? { tipo: 'Credito', cuotas } : 'Contado';
  if (form.tipo === '07' || form.tipo === '08') {
    payload.documentoAfectado = { tipoDoc: form.refTipo, serieNumero: form.refNumero };
    payload.motivo = { codigo: form.motivo, descripcion: form.motivoTexto || NOTE_REASONS[form.tipo][form.motivo] };
  }
  return { payload, lineRows };
}
