/**
 * chasqui's validator: what SUNAT checks on a received document that can be checked offline — the XSD, SUNAT's own
 * validation rules (its XSL, with the codes its CDR would carry, and its rules dated since, judged on the document's
 * issue date: dated-rules.ts) and the XMLDSig signature — for documents chasqui
 * built or an integrator signed. Pure of chasqui: the CLI (`chasqui validate`), the simulator and the tests call it;
 * the document builders never do. docs/validator.md tells how it works and how it compares with SUNAT's kit.
 */
import { DEFAULT_CALENDAR, type RuleCalendar } from '../documents/calendar';
import { datedRuleFailures, type DatedRuleFailure } from './dated-rules';
import { describeDocument, NotXmlError, type DocumentFacts } from './detect';
import { compiledRules, prepareRules, RULE_FILES, runRules, type PreparedRules } from './rules';
import { verifySignature } from './signature';
import { stripEmptyExtensions, validateAgainstSchema } from './xsd';
import { isValidVerdict } from '../lifecycle/transitions';

export { RULE_FILES } from './rules';

export interface ValidatorOptions {
  /** Where the adapted XSL and its compiled form are kept (outside the clone; made on first use). */
  cacheDir: string;
  /** Steps to skip. */
  skip?: { xsd?: boolean; xsl?: boolean; sig?: boolean };
  /** A document without ds:Signature fails. */
  requireSignature?: boolean;
  /** Always derive nombreArchivoEnviado from the content (RUC-TT-ID.xml), even when the file name has SUNAT's form. */
  nameFromContent?: boolean;
  /** SUNAT's dated rules, with the operator's CHASQUI_RULE_DATES applied; SUNAT's own dates when absent. */
  calendar?: RuleCalendar;
  /** Told before a rule set is compiled (tens of seconds, once per SUNAT release). */
  onCompile?: (type: string, file: string) => void;
  /** Told after each document's XSL step (the longest), for progress on big batches. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * One document's verdict. The field names are those of SUNAT's kit (`cpe-validate --json`), so a script written for
 * one reads the other.
 */
export interface ValidationReport {
  file: string;
  type: string | null;
  root: string | null;
  schema: string | null;
  xsl_file: string | null;
  nombreArchivoEnviado: string | null;
  name_source: DocumentFacts['nameSource'] | null;
  has_signature: boolean;
  xsd: 'ok' | 'fail' | 'n/a' | 'skip';
  xsd_note: string | null;
  xsd_errors: string[];
  xsl: 'accepted' | 'observed' | 'rejected' | 'error' | 'n/a' | 'skip';
  rejection: string | null;
  rejection_message: string | null;
  observations: string[];
  observation_messages: string[];
  xsl_errors: string[];
  /** SUNAT's rules dated after the June 2024 XSL (documents/calendar) the document fails on its issue date; the first is the rejection when the XSL accepts. */
  dated_rules: DatedRuleFailure[];
  sig: 'ok' | 'fail' | 'none' | 'n/a' | 'skip';
  sig_errors: string[];
  problems: string[];
  /** xsd ok, xsl accepted or observed, sig ok (or none unless required); skipped steps are not checked. */
  pass: boolean;
}

export interface InputDocument {
  /** Shown in reports; its base name is the file name given to SUNAT's XSL when it has SUNAT's form. */
  file: string;
  xml: string;
}

function emptyReport(file: string): ValidationReport {
  return {
    file,
    type: null,
    root: null,
    schema: null,
    xsl_file: null,
    nombreArchivoEnviado: null,
    name_source: null,
    has_signature: false,
    xsd: 'skip',
    xsd_note: null,
    xsd_errors: [],
    xsl: 'skip',
    rejection: null,
    rejection_message: null,
    observations: [],
    observation_messages: [],
    xsl_errors: [],
    dated_rules: [],
    sig: 'skip',
    sig_errors: [],
    problems: [],
    pass: false,
  };
}

const byCode = (a: string, b: string) => a.length - b.length || a.localeCompare(b);

export class Validator {
  private rules: PreparedRules | null = null;

  constructor(private readonly options: ValidatorOptions) {}

  /** The adapted working copy of SUNAT's XSL (made once per content of sunat/xsl). */
  preparedRules(): PreparedRules {
    this.rules ??= prepareRules(this.options.cacheDir);
    return this.rules;
  }

  /** Compile the rule sets of these types now (all by default), e.g. before a timed run or a server's first request. */
  async compile(types: string[] = Object.keys(RULE_FILES)): Promise<void> {
    for (const type of types) await compiledRules(this.preparedRules(), type, this.options.onCompile);
  }

  async validate(documents: InputDocument[]): Promise<ValidationReport[]> {
    const skip = this.options.skip ?? {};
    const entries = documents.map((doc) => {
      const report = emptyReport(doc.file);
      let facts: DocumentFacts | null = null;
      try {
        facts = describeDocument(doc.xml, doc.file, { nameFromContent: this.options.nameFromContent });
      } catch (err) {
        if (!(err instanceof NotXmlError)) throw err;
        report.problems.push(err.message);
      }
      if (facts && !facts.type) report.problems.push(`unknown document type: root element ${facts.root}`);
      if (facts) {
        report.root = facts.root;
        report.type = facts.type;
        report.schema = facts.schema;
        report.has_signature = facts.hasSignature;
        if (facts.type && RULE_FILES[facts.type]) {
          report.xsl_file = RULE_FILES[facts.type];
          report.nombreArchivoEnviado = facts.fileName;
          report.name_source = facts.nameSource;
        }
      }
      return { doc, report, facts: report.problems.length ? null : facts };
    });
    const valid = entries.filter((e) => e.facts);
    await Promise.all([
      skip.xsd ? null : this.runXsd(valid),
      skip.sig ? null : Promise.all(valid.map(async (e) => this.runSignature(e.doc, e.report))),
    ]);
    if (!skip.xsl) await this.runXsl(valid);
    for (const { report } of entries) {
      if (report.problems.length) {
        report.xsd = skip.xsd ? 'skip' : 'fail';
        report.xsl = skip.xsl ? 'skip' : 'error';
        report.sig = skip.sig ? 'skip' : 'n/a';
        report.xsd_errors = [...report.problems];
      }
      report.pass = this.passes(report);
    }
    return entries.map((e) => e.report);
  }

  private passes(r: ValidationReport): boolean {
    const skip = this.options.skip ?? {};
    if (r.problems.length) return false;
    if (!skip.xsd && r.xsd !== 'ok') return false;
    if (!skip.xsl && !isValidVerdict(r.xsl)) return false;
    if (!skip.sig && !(r.sig === 'ok' || (r.sig === 'none' && !this.options.requireSignature))) return false;
    return true;
  }

  private async runXsd(
    entries: { doc: InputDocument; report: ValidationReport; facts: DocumentFacts | null }[],
  ): Promise<void> {
    const bySchema = new Map<string, typeof entries>();
    for (const e of entries) {
      if (!e.facts!.schema) {
        e.report.xsd = 'n/a';
        continue;
      }
      bySchema.set(e.facts!.schema, [...(bySchema.get(e.facts!.schema) ?? []), e]);
    }
    for (const [schema, group] of bySchema) {
      // An unsigned document keeps the empty placeholder for the signature, which UBL 2.1 refuses: a copy without it
      // is validated too (in the same xmllint run: compiling the schema is most of the cost) and used when the
      // document itself fails, which the report says.
      const inputs = group.flatMap((e, i) => [
        { name: `${i}`, xml: e.doc.xml },
        ...(e.facts!.emptyExtension ? [{ name: `${i}-stripped`, xml: stripEmptyExtensions(e.doc.xml) }] : []),
      ]);
      const verdicts = await validateAgainstSchema(schema, inputs);
      group.forEach((e, i) => {
        const own = verdicts.get(`${i}`)!;
        const stripped = verdicts.get(`${i}-stripped`);
        e.report.xsd = own.ok ? 'ok' : 'fail';
        e.report.xsd_errors = own.errors;
        if (own.ok || !stripped) return;
        e.report.xsd_note = 'validated a copy without the empty ext:UBLExtensions placeholder';
        e.report.xsd = stripped.ok ? 'ok' : 'fail';
        e.report.xsd_errors = stripped.errors;
      });
    }
  }

  private async runSignature(doc: InputDocument, report: ValidationReport): Promise<void> {
    const v = await verifySignature(doc.xml);
    report.sig = v.result;
    report.sig_errors = v.errors;
  }

  private async runXsl(
    entries: { doc: InputDocument; report: ValidationReport; facts: DocumentFacts | null }[],
  ): Promise<void> {
    for (const [index, { doc, report }] of entries.entries()) {
      this.options.onProgress?.(index, entries.length);
      report.dated_rules = datedRuleFailures(doc.xml, this.options.calendar ?? DEFAULT_CALENDAR);
      if (!report.xsl_file) {
        report.xsl = 'n/a';
        continue;
      }
      let sef: string;
      try {
        sef = await compiledRules(this.preparedRules(), report.type!, this.options.onCompile);
      } catch (err) {
        report.xsl = 'error';
        report.xsl_errors = [(err as Error).message];
        continue;
      }
      const v = runRules(sef, doc.xml, report.nombreArchivoEnviado!);
      report.xsl = v.result;
      report.observations = [...new Set(v.observations.map((o) => o.code))].sort(byCode);
      report.observation_messages = v.observations.map((o) => `${o.code} ${o.message}`);
      if (v.rejection) {
        report.rejection = v.rejection.code;
        report.rejection_message = v.rejection.message;
      }
      if (v.error) report.xsl_errors = [v.error];
      const [dated] = report.dated_rules;
      if (dated && isValidVerdict(v.result)) {
        report.xsl = 'rejected';
        report.rejection = dated.code;
        report.rejection_message = `${dated.message} (rule ${dated.rule})`;
      }
    }
  }
}
