/**
 * Every SUNAT return code, and what chasqui does with it: the one catalog the classifier (authority/classify.ts),
 * the company checks, the validator, the simulator and docs/authority.md ("SUNAT codes chasqui handles by name") read.
 *
 * - number and text: sunat/codes/return-codes.csv, SUNAT's error catalog (CatalogoErrores.xml of its validation
 *   package, and of July 2026 for the GRE codes) with greenter's CodeErrors.xml for the codes SUNAT's copy lacks;
 *   where each file came from is sunat/SOURCES.md. `ANSWERED` below: the few texts SUNAT's services answer that
 *   the catalog file words otherwise or does not carry yet.
 * - kind: SUNAT's ranges (0 accepted, up to 1999 exception, 2000–3999 rejection, 4000+ observation).
 * - what chasqui does: `HANDLED` below for the codes handled by name, else what the kind says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RULES } from './calendar/rules';
import { csvFields } from './csv';

export type CodeKind = 'accepted' | 'exception' | 'rejection' | 'observation';

/**
 * What chasqui does with an answer carrying the code: `accept`, `observe` (accepted with observations), `reject`
 * (fix the payload, issue again), `retry` (SUNAT took nothing: send again later), `query` (SUNAT may hold the
 * document: ask its real state), `credentials` (a rejection naming the SOL user: the company's check flags its
 * credentials), `send` (a status query SUNAT answered "not found": never received, sending is safe).
 */
export type CodeAction = 'accept' | 'observe' | 'reject' | 'retry' | 'query' | 'credentials' | 'send';

/** The actions only a code's name decides (the others follow from its kind). */
export type HandledAction = Exclude<CodeAction, 'accept' | 'observe' | 'reject'>;

export interface SunatCode {
  code: string;
  kind: CodeKind;
  does: CodeAction;
  /** SUNAT's catalog text (return-codes.csv); null for a code the catalog file does not carry. */
  text: string | null;
  /** What SUNAT's services answer with it: `ANSWERED`, else the catalog text. */
  answer: string | null;
}

const HANDLED: Record<string, { does: HandledAction; why: string }> = {
  ...Object.fromEntries(
    ['0100', '0109', '0130', '0131', '0132', '0133', '0134', '0135', '0136', '0137', '0138', '0200'].map((code) => [
      code,
      { does: 'retry', why: 'SUNAT could not take the request: nothing was registered' },
    ]),
  ),
  '1032': { does: 'query', why: 'already reported and voided or rejected' },
  '1033': { does: 'query', why: 'registered earlier (with other data)' },
  '2109': { does: 'query', why: "1033's rejection twin" },
  '2223': { does: 'query', why: 'file already presented' },
  '2324': { does: 'query', why: 'voided-documents file already presented' },
  '0101': { does: 'credentials', why: 'no or bad WS-Security header' },
  '0102': { does: 'credentials', why: 'wrong SOL user or password' },
  '0103': { does: 'credentials', why: 'the SOL user does not exist' },
  '0104': { does: 'credentials', why: 'wrong SOL password' },
  '0111': { does: 'credentials', why: 'the SOL user may not send electronic documents' },
  '0011': { does: 'send', why: 'getStatusCdr: not found' },
  '0127': { does: 'send', why: 'getStatus: the ticket does not exist' },
};

/**
 * Texts SUNAT's services answer that return-codes.csv words otherwise or lacks; a dated rule's code without a catalog
 * text carries its own (documents/calendar/rules/).
 */
const ANSWERED: Record<string, string> = {
  ...Object.fromEntries(
    RULES.flatMap((rule) => Object.values(rule.answers)).flatMap((a) => (a.text ? [[a.code, a.text]] : [])),
  ),
  // billConsultService getStatusCdr's answer with the CDR (thegreenter/demo#28); the catalog's 0004 is an input error.
  '0004': 'La constancia existe',
  // The catalog file writes "contrasena"; chasqui's simulator has always answered with the ñ.
  '0102': 'Usuario o contraseña incorrectos',
};

/**
 * billConsultService getStatus's validity answers (docs/authority.md, "validity": PROTOCOL.md §2, assumed). The catalog
 * gives these numbers other meanings (its input errors of the consult service), so they are this service's alone:
 * only the simulator answers them, chasqui never asks.
 */
export const VALIDITY_ANSWERS = {
  accepted: { code: '0001', text: 'El comprobante existe y está aceptado' },
  rejected: { code: '0002', text: 'El comprobante existe pero está rechazado' },
  voided: { code: '0003', text: 'El comprobante existe pero está de baja' },
} as const;

let catalogTexts: Map<string, string> | null = null;

/** return-codes.csv's texts by code, read once. */
function texts(): Map<string, string> {
  if (!catalogTexts) {
    catalogTexts = new Map();
    const csv = fs.readFileSync(path.resolve(__dirname, '../sunat/codes/return-codes.csv'), 'utf8');
    for (const line of csv.split('\n').slice(1)) {
      const [code, , description] = csvFields(line);
      if (code && description) catalogTexts.set(code, description);
    }
  }
  return catalogTexts;
}

/** SUNAT's ranges. A code that is not a number (a GRE or OSE error name) is a refusal, never an acceptance. */
export function codeKind(code: string): CodeKind {
  if (!/^\d+$/.test(code)) return 'rejection';
  const n = Number(code);
  if (n === 0) return 'accepted';
  if (n < 2000) return 'exception';
  if (n < 4000) return 'rejection';
  return 'observation';
}

const BY_KIND: Record<CodeKind, CodeAction> = {
  accepted: 'accept',
  exception: 'reject',
  rejection: 'reject',
  observation: 'observe',
};

/** Whether a code of this kind leaves the document valid: accepted, or accepted with observations. */
export function acceptsDocument(kind: CodeKind): boolean {
  return BY_KIND[kind] !== 'reject';
}

/** One code as the catalog knows it; `code` as SUNAT writes it ("0", "0111", "2335"). */
export function sunatCode(code: string): SunatCode {
  const kind = codeKind(code);
  const text = texts().get(code) ?? null;
  return { code, kind, does: HANDLED[code]?.does ?? BY_KIND[kind], text, answer: ANSWERED[code] ?? text };
}

/** The codes chasqui handles by name with `does`, e.g. `codesDoing('credentials')` for the company checks. */
export function codesDoing(does: HandledAction): string[] {
  return Object.keys(HANDLED)
    .filter((code) => HANDLED[code].does === does)
    .sort();
}

/** Why a code is handled by name (docs/authority.md's table). */
export function handledWhy(code: string): string | null {
  return HANDLED[code]?.why ?? null;
}
