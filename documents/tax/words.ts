/** Legend 1000: the payable amount in Spanish words, as SUNAT documents print it ("SON CIENTO DIECIOCHO CON 00/100 SOLES"). */
import type { Decimal } from '../decimal';

const UNITS = [
  '',
  'UNO',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIUNO',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

/** 0–999; `apocope` turns a final UNO into UN before a noun (UN MIL is not said, but VEINTIÚN MIL and UN MILLÓN are). */
function belowThousand(n: number, apocope: boolean): string {
  if (n === 100) return 'CIEN';
  const words: string[] = [];
  const h = Math.floor(n / 100);
  const rest = n % 100;
  if (h) words.push(HUNDREDS[h]);
  if (rest > 0 && rest < 30) {
    let w = UNITS[rest];
    if (apocope && rest === 1) w = 'UN';
    else if (apocope && rest === 21) w = 'VEINTIÚN';
    words.push(w);
  } else if (rest >= 30) {
    const t = Math.floor(rest / 10);
    const u = rest % 10;
    words.push(TENS[t]);
    if (u) words.push('Y', apocope && u === 1 ? 'UN' : UNITS[u]);
  }
  return words.join(' ');
}

/** A non-negative integer below 10^15 in Spanish words ("CERO" for 0). */
export function integerInWords(n: number): string {
  if (n === 0) return 'CERO';
  const parts: string[] = [];
  const millions = Math.floor(n / 1_000_000);
  const thousands = Math.floor((n % 1_000_000) / 1000);
  const units = n % 1000;
  if (millions) {
    const words = millions < 1000 ? belowThousand(millions, true) : integerInWords(millions).replace(/UNO$/, 'UN');
    parts.push(millions === 1 ? 'UN MILLÓN' : `${words} MILLONES`);
  }
  if (thousands) parts.push(thousands === 1 ? 'MIL' : `${belowThousand(thousands, true)} MIL`);
  if (units) parts.push(belowThousand(units, false));
  return parts.join(' ');
}

const CURRENCY_NAMES: Record<string, string> = { PEN: 'SOLES', USD: 'DÓLARES AMERICANOS' };

/** `SON CIENTO DIECIOCHO CON 00/100 SOLES` for 118.00 PEN. */
export function amountInWords(amount: Decimal, currency: string): string {
  const fixed = amount.toDecimalPlaces(2).toFixed(2);
  const [whole, cents] = fixed.split('.');
  return `SON ${integerInWords(Number(whole))} CON ${cents}/100 ${CURRENCY_NAMES[currency] ?? currency}`;
}
