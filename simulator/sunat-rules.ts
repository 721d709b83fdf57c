/**
 * The simulator judging with SUNAT's own validation rules (CHASQUI_SIMULATOR_SUNAT_RULES=true; off by default, for
 * speed): the XSL chasqui's validator runs (validator/rules.ts) decides rejections and observations, so a CDR
 * carries the code SUNAT's XSL gives — for documents chasqui signed and for documents integrators signed themselves.
 * Synchronous on purpose (the simulator answers from a synchronous judge): with `warmUp` the rules are compiled in
 * the background when the simulator starts; a type asked for before it is compiled is compiled on the spot (once per
 * machine: the cache outlives the process).
 */
import { logger } from '../core/logger';
import {
  compiledRules,
  compiledRulesSync,
  prepareRules,
  RULE_FILES,
  runRules,
  type PreparedRules,
  type RulesVerdict,
} from '../validator/rules';

export interface SunatRules {
  /** SUNAT's XSL verdict on one received document, or null when there are no rules for its type or they failed. */
  judge(docType: string, xml: string, fileName: string): RulesVerdict | null;
}

export function sunatRules(cacheDir: string, warmUp = false): SunatRules {
  const prepared: PreparedRules = prepareRules(cacheDir);
  logger.info({ cacheDir }, "simulator: verdicts from SUNAT's own validation rules (XSL)");
  if (warmUp)
    void (async () => {
      for (const type of Object.keys(RULE_FILES)) {
        await compiledRules(prepared, type, (t, file) =>
          logger.info({ docType: t, file, cacheDir }, "simulator: compiling SUNAT's validation rules (once)"),
        );
      }
    })().catch((err: Error) =>
      logger.warn(
        { err: err.message },
        "simulator: SUNAT's validation rules could not be compiled; judging without them",
      ),
    );
  return {
    judge(docType, xml, fileName) {
      if (!RULE_FILES[docType]) return null;
      try {
        const verdict = runRules(compiledRulesSync(prepared, docType), xml, fileName);
        if (verdict.result !== 'error') return verdict;
        logger.warn(
          { docType, fileName, error: verdict.error },
          "simulator: SUNAT's XSL failed on a document; judged without it",
        );
      } catch (err) {
        logger.warn(
          { docType, fileName, err: (err as Error).message },
          "simulator: SUNAT's validation rules unavailable; judged without them",
        );
      }
      return null;
    },
  };
}
