/**
 * chasqui's validator (XSD + SUNAT's XSL + signature) as the tests use it: one instance per run, its compiled rules
 * cached where `chasqui validate` keeps them (CHASQUI_VALIDATOR_CACHE, default ~/.cache/chasqui/validator), so only
 * the first run on a machine pays the compilation (about 76 s of CPU for every type).
 */
import { loadConfig } from '../../core/config';
import { Validator, type InputDocument, type ValidationReport } from '../../validator';
import { inThread, threadData } from './thread';

let shared: Validator | null = null;

export function testValidator(): Validator {
  shared ??= new Validator({
    cacheDir: loadConfig().validatorCacheDir,
    requireSignature: true,
    onCompile: (type, file) => console.error(`      (compiling SUNAT's rules for ${type}: ${file}, once per machine)`),
  });
  return shared;
}

/** A thread takes seconds to start (tsx, then SUNAT's compiled rules read again): worth it for the corpora only. */
const SPLIT_FROM = 20;

/**
 * Judge documents in one batch; the reports come back in the same order. The second half is judged in a worker
 * thread with a validator of its own (the same cached rules): SUNAT's XSL runs on one core per validator.
 */
export async function validateDocuments(documents: InputDocument[]): Promise<ValidationReport[]> {
  if (documents.length < SPLIT_FROM) return testValidator().validate(documents);
  const half = Math.ceil(documents.length / 2);
  const there = inThread<ValidationReport[]>(__filename, documents.slice(half));
  const here = await testValidator().validate(documents.slice(0, half));
  return [...here, ...(await there)];
}

const thread = threadData<InputDocument[]>(__filename);
if (thread) void testValidator().validate(thread.data).then(thread.answer);
