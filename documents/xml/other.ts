/**
 * Comprobante de retención (20) and de percepción (40): UBL 2.0 Retention-1 / Perception-1 as SUNAT's schemas order
 * them. The two differ only in their names (Retention/Paid against Perception/Cashed) and the party they address.
 */
import { el, preAttrs, type Xml } from './canonical';
import { amount, partyIdentification, rootNamespaces, SIGNATURE_PLACEHOLDER, signatureBlock } from './ubl';
import { money, unitValue } from '../decimal';
import type { OtherDocument, OtherLineAmounts } from '../other/types';
import type { Issuer } from '../input/parties';

const NAMES = {
  '20': {
    root: 'Retention',
    ns: 'urn:sunat:names:specification:ubl:peru:schema:xsd:Retention-1',
    kind: 'Retention',
    net: 'Paid',
  },
  '40': {
    root: 'Perception',
    ns: 'urn:sunat:names:specification:ubl:peru:schema:xsd:Perception-1',
    kind: 'Perception',
    net: 'Cashed',
  },
} as const;

const PEN = preAttrs({ currencyID: 'PEN' });
const soles = (name: string, value: Parameters<typeof money>[0]) => el(name, PEN, money(value));

function party(name: string, docType: string, number: string, legalName: string, tradeName?: string): Xml {
  return el(
    name,
    partyIdentification(docType, number),
    tradeName ? el('cac:PartyName', el('cbc:Name', tradeName)) : null,
    el('cac:PartyLegalEntity', el('cbc:RegistrationName', legalName)),
  );
}

function issuer(e: Issuer): Xml {
  return party('cac:AgentParty', '6', e.ruc, e.razonSocial, e.nombreComercial);
}

function reference(l: OtherLineAmounts, kind: 'Retention' | 'Perception', net: 'Paid' | 'Cashed'): Xml {
  const d = l.line.documento;
  const rate = l.line.tipoCambio;
  return el(
    `sac:SUNAT${kind}DocumentReference`,
    el('cbc:ID', { schemeID: d.tipoDoc }, d.serieNumero),
    el('cbc:IssueDate', d.fechaEmision),
    amount('cbc:TotalInvoiceAmount', d.importeTotal, d.tipoMoneda),
    // A credit note (07) is listed without payment nor retención/percepción (optional in the schema; SUNAT's XSL
    // checks them on every other type).
    l.payment
      ? el(
          'cac:Payment',
          el('cbc:ID', String(l.payment.numero)),
          amount('cbc:PaidAmount', l.payment.importe, d.tipoMoneda),
          el('cbc:PaidDate', l.payment.fecha),
        )
      : null,
    l.payment &&
      el(
        `sac:SUNAT${kind}Information`,
        soles(`sac:SUNAT${kind}Amount`, l.amount),
        el(`sac:SUNAT${kind}Date`, l.payment.fecha),
        soles(`sac:SUNATNetTotal${net}`, l.net),
        d.tipoMoneda !== 'PEN' && rate
          ? el(
              'cac:ExchangeRate',
              el('cbc:SourceCurrencyCode', d.tipoMoneda),
              el('cbc:TargetCurrencyCode', 'PEN'),
              el('cbc:CalculationRate', unitValue(rate.factor, 6)),
              el('cbc:Date', rate.fecha),
            )
          : null,
      ),
  );
}

export function buildOtherXml(doc: OtherDocument): string {
  const d = doc.input;
  const n = NAMES[d.tipoDoc];
  const counterpart = d.tipoDoc === '20' ? d.proveedor! : d.cliente!;
  return el(
    n.root,
    rootNamespaces(n.ns),
    // Unlike the other documents, these schemas put cac:Signature before cbc:ID.
    SIGNATURE_PLACEHOLDER,
    el('cbc:UBLVersionID', '2.0'),
    el('cbc:CustomizationID', '1.0'),
    signatureBlock(d.emisor),
    el('cbc:ID', doc.id),
    el('cbc:IssueDate', d.fechaEmision),
    d.horaEmision ? el('cbc:IssueTime', d.horaEmision) : null,
    issuer(d.emisor),
    party('cac:ReceiverParty', counterpart.tipoDoc, counterpart.numDoc, counterpart.nombre),
    el(`sac:SUNAT${n.kind}SystemCode`, d.regimen),
    el(`sac:SUNAT${n.kind}Percent`, unitValue(doc.percent, 2)),
    d.observacion ? el('cbc:Note', d.observacion) : null,
    soles('cbc:TotalInvoiceAmount', doc.total),
    soles(`sac:SUNATTotal${n.net}`, doc.totalNet),
    doc.lines.map((l) => reference(l, n.kind, n.net)),
  ).s;
}
