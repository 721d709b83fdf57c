/** The retención and percepción model the XML builder reads (types only: xml/other.ts imports them without the rules). */
import type { Decimal } from '../decimal';
import type { OtherInput, OtherLine } from './schema';

/** One paid document as the XML states it; amounts of the retención/percepción in soles (zero for a credit note). */
export interface OtherLineAmounts {
  line: OtherLine;
  /** null for a credit note (07): listed without payment. */
  payment: { numero: number; fecha: string; importe: Decimal } | null;
  /** What was paid or collected, in soles (at the exchange rate when the document is in another currency). */
  soles: Decimal;
  /** The amount withheld (20) or collected on top (40). */
  amount: Decimal;
  /** Retención: what the supplier receives (soles − amount); percepción: what the customer pays (soles + amount). */
  net: Decimal;
}

export interface OtherDocument {
  input: OtherInput;
  id: string;
  number: number;
  percent: Decimal;
  lines: OtherLineAmounts[];
  /** Σ amounts (`cbc:TotalInvoiceAmount`). */
  total: Decimal;
  /** Σ nets (`sac:SUNATTotalPaid` / `sac:SUNATTotalCashed`). */
  totalNet: Decimal;
}
