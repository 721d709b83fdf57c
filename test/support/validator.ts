/**
 * chasqui's validator (XSD + SUNAT's XSL + signature) as the tests use it: one instance per run, its compiled rules
 * cached where `chasqui validate` keeps them (CHASQUI_VALIDATOR_CACHE, default ~/.cache/chasqui/validator), so only
 * the first run on a machine pays the compilation (about 76 s of CPU for every type).
 */
import { loadConfig } from '../../core/config';
import { Validator, type InputDocument, type ValidationReport } from '../../validator';

let shared: Validator | null = null;

export function testValidator(): Validator {
  shared ??= new Validator({
    cacheDir: loadConfig().validatorCacheDir,
    requireSignature: true,
    onCompile: (type, file) => console.error(`      (compiling SUNAT's rules for ${type}: ${file}, once per machine)`),
  });
  return shared;
}

/** Judge documents in one batch; the reports come back in the same order. */
export function validateDocuments(documents: InputDocument[]): Promise<ValidationReport[]> {
  return testValidator().validate(documents);
}
