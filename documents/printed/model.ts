/**
 * What a printed representation shows, independent of paper size: a reader turns one signed XML into this, and the
 * A4 and ticket layouts draw any of it the same way. Every amount is the text of the signed XML (or a decimal sum of
 * such texts), never a float.
 */

export interface PrintedParty {
  /** Catalog 06 short name (`RUC`, `DNI`…) and number, when the document identifies the party. */
  idLabel: string | null;
  idNumber: string | null;
  name: string;
  tradeName?: string | null;
  address?: string | null;
}

/** A labelled value in the data block (dates, currency, references, transport data…). */
export interface Fact {
  label: string;
  value: string;
}

export interface Column {
  header: string;
  /** Share of the table width (A4). */
  width: number;
  align: 'left' | 'right' | 'center';
  /** Ticket: the column printed on its own line (`main`, the description) or joined into the detail line below it. */
  ticket: 'main' | 'detail' | 'hide';
}

export interface AmountRow {
  label: string;
  value: string;
  /** The final amount, printed bold. */
  strong?: boolean;
}

/** A titled block of facts under the totals (payment terms, detracción, percepción, related documents…). */
export interface Section {
  title: string;
  facts: Fact[];
  /** Free text lines printed after the facts. */
  notes?: string[];
}

/**
 * The QR: SUNAT's pipe-separated content for sales documents; for despatch guides the link SUNAT returns in the CDR,
 * or `pending` (no CDR yet: the guide says so instead of printing a QR).
 */
export type PrintedQr = { kind: 'content' | 'link'; text: string } | { kind: 'pending'; text: string };

export interface PrintedDocument {
  /** SUNAT's catalog 01 code (`01`, `03`, `07`, `08`, `09`, `31`, …). */
  docType: string;
  /** `REPRESENTACIÓN IMPRESA DE LA FACTURA ELECTRÓNICA`. */
  heading: string;
  /** `FACTURA ELECTRÓNICA` (the box beside the issuer). */
  title: string;
  /** `F001-245` as signed. */
  id: string;
  issuer: PrintedParty;
  /** The customer (sales) or recipient (guides), with the label the layout prints before it. */
  counterpart: { label: string; party: PrintedParty } | null;
  facts: Fact[];
  table: { columns: Column[]; rows: string[][] };
  amounts: AmountRow[];
  /** Legend 1000 (`SON … SOLES`), null for documents without an amount. */
  amountInWords: string | null;
  /** Other legends (catalog 52) as signed. */
  legends: string[];
  sections: Section[];
  /** DigestValue of the signature. */
  hash: string;
  qr: PrintedQr;
  /** Issue date, `YYYY-MM-DD`: the PDF's fixed creation date (the same document always gives the same bytes). */
  issueDate: string;
}
